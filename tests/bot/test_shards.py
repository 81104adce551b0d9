"""Shard settings, the rule that says which servers are a process's own, and the launcher's split."""

from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError

import bot.client
from bot.__main__ import main
from bot.cluster import child_environment, shard_ranges
from bot.config import Settings
from testbed.bot_env import BotEnv


def settings(**values: Any) -> Settings:
    return Settings.model_validate(values | {"_env_file": None})


def test_unsharded_by_default_and_every_server_is_ours() -> None:
    plan = settings().shards
    assert not plan.sharded and plan.leads and plan.owns(123 << 22) and plan.owns(124 << 22)


def test_a_process_owns_the_servers_of_its_shards_only() -> None:
    plan = settings(shard_count=4, shard_ids=(1, 3)).shards
    assert [plan.owns(n << 22) for n in range(8)] == [False, True, False, True] * 2
    assert plan.shard_of((4 << 22) | 12345) == 0 and not plan.leads
    assert plan.describe() == "shards 1, 3 of 4"


def test_all_shards_when_no_ids_are_given() -> None:
    plan = settings(shard_count=3).shards
    assert plan.held == {0, 1, 2} and plan.leads


@pytest.mark.parametrize("values", [{"shard_ids": (0,)}, {"shard_count": 2, "shard_ids": (2,)}])
def test_shard_ids_must_fit_the_count(values: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        settings(**values)


def test_the_launcher_splits_shards_into_even_contiguous_ranges() -> None:
    assert shard_ranges(2, 8) == [(0, 1, 2, 3), (4, 5, 6, 7)]
    assert shard_ranges(3, 7) == [(0, 1, 2), (3, 4), (5, 6)]
    with pytest.raises(ValueError, match="between 1 and 2"):
        shard_ranges(3, 2)
    env = child_environment(8, (4, 5))
    assert env["MISTBORN_SHARD_COUNT"] == "8" and env["MISTBORN_SHARD_IDS"] == "[4, 5]"
    ports = [
        child_environment(8, (i,), metrics_port=9100, index=i)["MISTBORN_METRICS_PORT"] for i in range(3)
    ]
    assert ports == ["9100", "9101", "9102"]  # one machine's processes cannot share a port


def test_the_launcher_refuses_without_a_token_or_a_shared_database(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir("/")  # no .env here
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["cluster", "--processes", "2", "--shards", "4"]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert main(["cluster", "--processes", "2", "--shards", "4"]) == 2
    assert "DATABASE_URL" in capsys.readouterr().err


async def test_identify_waits_only_while_its_bucket_is_busy(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every IDENTIFY of a cluster takes its bucket's turn in the database: one bucket waits the
    rest of its 5 s, another goes at once, and nothing sleeps a fixed 5 s."""
    clock, slept = [1000.0], []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock[0] += seconds

    monkeypatch.setattr(bot.client, "time", SimpleNamespace(time=lambda: clock[0]))
    monkeypatch.setattr(bot.client, "asyncio", SimpleNamespace(sleep=sleep))
    client = bot_env.bot
    client.settings = client.settings.model_copy(update={"identify_concurrency": 2})
    client.shard_plan = settings(shard_count=4).shards
    await client.before_identify_hook(0, initial=True)
    await client.before_identify_hook(1, initial=True)  # another bucket: at once
    assert slept == []
    clock[0] += 2
    await client.before_identify_hook(2, initial=True)  # bucket 0 again, 2 s later: 3 s to wait
    assert slept == [3.0]
    clock[0] += 10
    await client.before_identify_hook(3, initial=False)  # a reconnect whose bucket is free
    assert slept == [3.0]
