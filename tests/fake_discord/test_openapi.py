"""The fake holds every REST request against Discord's OpenAPI description (fake_discord.openapi).

Through discord.py's own REST calls (``send``, ``http.request``) against the running fake: a body
the description refuses, or a path it does not have, is a recorded violation and answered as
Discord would (400 Invalid Form Body, 404); a valid body, integer snowflakes and all, is not.
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route

from fake_discord import openapi
from fake_discord.backend import Limits
from fake_discord.harness import Harness, running_bot
from tests.fake_discord.sample_bot import SampleBot, channel_of

JSON = dict[str, Any]
SILENT: JSON = {"parse": []}


def described(h: Harness) -> list[str]:
    """The violations the description found (its JSON path first, or the undescribed path)."""
    return [v.problem for v in h.violations if v.problem.startswith("$") or "API description" in v.problem]


async def post(h: Harness, body: JSON) -> None:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=h.channel.id)
    await h.bot.http.request(route, json=body)


async def test_a_valid_message_with_integer_snowflakes_is_not_a_violation(h: Harness) -> None:
    channel = channel_of(h)
    member = discord.Object(h.member("player1").user.id)
    first = await channel.send("first", allowed_mentions=discord.AllowedMentions.none())
    mentions = discord.AllowedMentions(everyone=False, users=[member], roles=False, replied_user=False)
    await channel.send(f"hello <@{member.id}>", allowed_mentions=mentions, reference=first)
    await first.edit(content="edited", allowed_mentions=discord.AllowedMentions.none())
    assert h.violations == []


async def test_repeated_ids_in_allowed_mentions_users_are_a_violation(h: Harness) -> None:
    channel = channel_of(h)
    member = discord.Object(h.member("player1").user.id)
    twice = discord.AllowedMentions(users=[member, member], everyone=False, roles=False)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("hi", allowed_mentions=twice, file=discord.File(io.BytesIO(b"x"), "notes.txt"))
    assert refused.value.status == 400 and refused.value.code == 50035
    assert any(p.startswith("$.allowed_mentions.users:") and "non-unique" in p for p in described(h))


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        (
            {"content": "x", "components": [{"type": 1, "components": [{"type": 99, "custom_id": "a"}]}]},
            "$.components[0].components[0]: type 99 is not one of",
        ),
        ({"content": "x", "flags": "64"}, "$.flags: '64' is not of type 'integer'"),
        ({"content": "x", "embeds": [{"color": "red"}]}, "$.embeds[0].color: 'red' is not of type"),
    ],
)
async def test_a_body_only_the_description_refuses_is_a_violation_and_a_400(
    h: Harness, body: JSON, complaint: str
) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await post(h, body | {"allowed_mentions": SILENT})
    assert refused.value.status == 400 and refused.value.code == 50035
    assert complaint in refused.value.text
    assert [p for p in described(h) if p.startswith(complaint)] and h.fake.messages == {}


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/channels/{channel_id}/nonsense"), ("PUT", "/channels/{channel_id}/messages")],
)
async def test_a_path_or_method_discord_does_not_describe_is_a_violation(
    h: Harness, method: str, path: str
) -> None:
    with pytest.raises(discord.NotFound):
        await h.bot.http.request(Route(method, path, channel_id=h.channel.id), json={})
    assert any(f"{method} /channels/" in p and "not in Discord's API description" in p for p in described(h))


async def test_the_check_can_be_turned_off_for_a_load_bench() -> None:
    async with running_bot(lambda: SampleBot(sync_in_setup=True), limits=Limits(openapi=False)) as h:
        await post(h, {"content": "x", "flags": "64", "allowed_mentions": SILENT})
        assert described(h) == [] and len(h.fake.messages) == 1


@pytest.mark.parametrize(
    ("method", "path", "body", "complaint"),
    [
        (
            "PUT",
            "/applications/1/guilds/2/commands",
            [{"name": "roll", "default_member_permissions": "8"}],
            None,
        ),
        ("PUT", "/applications/1/guilds/2/commands", [{"name": "roll", "type": "1"}], "$[0].type"),
        ("POST", "/interactions/1/tok/callback", {"type": 4, "data": {"content": "x", "flags": 64}}, None),
        (
            "POST",
            "/interactions/1/tok/callback",
            {"type": 42},
            "$: type 42 is not one of [1, 4, 5, 6, 7, 8, 9, 12, 13]",
        ),
        (
            "POST",
            "/interactions/1/tok/callback",
            {"type": 9, "data": {"custom_id": "m", "title": "T", "components": [{"type": 18}]}},
            "$.data.components[0]",
        ),
        ("PATCH", "/webhooks/1/tok/messages/@original", {"attachments": [{"id": 0}]}, None),
        ("PATCH", "/webhooks/1/tok/messages/@original", {"content": "x" * 2001}, "(2001 long) is too long"),
        ("POST", "/users/@me/channels", {"recipient_id": 12}, None),
    ],
)
def test_bodies_are_judged_by_their_operation(
    method: str, path: str, body: Any, complaint: str | None
) -> None:
    found, problems = openapi.route_problems(method, path)
    assert found is not None and problems == []
    found_problems = openapi.body_problems(found, body)
    if complaint is None:
        assert found_problems == []
    else:
        assert any(complaint in p for p in found_problems), found_problems


def test_a_literal_segment_wins_over_a_parameter() -> None:
    assert openapi.find_template("/webhooks/1/t/messages/@original") == (
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    )
    assert openapi.find_template("/users/@me") == "/users/@me"
    assert openapi.find_template("/users/12") == "/users/{user_id}"
