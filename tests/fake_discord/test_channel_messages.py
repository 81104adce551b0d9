"""Channel messages as Discord serves them: nonces, history pages, deleted channels, rate limits.

Through discord.py's own calls where it has them (``send(nonce=…)``, which always asks Discord
to enforce the nonce; ``history``), and raw HTTP for what a bot sends by hand.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from fake_discord.backend import Limits
from fake_discord.harness import Harness
from fake_discord.process import BotProcess
from fake_discord.ratelimits import RateLimiter, RateLimits
from fake_discord.server import FakeDiscord
from fake_discord.world import default_world
from tests.fake_discord.sample_bot import channel_of

JSON = dict[str, Any]


async def test_a_repeated_nonce_returns_the_message_already_posted(h: Harness) -> None:
    channel = channel_of(h)
    first = await channel.send("once", nonce="mab1")
    again = await channel.send("once", nonce="mab1")
    other = await channel.send("twice", nonce="mab2")
    body = {"content": "thrice", "nonce": "mab2", "allowed_mentions": {"parse": []}}
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    unenforced = await h.bot.http.request(route, json=body)
    assert again.id == first.id and other.id != first.id and int(unenforced["id"]) != other.id
    assert [m["content"] for m in h.fake.messages.values()] == ["once", "twice", "thrice"]
    await first.delete()
    with pytest.raises(discord.NotFound):  # its message was deleted: Discord says so, posts nothing
        await channel.send("once", nonce="mab1")


async def test_a_nonce_is_forgotten_after_a_few_minutes(h: Harness) -> None:
    h.fake.limits.nonce_window = 0.0
    channel = channel_of(h)
    first = await channel.send("once", nonce="mab1")
    again = await channel.send("once", nonce="mab1")
    assert again.id != first.id


async def test_a_nonce_longer_than_25_characters_is_refused(h: Harness) -> None:
    with pytest.raises(discord.HTTPException, match="nonce"):
        await channel_of(h).send("x", nonce="n" * 26)
    h.fake.violations.clear()


async def test_history_pages_newest_first_before_and_after(h: Harness) -> None:
    channel = channel_of(h)
    sent = [await channel.send(f"m{i}") for i in range(7)]
    latest = [m.content async for m in channel.history(limit=3)]
    assert latest == ["m6", "m5", "m4"]
    after = [m.content async for m in channel.history(after=sent[1], limit=3, oldest_first=True)]
    assert after == ["m2", "m3", "m4"]
    before = [m.content async for m in channel.history(before=sent[3], limit=10)]
    assert before == ["m2", "m1", "m0"]
    raw = await h.bot.http.logs_from(channel.id, 2, after=sent[1].id)
    assert [m["content"] for m in raw] == ["m3", "m2"]  # the oldest after it, newest first
    around = await h.bot.http.logs_from(channel.id, 3, around=sent[3].id)
    assert [m["content"] for m in around] == ["m4", "m3", "m2"]


async def test_an_interaction_reply_names_its_interaction_in_history(h: Harness) -> None:
    reply = await h.slash("/ping")
    [message] = [m async for m in channel_of(h).history(limit=1)]
    assert message.interaction_metadata is not None and message.interaction_metadata.id == reply.id


async def test_a_deleted_channel_answers_unknown_channel(h: Harness) -> None:
    channel = channel_of(h)
    posted = await channel.send("soon gone")
    await h.fake.delete_channel(channel.id)
    assert not h.fake.has_channel(channel.id) and posted.id not in h.fake.messages
    for call in (channel.send("again"), posted.edit(content="x"), channel.fetch_message(posted.id)):
        with pytest.raises(discord.NotFound) as gone:
            await call
        assert gone.value.code == 10003
    await asyncio.sleep(0)
    assert h.bot.get_channel(channel.id) is None  # CHANNEL_DELETE reached the bot


async def test_rate_limits_answer_429_beyond_a_bucket_and_send_its_headers() -> None:
    fake = FakeDiscord(default_world(), limits=Limits(rate_limits=RateLimits(per_bucket=2, window=60)))
    await fake.start()
    channel = fake.world.guild.channels[0].id
    url = f"{fake.api_base}/channels/{channel}/messages"
    try:
        async with aiohttp.ClientSession() as session:
            answers = []
            for _ in range(3):
                body = {"content": "hi", "allowed_mentions": {"parse": []}}
                async with session.post(url, json=body) as response:
                    answers.append((response.status, response.headers.get("X-RateLimit-Remaining")))
                    answer = await response.json(content_type=None)
        assert answers == [(200, "1"), (200, "0"), (429, "0")]
        assert answer["retry_after"] > 0 and answer["global"] is False
        assert fake.rate_limiter is not None and fake.rate_limiter.refused == [
            f"POST /channels/{channel}/messages"
        ]
        assert [v.problem for v in fake.violations] == [f"rate limited: POST /channels/{channel}/messages"]
    finally:
        await fake.stop()


def test_the_global_limit_spares_interaction_responses() -> None:
    limiter = RateLimiter(RateLimits(per_bucket=100, global_per_second=2))
    at = 100.0
    assert limiter.check("GET", "/channels/1/messages", "a", at).retry_after is None
    assert limiter.check("GET", "/channels/2/messages", "b", at).retry_after is None
    refused = limiter.check("GET", "/channels/3/messages", "c", at + 0.5)
    assert refused.global_limit and refused.retry_after == pytest.approx(0.5)
    assert limiter.check("POST", "/interactions/1/t/callback", "d", at + 0.5).retry_after is None
    assert limiter.check("GET", "/channels/3/messages", "c", at + 1.0).retry_after is None
    assert limiter.peak_per_second == 2


async def test_a_runner_answers_control_lines(tmp_path: Path) -> None:
    """A runner that echoes: ``done`` for what it knows, ``error`` for what it does not."""
    runner = tmp_path / "echo_runner.py"
    runner.write_text(
        "import sys\n"
        "print('ready', flush=True)\n"
        "for line in sys.stdin:\n"
        "    print('done' if line.startswith('ok') else 'error unknown', flush=True)\n"
    )
    fake = FakeDiscord(default_world())
    process = BotProcess(fake, tmp_path / "x.sqlite3", log_path=tmp_path / "log", runner="echo_runner")
    process.env = {"PYTHONPATH": str(tmp_path)}
    try:
        await process.start(timeout=10)
        await process.control("ok go")
        with pytest.raises(RuntimeError, match="refused 'nope'"):
            await process.control("nope")
        assert process.readies == 1
    finally:
        await process.kill()
