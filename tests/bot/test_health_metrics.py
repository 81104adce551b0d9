"""The operations endpoint: ``/health`` and ``/metrics`` of a bot on the fake Discord.

The bot runs as deployed with ``MISTBORN_METRICS_PORT`` set (0 here: a free port); a few
interactions go through discord.py's real dispatch, and the scrapes before and after show the
figures moving. Off by default, nothing listens.
"""

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import MistbornBot
from bot.config import Settings
from fake_discord.harness import Harness, running_bot
from storage import Storage
from storage.database import BUSY
from storage.errors import DatabaseBusyError
from testbed.bot_env import SEED, table_world

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
async def metered(tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot with its health and metrics endpoint on a free port of 127.0.0.1."""
    storage = await Storage.open(tmp_path / "bot.sqlite3")
    world = table_world()

    def make_bot() -> MistbornBot:
        settings = Settings(
            token=None,
            db_path=tmp_path / "bot.sqlite3",
            dev_guild_id=world.guild.id,
            metrics_port=0,
            _env_file=None,
        )
        return MistbornBot(settings=settings, storage=storage, rng=random.Random(SEED))

    try:
        async with running_bot(make_bot, world=world) as harness:
            yield harness
            assert not harness.violations, harness.violations
    finally:
        await storage.close()


def base_url(harness: Harness) -> str:
    bot = harness.bot
    assert isinstance(bot, MistbornBot) and bot.health_server is not None
    assert bot.health_server.host == "127.0.0.1"
    return f"http://127.0.0.1:{bot.health_server.port}"


async def scrape(harness: Harness) -> Samples:
    async with aiohttp.ClientSession() as session, session.get(base_url(harness) + "/metrics") as resp:
        assert resp.status == 200 and resp.content_type == "text/plain"
        text = await resp.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_health_says_ready_with_its_shard_and_database(metered: Harness) -> None:
    async with aiohttp.ClientSession() as session, session.get(base_url(metered) + "/health") as resp:
        assert resp.status == 200
        body = await resp.json()
    assert body == {
        "status": "ok",
        "ready": True,
        "shards": {"held": 1, "connected": 1},
        "database": "reachable",
        "outbox_backlog": 0,
    }


async def test_health_says_unhealthy_when_the_database_does_not_answer(
    metered: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = metered.bot
    assert isinstance(bot, MistbornBot)

    async def unreachable() -> int:
        raise OSError("connection refused")

    monkeypatch.setattr(bot.storage.outbox, "backlog", unreachable)
    async with aiohttp.ClientSession() as session, session.get(base_url(metered) + "/health") as resp:
        assert resp.status == 503
        body = await resp.json()
    assert body["status"] == "unhealthy" and body["database"] == "unreachable" and body["ready"] is True


async def test_metrics_move_with_interactions(metered: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    before = await scrape(metered)
    assert value(before, "mistborn_ready") == 1
    assert value(before, "mistborn_shards_connected") == value(before, "mistborn_shards_held") == 1
    assert value(before, "mistborn_database_up") == 1
    assert "mistborn_event_loop_lag_seconds" in {name for name, _ in before}
    assert value(before, "mistborn_outbox_backlog") == 0

    for line in ("/roll dice:3", "/roll dice:5 difficulty:2", "/odds roll dice:4"):
        reply = await metered.slash(line, user="player1")
        assert reply.response is not None and not reply.errors, reply.text
    suggested = await metered.autocomplete("/roll stat:st", user="player1")
    assert suggested.response is not None
    bot = metered.bot
    assert isinstance(bot, MistbornBot)
    monkeypatch.setattr(bot.admission, "max_waiting_writes", -1)  # past capacity: refused at once
    busy = await metered.slash("/roll dice:2", user="player1")
    assert busy.ephemeral and "busy" in busy.content
    monkeypatch.undo()

    async def stuck(*args: object) -> int:
        raise DatabaseBusyError(BUSY)

    monkeypatch.setattr(bot.storage.rolls, "append_once", stuck)
    db_busy = await metered.slash("/roll dice:2", user="player2")
    assert db_busy.ephemeral and db_busy.content == BUSY

    async def broken(*args: object) -> int:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(bot.storage.rolls, "append_once", broken)
    failed = await metered.slash("/roll dice:2", user="player2")
    assert failed.ephemeral
    monkeypatch.undo()
    await asyncio.sleep(0.1)  # the lag gauge reads the admission watcher again

    after = await scrape(metered)
    received = "mistborn_interactions_total"
    assert value(after, received, kind="command") - value(before, received, kind="command") == 6
    answered = "mistborn_interaction_answer_seconds_count"
    assert value(after, answered, kind="command") - value(before, answered, kind="command") == 6
    assert value(after, received, kind="autocomplete") - value(before, received, kind="autocomplete") == 1
    assert value(after, answered, kind="autocomplete") - value(before, answered, kind="autocomplete") == 1
    seconds = "mistborn_interaction_answer_seconds_sum"
    assert value(after, seconds, kind="command") > value(before, seconds, kind="command")
    within_3s = "mistborn_interaction_answer_seconds_bucket"
    assert (
        value(after, within_3s, kind="command", le="3.0") - value(before, within_3s, kind="command", le="3.0")
        == 6
    )
    busy_total = "mistborn_busy_answers_total"
    assert value(after, busy_total, reason="overloaded") - value(before, busy_total, reason="overloaded") == 1
    assert value(after, busy_total, reason="database") - value(before, busy_total, reason="database") == 1
    errors = "mistborn_errors_total"
    assert value(after, errors, where="interaction") - value(before, errors, where="interaction") == 1


async def test_nothing_listens_unless_the_port_is_set(tmp_path: Path) -> None:
    settings = Settings(token=None, db_path=tmp_path / "x.sqlite3", _env_file=None)
    assert settings.metrics_port is None and settings.metrics_host == "127.0.0.1"
    async with await Storage.open(settings.db_path) as storage:
        bot = MistbornBot(settings=settings, storage=storage)
        assert bot.health_server is None
        await bot.close()
