"""One interaction delivered twice: rolled and logged once, and the second answer is no failure.

During a redeploy Discord may give one shard to two sessions for a while and deliver an
interaction to both; a gateway RESUME replays one too. Here the fake's gateway sends the same
INTERACTION_CREATE to the bot a second time while its record (the one Discord keeps per
interaction) stays the same, so whichever delivery answers second is refused with 40060, as
Discord refuses it. What must hold: the roll log (``/history``, the fairness report) counts
the rolls once, the user sees the roll, and the refused answer is one INFO line, no traceback.
"""

import asyncio
import logging

import pytest

from fake_discord import payloads
from fake_discord.commandline import parse_slash
from fake_discord.records import InteractionRecord, settle
from storage.handled import ALREADY
from storage.sql import fetch_one
from testbed.bot_env import BotEnv
from testbed.cards import is_card

SECOND_ANSWER = "a second initial response to one interaction"
"""The fake's word for the refused answer (Discord's 40060): expected here, it is the point."""


def payload_of(env: BotEnv, line: str, user: str) -> dict[str, object]:
    harness = env.harness
    actor = harness.actor(user)
    parsed = parse_slash(line, harness.commands, actor.guild, actor.member)
    return payloads.slash_command(harness.world, actor, parsed.command, parsed.options, parsed.resolved)


async def delivered_twice(env: BotEnv, line: str, user: str) -> InteractionRecord:
    """``line`` delivered to the bot twice at once, as two sessions of one shard get it."""
    fake = env.harness.fake
    payload = payload_of(env, line, user)
    record = await fake.send_interaction(payload)
    await fake.dispatch("INTERACTION_CREATE", payload)
    await settle(record, total=10.0)
    await asyncio.sleep(0.05)
    await settle(record, total=10.0)
    return record


def expected_refusals_only(env: BotEnv) -> None:
    """Take the refused second answers out of the fake's violations; nothing else may be there."""
    violations = env.harness.violations
    assert all(v.problem == SECOND_ANSWER for v in violations), violations
    violations.clear()


async def outbox_rows(env: BotEnv) -> int:
    row = await fetch_one(env.storage.database.reader, "SELECT COUNT(*) AS n FROM outbox")
    return 0 if row is None else int(row["n"])


