"""A database that cannot save, seen from Discord: a clear private answer, a bot that stays up.

The in-process bot answers real interactions from the fake Discord while ``disk.py`` switches
the fault on its writer connection. Writes are refused with a sentence saying nothing was
saved (not the apology for a bug), commands that only read still answer, and the very same
command succeeds once the fault clears.
"""

import logging

import pytest

from storage.errors import NotFoundError
from storage.sql import fetch_all
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, refused
from testbed.cards import is_card
from tests.faults.disk import disk_full, fill_disk, read_only

NOT_SAVED = "Nothing was changed; try again later."


async def roll_labels(env: BotEnv) -> list[str]:
    rows = await fetch_all(env.storage.database.reader, "SELECT label FROM roll_log ORDER BY id")
    return [row["label"] for row in rows]


async def assert_reads_still_answer(env: BotEnv) -> None:
    odds = await env.slash("/odds roll dice:5 difficulty:2", user="player2")
    assert not odds.ephemeral and is_card(odds.message)
    sheet = await env.slash("/character list", user="player2")
    assert sheet.response is not None and not sheet.errors


async def test_read_only_database_refuses_writes_clearly_and_recovers(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    env = bot_env
    caplog.set_level(logging.ERROR)
    async with read_only(env.storage):
        created = await env.slash("/character create name:Vin physique:3 wits:4", user="player1")
        assert refused(created), created.text
        assert "read-only" in created.content and NOT_SAVED in created.content
        rolled = await env.slash("/roll dice:3 label:blocked", user="player1")
        assert refused(rolled) and "read-only" in rolled.content
        await assert_reads_still_answer(env)
        with pytest.raises(NotFoundError):
            await env.storage.characters.get_by_name(env.guild_id, "Vin")
    again = await env.slash("/character create name:Vin physique:3 wits:4", user="player1")
    assert not refused(again), again.text
    assert (await env.storage.characters.get_by_name(env.guild_id, "Vin")).character.name == "Vin"
    assert await roll_labels(env) == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a user error was logged as a bug"


async def test_full_disk_refuses_the_roll_keeps_the_bot_up_and_recovers(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    env = bot_env
    caplog.set_level(logging.ERROR)
    player = env.user_id("player1")
    async with disk_full(env.storage):
        filler = await fill_disk(env.storage, env.guild_id, player)
        rolled = await env.slash("/roll dice:3 label:the-full-disk", user="player1")
        assert refused(rolled), rolled.text
        assert "disk is full" in rolled.content and NOT_SAVED in rolled.content
        await assert_reads_still_answer(env)
    assert "the-full-disk" not in await roll_labels(env)
    again = await env.slash("/roll dice:3 label:the-full-disk", user="player1")
    assert not again.ephemeral and is_card(again.message)
    labels = await roll_labels(env)
    assert labels.count("the-full-disk") == 1 and len(labels) == filler + 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a user error was logged as a bug"


async def test_a_conflict_click_on_a_read_only_database_changes_nothing_and_works_after(
    bot_env: BotEnv,
) -> None:
    """A prompt button pressed while the database refuses writes: the prompt keeps its buttons
    (the state did not move), and pressing it again afterwards settles the attack.

    Read-only only: on a full disk, whether a Conflict save needs a new page depends on how
    full its page is, so the roll test above is the deterministic full-disk case.
    """
    env = bot_env
    await env.play([*DUEL, THUG_ATTACKS])
    prompt = env.harness.last_message()
    assert prompt is not None
    channel = env.world.guild.channels[0].id
    before = await env.storage.conflicts.get(env.guild_id, channel)
    async with read_only(env.storage):
        clicked = await env.harness.click("Don't defend", message=prompt, user="player1")
        assert clicked.ephemeral and NOT_SAVED in clicked.content, clicked.text
    assert await env.storage.conflicts.get(env.guild_id, channel) == before
    assert env.harness.fake.messages[int(prompt["id"])].get("components")
    clicked = await env.harness.click("Don't defend", message=prompt, user="player1")
    assert not clicked.ephemeral, clicked.text
    after = await env.storage.conflicts.get(env.guild_id, channel)
    assert after is not None and before is not None and after.version == before.version + 1
