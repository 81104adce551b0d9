"""A channel the bot lost, as Discord serves it: 403 Missing Access without View Channel, 403
Missing Permissions to post without Send Messages, the bot's permissions in it with each
interaction and in discord.py's cache, and every refusal counted toward Discord's ban line."""

import asyncio

import discord
import pytest

from fake_discord.channel_access import set_bot_access
from fake_discord.harness import Harness
from fake_discord.permissions import SEND_MESSAGES, VIEW_CHANNEL
from fake_discord.ratelimits import InvalidRequests
from tests.fake_discord.sample_bot import channel_of


async def test_without_view_channel_the_bot_is_refused_everything_in_the_channel(h: Harness) -> None:
    channel = channel_of(h)
    message = await channel.send("before")
    await set_bot_access(h.fake, channel.id, denied=VIEW_CHANNEL)
    await asyncio.sleep(0.05)  # CHANNEL_UPDATE reaches the bot
    guild = channel.guild
    assert not channel.permissions_for(guild.me).view_channel  # discord.py's cache knows
    for attempt in (channel.send("after"), message.edit(content="edited"), h.bot.fetch_channel(channel.id)):
        with pytest.raises(discord.Forbidden) as refused:
            await attempt
        assert refused.value.code == 50001
    record = await h.slash("/ping")  # interactions still come, saying what the bot may do there
    assert not int(record.payload["app_permissions"]) & VIEW_CHANNEL
    assert [status for _, status, _ in h.fake.invalid.seen] == [403, 403, 403]

    await set_bot_access(h.fake, channel.id, denied=SEND_MESSAGES)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("still not")
    assert refused.value.code == 50013
    assert [m.content async for m in channel.history()] == ["pong", "before"]  # reading is allowed again
    await set_bot_access(h.fake, channel.id, denied=0)
    await channel.send("back")


@pytest.mark.parametrize(
    ("times", "window", "most"),
    [([], 600, 0), ([0, 1, 2], 600, 3), ([0, 300, 601, 602], 600, 3), ([0, 1, 700, 701, 702], 600, 3)],
)
def test_invalid_requests_are_held_against_the_ban_window(
    times: list[float], window: float, most: int
) -> None:
    invalid = InvalidRequests()
    for at in times:
        invalid.record(403, "GET /channels/1/messages", now=at)
    invalid.record(404, "GET /channels/2/messages", now=0)  # not refused: Discord counts it not
    assert invalid.most_in_window(window) == most and len(invalid) == len(times)