def failures(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


@pytest.mark.parametrize(
    ("line", "rolls"),
    [("/roll dice:3", 1), ("/roll dice:12 difficulty:2", 1), ("/contest actor_dice:3 opponent_dice:2", 2)],
)
async def test_a_roll_delivered_twice_is_rolled_and_logged_once(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture, line: str, rolls: int
) -> None:
    caplog.set_level(logging.INFO)
    record = await delivered_twice(bot_env, line, "player1")

    assert record.response is not None and not record.ephemeral and is_card(record.message), record.text
    assert [e["code"] for e in record.errors] == [40060]  # the second delivery's answer, refused
    stats = await bot_env.storage.rolls.stats(bot_env.guild_id)
    assert stats.rolls == rolls
    assert len(await bot_env.storage.rolls.recent(bot_env.guild_id)) == rolls
    assert failures(caplog) == []
    elsewhere = [r for r in caplog.records if "already answered elsewhere" in r.getMessage()]
    assert len(elsewhere) == 1 and elsewhere[0].levelno == logging.INFO
    expected_refusals_only(bot_env)


async def test_a_roll_whose_answer_another_session_gave_logs_one_info_line(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    """The other session answered first (here: before this one could): this process's roll
    answer is refused, and that is logged as one INFO line, not as a failed command."""
    caplog.set_level(logging.INFO)
    fake = bot_env.harness.fake
    payload = payload_of(bot_env, "/roll dice:4", "player1")
    record = await fake.send_interaction(payload)
    record.response = {"type": 5, "data": {}}  # another session's "thinking…"
    assert await record.wait_for(lambda r: bool(r.errors), 5.0)
    await settle(record, total=10.0)

    assert [e["code"] for e in record.errors] == [40060]
    assert failures(caplog) == []
    elsewhere = [r for r in caplog.records if "already answered elsewhere" in r.getMessage()]
    assert len(elsewhere) == 1 and elsewhere[0].levelno == logging.INFO
    expected_refusals_only(bot_env)


async def test_a_replay_after_the_answer_still_says_it_was_carried_out(bot_env: BotEnv) -> None:
    """Delivered again once the first answer is gone (Discord forgot it; a crash lost it): the
    user is told plainly, and the roll is not made again."""
    first = await bot_env.slash("/roll dice:5", user="player2")
    assert is_card(first.message) and not first.ephemeral
    again = await bot_env.harness.send(first.payload)
    assert again.ephemeral and again.content == ALREADY
    assert (await bot_env.storage.rolls.stats(bot_env.guild_id)).rolls == 1


async def test_a_conflict_move_whose_answer_another_session_gave_logs_no_warning(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    """A move saved here whose answer Discord refuses because another session answered: the
    channel gets the move from the outbox, and the log one INFO line, no warning."""
    await bot_env.play(
        [
            ("player1", "/character create name:Vin physique:3 wits:4"),
            ("narrator", '/conflict start kind:physical stakes:"The gate"'),
            ("player1", "/conflict join"),
            ("narrator", "/conflict begin"),
        ]
    )
    caplog.set_level(logging.INFO)
    fake = bot_env.harness.fake
    before = len(fake.messages)
    payload = payload_of(bot_env, "/declare action:full-defence stat:Physique", "player1")
    record = await fake.send_interaction(payload)
    record.response = {"type": 5, "data": {}}  # another session's "thinking…"
    assert await record.wait_for(lambda r: bool(r.errors), 5.0)
    await settle(record, total=10.0)
    await bot_env.bot.conflicts.idle()

    assert [e["code"] for e in record.errors] == [40060]
    assert failures(caplog) == []
    assert any("answered elsewhere" in r.getMessage() for r in caplog.records)
    posted = [m for i, m in fake.messages.items() if i > before and "Vin" in str(m.get("content"))]
    assert posted, "the outbox posts the move to the channel"
    expected_refusals_only(bot_env)


async def test_a_roll_whose_first_answer_another_session_took_still_reaches_the_table(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    """The other session showed "thinking…" first (it deferred, slowed by load): the roll saved
    here still reaches the table, as a follow-up on the interaction's shared token."""
    caplog.set_level(logging.INFO)
    fake = bot_env.harness.fake
    payload = payload_of(bot_env, "/roll dice:4", "player1")
    record = await fake.send_interaction(payload)
    record.response = {"type": 5, "data": {}}  # another session's "thinking…"
    assert await record.wait_for(lambda r: bool(r.errors), 5.0)
    await settle(record, total=10.0)

    assert [e["code"] for e in record.errors] == [40060]
    assert is_card(record.message) and not record.ephemeral, record.text
    assert (await bot_env.storage.rolls.stats(bot_env.guild_id)).rolls == 1
    assert failures(caplog) == []
    expected_refusals_only(bot_env)


async def test_a_conflict_move_delivered_again_says_it_was_carried_out_and_moves_once(
    bot_env: BotEnv,
) -> None:
    """A declaration the engine would take again (a declaration may be changed until the round
    resolves) replayed after its answer: the reply's outbox row is the move's claim, so the
    replay is told it was carried out and neither the Conflict nor the outbox changes."""
    await bot_env.play(
        [
            ("player1", "/character create name:Vin physique:3 wits:4"),
            ("narrator", "/character create name:Thug kind:Villain physique:5 wits:2"),
            ("narrator", '/conflict start kind:physical stakes:"The gate"'),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Thug"),
            ("narrator", "/conflict begin"),
        ]
    )
    first = await bot_env.slash("/declare who:Thug action:attack target:Vin stat:Physique")
    assert not first.ephemeral, first.content
    await bot_env.bot.conflicts.idle()
    channel = int(first.payload["channel_id"])
    stored = await bot_env.storage.conflicts.get(bot_env.guild_id, channel)
    rows = await outbox_rows(bot_env)
    again = await bot_env.harness.send(first.payload)
    await bot_env.bot.conflicts.idle()
    assert again.ephemeral and again.content == ALREADY, again.content
    assert await bot_env.storage.conflicts.get(bot_env.guild_id, channel) == stored
    assert await outbox_rows(bot_env) == rows
