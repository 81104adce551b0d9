"""Channel webhooks in the fake Discord, through discord.py's own calls: listing and making one
needs Manage Webhooks (403, code 50013), a message through one has the webhook as its author
under the username given, ``thread_id`` posts into one of the channel's threads only, the
webhook's token is checked, and read by its token a webhook says which channel it is in now
(``fake_discord.webhook_routes``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from fake_discord.harness import Harness, running_bot
from fake_discord.permissions import MANAGE_WEBHOOKS
from fake_discord.render import render_message
from fake_discord.world import FakeChannel, default_world
from tests.fake_discord.openapi_check import problems, response_schema
from tests.fake_discord.sample_bot import SampleBot, channel_of

NO_PINGS = discord.AllowedMentions.none()


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    world = default_world()
    table = world.guild.channels[0]
    world.guild.channels.append(FakeChannel(world.ids.next(), "fight", type=11, parent_id=table.id))
    async with running_bot(lambda: SampleBot(sync_in_setup=True), world=world) as harness:
        yield harness


async def test_a_webhook_is_made_listed_and_posts_under_the_username_given(h: Harness) -> None:
    channel = channel_of(h)
    made = await channel.create_webhook(name="Voices")
    [listed] = await channel.webhooks()
    assert (listed.id, listed.token, listed.name) == (made.id, made.token, "Voices")
    assert listed.user is not None and listed.user.id == h.world.bot.id
    sent = await made.send("Survive.", username="Vin", allowed_mentions=NO_PINGS, wait=True)
    stored = h.fake.messages[sent.id]
    assert sent.author.name == "Vin" and sent.webhook_id == made.id
    assert stored["author"]["username"] == "Vin" and stored["channel_id"] == str(channel.id)
    assert render_message(stored).splitlines() == ["[Vin]", "Survive."]
    assert h.violations == []


async def test_without_manage_webhooks_discord_answers_missing_permissions(h: Harness) -> None:
    role = h.world.guild.role("Mistborn Bot")
    assert role is not None
    role.permissions &= ~MANAGE_WEBHOOKS
    channel = channel_of(h)
    for call in (channel.webhooks(), channel.create_webhook(name="Voices")):
        with pytest.raises(discord.Forbidden) as refused:
            await call
        assert (refused.value.status, refused.value.code) == (403, 50013)
    assert h.fake.webhooks == {}


async def test_thread_id_posts_into_a_thread_of_the_webhooks_channel_only(h: Harness) -> None:
    channel = channel_of(h)
    [thread] = channel.threads
    made = await channel.create_webhook(name="Voices")
    sent = await made.send("Here.", username="Vin", allowed_mentions=NO_PINGS, thread=thread, wait=True)
    assert h.fake.messages[sent.id]["channel_id"] == str(thread.id)
    elsewhere = discord.Object(h.world.guild.channels[1].id)
    with pytest.raises(discord.HTTPException) as refused:
        await made.send("No.", username="Vin", allowed_mentions=NO_PINGS, thread=elsewhere, wait=True)
    assert refused.value.code == 10003


async def test_a_wrong_token_or_a_forbidden_name_is_refused(h: Harness) -> None:
    channel = channel_of(h)
    with pytest.raises(discord.HTTPException) as named:
        await channel.create_webhook(name="Discord helper")
    assert named.value.code == 50035
    made = await channel.create_webhook(name="Voices")
    forged = discord.Webhook.partial(made.id, "x" * 60, client=h.bot)
    with pytest.raises(discord.HTTPException) as wrong:
        await forged.send("Hi.", username="Vin", allowed_mentions=NO_PINGS, wait=True)
    assert (wrong.value.status, wrong.value.code) == (401, 50027)
    h.fake.violations.clear()  # the forbidden name was recorded as Discord would refuse it


async def test_a_webhook_read_by_its_token_says_where_it_is_now(h: Harness) -> None:
    """As Discord answers ``GET /webhooks/{id}/{token}``: no ``user``, and the channel a
    moderator may have moved it to since."""
    channel = channel_of(h)
    made = await channel.create_webhook(name="Voices")
    other = h.world.guild.channels[1]
    h.fake.webhooks[made.id]["channel_id"] = str(other.id)  # moved, in Discord's client
    read = await made.fetch(prefer_auth=False)
    assert read.channel_id == other.id and read.user is None
    answer = {k: v for k, v in h.fake.webhooks[made.id].items() if k != "user"}
    assert problems(answer, response_schema("/webhooks/{webhook_id}/{webhook_token}")) == []
    sent = await made.send("Elsewhere.", username="Vin", allowed_mentions=NO_PINGS, wait=True)
    assert h.fake.messages[sent.id]["channel_id"] == str(other.id)
    forged = discord.Webhook.partial(made.id, "x" * 60, client=h.bot)
    with pytest.raises(discord.HTTPException) as wrong:
        await forged.fetch(prefer_auth=False)
    assert (wrong.value.status, wrong.value.code) == (401, 50027)
