"""Layout messages (flag IS_COMPONENTS_V2) as the fake Discord takes and refuses them: no content
or embeds beside the components, at most 40 components and 4,000 characters of text, sections and
containers as Discord builds them, and a message that is a layout stays one
(``fake_discord.layout``). Through discord.py where it sends such bodies, raw HTTP for the bodies
a buggy bot could send by hand."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route
from rich.console import Console as RichConsole

from fake_discord.harness import Harness
from fake_discord.layout import IS_COMPONENTS_V2, edit_problems, layout_problems
from fake_discord.message_payloads import mentioned_users
from fake_discord.render import render_message
from fake_discord.terminal import RichScreen
from fake_discord.validate import mention_problems
from fake_discord.world import default_world
from tests.fake_discord.sample_bot import channel_of, sample_card

JSON = dict[str, Any]
V2 = IS_COMPONENTS_V2
NO_PINGS: JSON = {"parse": []}


def text(content: str = "words") -> JSON:
    return {"type": 10, "content": content}


def container(*children: JSON, **extra: object) -> JSON:
    return {"type": 17, "components": list(children)} | extra


def layout(*components: JSON, **extra: object) -> JSON:
    return {"flags": V2, "components": list(components)} | extra


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (layout(text(), content="hi"), "content cannot be used with the IS_COMPONENTS_V2 flag"),
        (layout(text(), embeds=[{"title": "t"}]), "embeds cannot be used with the IS_COMPONENTS_V2 flag"),
        (layout(*[text()] * 41), "41 components in the message, counted with every child (max 40)"),
        (layout(container(*[text()] * 40)), "41 components in the message"),
        (layout(text("a" * 2000), container(text("b" * 2001))), "4001 characters in total (max 4000)"),
        (layout({"type": 11, "media": {"url": "https://x/a.png"}}), "component 0 is a thumbnail"),
        (layout(container(container(text()))), "component 0.0 is a container, which cannot sit there"),
        (layout({"type": 9, "components": [text()]}), "a section needs an accessory"),
        (
            layout({"type": 9, "components": [text()] * 4, "accessory": {"type": 2, "custom_id": "a"}}),
            "a section holds one to three text displays",
        ),
        (layout(container(text(), accent_color=0x1000000)), "accent_color 16777216 must be an RGB integer"),
        (layout(container(text(), accent_color="red")), "accent_color 'red' must be an RGB integer"),
        (
            layout({"type": 12, "items": [{"media": {"url": "attachment://odds.png"}}]}, attachments=[]),
            "attachment://odds.png names no attachment of the message",
        ),
        (layout(), "a layout message needs at least one component"),
    ],
)
def test_layout_problems_name_the_rule(body: JSON, problem: str) -> None:
    assert any(problem in found for found in layout_problems(body)), layout_problems(body)


def test_a_layout_at_the_limits_is_fine() -> None:
    body = layout(text("a" * 2000), container(*[text("b" * 50)] * 38, accent_color=0xFFFFFF))
    assert layout_problems(body) == []


@pytest.mark.parametrize(
    ("stored", "body", "problem"),
    [
        (layout(text()), {"flags": 0, "content": "x"}, "keeps the flag: an edit cannot remove it"),
        (layout(text()), {"content": "x"}, "content cannot be used with the IS_COMPONENTS_V2 flag"),
        ({"content": "old", "flags": 0}, layout(text()), "needs content reset to null"),
        ({"embeds": [{"title": "t"}], "flags": 0}, layout(text()), "needs embeds reset to []"),
    ],
)
def test_edits_keep_a_layout_a_layout(stored: JSON, body: JSON, problem: str) -> None:
    assert any(problem in found for found in edit_problems(stored, body)), edit_problems(stored, body)


def test_an_edit_may_turn_a_message_into_a_layout_that_resets_its_content() -> None:
    stored = {"content": "old", "embeds": [{"title": "t"}], "flags": 0}
    assert edit_problems(stored, layout(text(), content=None, embeds=[])) == []
    assert edit_problems(layout(text()), layout(text("new"))) == []


async def test_a_layout_reply_is_stored_with_its_flag_and_drawn_as_a_card(h: Harness) -> None:
    for late in (False, True):  # the first response, and a followup after "thinking"
        reply = await h.slash(f"/card text:Vin **wins** late:{late}")
        assert reply.errors == [] and reply.message is not None
        assert reply.message["flags"] & V2 and reply.content == "" and reply.embeds == []
        assert render_message(reply.message).splitlines() == ["▌ (green)", "▌ Vin **wins**", "▌ [Again]"]
    assert h.violations == []


async def test_content_beside_a_layout_is_refused_in_every_path(h: Harness) -> None:
    for late in (False, True):
        reply = await h.slash(f"/card beside:hello late:{late}")
        assert reply.errors and "content cannot be used" in str(reply.errors[0]["message"])
    channel = channel_of(h)
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    body = layout(text(), content="hi", allowed_mentions=NO_PINGS)
    with pytest.raises(discord.HTTPException) as refused:
        await h.bot.http.request(route, json=body)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    hook = await channel.create_webhook(name="Voices")
    with pytest.raises(discord.HTTPException) as through_hook:
        await hook.send("hi", view=sample_card("card"), username="Vin", wait=True)  # type: ignore[call-overload]
    assert (through_hook.value.status, through_hook.value.code) == (400, 50035)
    assert not [m for m in h.fake.messages.values() if m["flags"] & V2]
    assert all(v.rejected for v in h.violations)


async def test_an_over_limit_layout_is_refused(h: Harness) -> None:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=h.channel.id)
    for body in (layout(*[text()] * 41), layout(container(text("x" * 4001)))):
        with pytest.raises(discord.HTTPException) as refused:
            await h.bot.http.request(route, json=body | {"allowed_mentions": NO_PINGS})
        assert (refused.value.status, refused.value.code) == (400, 50035)
    assert h.fake.messages == {}


async def test_a_message_turns_into_a_layout_and_never_back(h: Harness) -> None:
    channel = channel_of(h)
    message = await channel.send("plain words", embed=discord.Embed(title="An embed"))
    route = Route("PATCH", "/channels/{c}/messages/{m}", c=channel.id, m=message.id)
    with pytest.raises(discord.HTTPException):  # content and embeds left as they were
        await h.bot.http.request(route, json=layout(text("card")))
    card = await message.edit(content=None, embed=None, view=sample_card("now a card"))
    stored = h.fake.messages[card.id]
    assert stored["flags"] & V2 and stored["content"] == "" and stored["embeds"] == []
    for body in ({"content": "back"}, {"flags": 0, "components": [text()]}):
        with pytest.raises(discord.HTTPException):
            await h.bot.http.request(route, json=body)
    assert h.fake.messages[card.id]["flags"] & V2
    assert "now a card" in render_message(h.fake.messages[card.id])


def test_a_layouts_text_displays_are_where_its_mentions_live() -> None:
    """Discord pings from a text display as from content: the house rule on allowed_mentions and
    the fake's ``mentions`` read them."""
    world = default_world()
    member = world.guild.members[0]
    ping = layout(container(text(f"<@{member.user.id}> roll Charm")))
    assert mention_problems(ping) == ["message content sent without allowed_mentions"]
    allowed = ping | {"allowed_mentions": {"users": [str(member.user.id)]}}
    assert mention_problems(allowed) == []
    pinged = mentioned_users(world, world.guild.id, allowed)
    assert [user["id"] for user in pinged] == [str(member.user.id)]
    assert mentioned_users(world, world.guild.id, ping | {"allowed_mentions": NO_PINGS}) == []


def test_the_terminal_draws_a_card_edged_in_its_accent() -> None:
    out = io.StringIO()
    screen = RichConsole(file=out, force_terminal=True, color_system="truecolor", width=60)
    card = layout(container(text("### Leap\n**Success**"), {"type": 14}, accent_color=0x009E73))
    screen.print(RichScreen(screen, lambda words: words).render(card))
    drawn = out.getvalue()
    assert "Leap" in drawn and "Success" in drawn and "╭" in drawn
    assert "38;2;0;158;115" in drawn  # the panel's edge, in the accent's own colour
