"""A locked or slow database never leaves a user unanswered, nor applies a move twice.

Another process (a backup, a second bot, an operator's ``sqlite3`` shell) holds the file's write
lock past Discord's 3-second deadline. The bot defers at 2 s ("thinking…"), then finishes by
follow-up: the change when the lock is freed in time, a private "busy" when it is not. Either
way the user has an answer, and sending the same interaction again changes nothing.
"""

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from rules.character import CharacterKind, make_character
from storage.database import BUSY
from storage.handled import ALREADY
from testbed.bot_env import BotEnv
from testbed.cards import shows

HARDY = {
    "attributes": {"physique": 4, "charm": 3, "wits": 3},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}


def hold_lock(path: Path, seconds: float, held: threading.Event, release: threading.Event) -> None:
    """Another connection takes the write lock for `seconds`, or until `release` is set."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        held.set()
        release.wait(seconds)
        conn.execute("COMMIT")
    finally:
        conn.close()


async def locked_for(
    env: BotEnv, seconds: float, release: threading.Event | None = None
) -> "asyncio.Future[None]":
    """Hold the lock from another connection. The bot's own background pruning is stopped first:
    it would otherwise take the writer ahead of the command and spend its 5 s waiting there."""
    env.bot.upkeep.close()
    await asyncio.sleep(0)
    held = threading.Event()
    until = release if release is not None else threading.Event()
    holder = asyncio.ensure_future(asyncio.to_thread(hold_lock, env.db_path, seconds, held, until))
    while not held.is_set():
        await asyncio.sleep(0.01)
    return holder


async def health_lost(env: BotEnv) -> int:
    return (await env.storage.characters.get_by_name(env.guild_id, "Vin")).character.damage.health


@pytest.fixture
async def vin(bot_env: BotEnv) -> BotEnv:
    character = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=bot_env.user_id("player1"), **HARDY
    )
    await bot_env.storage.characters.create(bot_env.guild_id, character)
    return bot_env


async def test_a_lock_past_the_deadline_defers_then_answers_and_a_retry_changes_nothing(vin: BotEnv) -> None:
    holder = await locked_for(vin, 3.5)
    damage, roll = await asyncio.gather(
        vin.slash("/sheet damage amount:4 name:Vin", user="player1"),
        vin.slash("/roll dice:5", user="player2"),
    )
    await holder
    for reply in (damage, roll):
        assert reply.deferred and not reply.errors
        assert not reply.ephemeral and shows(reply.message)
    assert damage.embeds[0]["title"] == "Vin: 4 Health damage"
    assert await health_lost(vin) == 4

    again = await vin.harness.send(damage.payload)  # the same interaction, delivered again
    assert again.ephemeral and again.content == ALREADY
    assert await health_lost(vin) == 4
    assert not vin.harness.violations


@pytest.mark.slow
async def test_a_lock_past_the_busy_timeout_is_a_private_busy_answer_and_nothing_changes(vin: BotEnv) -> None:
    release = threading.Event()  # held until the command has answered, however late it ran
    holder = await locked_for(vin, 30.0, release)
    damage = await vin.slash("/sheet damage amount:4 name:Vin", user="player1")
    release.set()
    await holder
    assert damage.deferred and damage.ephemeral and damage.content == BUSY
    assert await health_lost(vin) == 0
    retried = await vin.slash("/sheet damage amount:4 name:Vin", user="player1")
    assert not retried.ephemeral and await health_lost(vin) == 4
    assert not vin.harness.violations
