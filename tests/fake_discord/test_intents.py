"""The fake gateway sends message events only to a client whose IDENTIFY asked for them."""

from __future__ import annotations

import asyncio

import discord
import pytest

from fake_discord.gateway import DIRECT_MESSAGES, GUILD_MESSAGES, wanted
from fake_discord.harness import running_bot
from tests.fake_discord.sample_bot import SampleBot


@pytest.mark.parametrize(
    ("event", "data", "intents", "sent"),
    [
        ("MESSAGE_CREATE", {"guild_id": "1"}, GUILD_MESSAGES, True),
        ("MESSAGE_CREATE", {"guild_id": "1"}, DIRECT_MESSAGES, False),
        ("MESSAGE_UPDATE", {"channel_id": "2"}, DIRECT_MESSAGES, True),
        ("MESSAGE_DELETE", {"channel_id": "2"}, GUILD_MESSAGES, False),
        ("MESSAGE_CREATE", {"guild_id": "1"}, 1, False),  # GUILDS only
        ("INTERACTION_CREATE", {"guild_id": "1"}, 0, True),  # interactions need no intent
        ("GUILD_CREATE", {"id": "1"}, 1, True),
    ],
)
def test_which_events_a_session_gets(event: str, data: dict[str, str], intents: int, sent: bool) -> None:
    assert wanted(event, data, intents) is sent


class Watching(SampleBot):
    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(sync_in_setup=True, intents=intents)
        self.seen: list[str] = []

    async def on_socket_event_type(self, event: str) -> None:
        self.seen.append(event)


@pytest.mark.parametrize(
    ("intents", "echoed"), [(discord.Intents.default(), True), (discord.Intents(guilds=True), False)]
)
async def test_a_bot_hears_its_own_replies_only_with_the_message_intent(
    intents: discord.Intents, echoed: bool
) -> None:
    async with running_bot(lambda: Watching(intents)) as h:
        assert h.fake.gateway.shard(0).intents == intents.value
        reply = await h.slash("/ping")
        assert reply.content == "pong"
        await asyncio.sleep(0.05)  # an echo would follow the callback at once
        bot = h.bot
        assert isinstance(bot, Watching)
        assert ("MESSAGE_CREATE" in bot.seen) is echoed
