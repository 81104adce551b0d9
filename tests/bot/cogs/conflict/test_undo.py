"""Taking back a move with the **Undo** on its reply (issue 43, docs/rulings.md §4.24), through the
real dispatch: the stored Conflict and sheets come back exactly as they were before the click,
as a new version; after another move, or for anyone but the mover, it is refused privately."""

from datetime import timedelta

import pytest

from bot.cogs.conflict import undo
from fake_discord.payloads import JSON
from fake_discord.records import InteractionRecord
from rules.conflict import dump_conflict, load_conflict
from rules.conflict.state import MAX_LOG, LogKind
from storage.sql import fetch_all, fetch_one
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.prompts import FIGHT, labels, latest_ping
from tests.bot.cogs.conflict.test_statement_budget import DUEL
from tests.bot.cogs.sessions.test_sessions import card_text, journal_of
from tests.rules.conflict.test_document import log_entry

Snapshot = tuple[str, int, dict[int, str]]


async def snapshot(env: BotEnv) -> Snapshot:
    """The stored Conflict's document and version, and every participant's stored sheet."""
    stored, rows = await env.storage.conflicts.get_with_sheets(env.guild_id, env.world.guild.channels[0].id)
    assert stored is not None
    return (
        stored.document,
        stored.version,
        {cid: row.character.model_dump_json() for cid, row in rows.items()},
    )


def with_undo(record: InteractionRecord) -> JSON:
    """The move's reply: the message of the click that offers **Undo**."""
    found = [m for m in record.messages if "Undo" in labels(m)]
    assert found, (record.content, [labels(m) for m in record.messages])
    return found[-1]


async def act(env: BotEnv) -> tuple[Snapshot, InteractionRecord]:
    await env.play(FIGHT)
    await env.bot.conflicts.idle()
    prompt = latest_ping(env, "player1")
    dice = next(label for label in labels(prompt) if label.startswith("Act with"))
    before = await snapshot(env)
    acted = await env.harness.click(dice, message=prompt, user="player1")
    assert not refused(acted), acted.content
    return before, acted


async def test_a_misclicked_act_is_taken_back_exactly(bot_env: BotEnv) -> None:
    env = bot_env
    before, acted = await act(env)
    assert (await snapshot(env))[0] != before[0]  # the attack is rolled and waits for a defence
    undone = await env.harness.click("Undo", message=with_undo(acted), user="player1")
    assert not refused(undone), undone.content
    assert "took back" in str(undone.messages)
    document, version, sheets = await snapshot(env)
    assert (document, sheets) == (before[0], before[2])
    assert version == before[1] + 2  # a new version: prompts shown meanwhile are stale
    assert "Act with" in str(latest_ping(env, "player1"))  # Vin is asked to act again
    last = await fetch_one(env.storage.database.reader, "SELECT kind FROM journal ORDER BY id DESC LIMIT 1")
    assert last is not None and last["kind"] == "undone"
    assert not env.harness.violations


async def assert_undo_refused(env: BotEnv, acted: InteractionRecord, user: str, words: str) -> None:
    """``user``'s Undo on ``acted``'s reply is refused privately in ``words``, and changes nothing."""
    moved = await snapshot(env)
    late = await env.harness.click("Undo", message=with_undo(acted), user=user)
    assert refused(late) and words in late.content, late.content
    assert await snapshot(env) == moved
    assert not env.harness.violations


async def test_nobody_else_may_take_back_a_players_move(bot_env: BotEnv) -> None:
    _, acted = await act(bot_env)
    await assert_undo_refused(bot_env, acted, "player2", "Only the one who made that move")


async def test_undo_after_another_move_is_refused(bot_env: BotEnv) -> None:
    _, acted = await act(bot_env)
    defended = await bot_env.slash("/defend dice:0", user="narrator")
    assert not refused(defended), defended.content
    await assert_undo_refused(bot_env, acted, "player1", "can no longer be taken back")


async def test_undo_after_the_window_is_refused(bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    _, acted = await act(bot_env)
    monkeypatch.setattr(undo, "UNDO_WINDOW", timedelta(0))
    await assert_undo_refused(bot_env, acted, "player1", "can no longer be taken back")


async def test_a_narrator_takes_back_a_defence_and_the_wounded_sheet_comes_back(bot_env: BotEnv) -> None:
    env = bot_env
    for reply in await env.play(DUEL):
        assert not refused(reply), reply.content
    attack = await thug_attacks(env)
    before = await snapshot(env)
    defended = await env.harness.click("Don't defend", message=attack.message, user="player1")
    assert not refused(defended), defended.content
    assert (await snapshot(env))[2] != before[2]  # the blow landed on Vin's sheet
    undone = await env.harness.click("Undo", message=with_undo(defended), user="narrator")
    assert not refused(undone), undone.content
    assert "took back" in str(undone.messages)
    document, version, sheets = await snapshot(env)
    assert (document, sheets, version) == (before[0], before[2], before[1] + 2)
    assert not env.harness.violations


async def journal_kinds(env: BotEnv) -> list[str]:
    rows = await fetch_all(env.storage.database.reader, "SELECT kind FROM journal ORDER BY id")
    return [str(row["kind"]) for row in rows]


async def thug_attacks(env: BotEnv) -> InteractionRecord:
    """The Thug's attack on Vin, its defence prompt posted."""
    attack = await env.slash("/act dice:5 who:Thug")
    assert not refused(attack) and attack.message is not None, attack.content
    await env.bot.conflicts.idle()
    return attack


async def thug_hits_vin(env: BotEnv) -> InteractionRecord:
    """The duel played, the Thug's attack, and Vin's "Don't defend": the blow lands."""
    for reply in await env.play(DUEL):
        assert not refused(reply), reply.content
    attack = await thug_attacks(env)
    landed = await env.harness.click("Don't defend", message=attack.message, user="player1")
    assert not refused(landed), landed.content
    return landed


async def test_an_undone_blow_leaves_the_recap_and_the_journal(bot_env: BotEnv) -> None:
    """What the undone move told the journal goes with it: the night's recap and journal read
    as if the blow never landed (docs/rulings.md §4.24)."""
    env = bot_env
    started = await env.slash('/session start title:"The Keep"', user="narrator")
    assert not refused(started), started.content
    defended = await thug_hits_vin(env)
    assert "damage" in await journal_kinds(env)  # the blow landed on Vin
    undone = await env.harness.click("Undo", message=with_undo(defended), user="narrator")
    assert not refused(undone), undone.content
    kinds = await journal_kinds(env)
    assert "damage" not in kinds and kinds[-1] == "undone", kinds
    asked = await env.slash("/session end", user="narrator")  # the fight still runs: confirm
    ended = await env.harness.click("End the session anyway", message=asked.message, user="narrator")
    recap = "\n".join(card_text(message) for message in ended.messages)
    assert "Vin: " not in recap and "damage taken" not in recap, recap
    assert "A move was taken back" in recap, recap
    journal = journal_of(env, await env.slash("/session journal", user="narrator"))
    assert "Health damage" not in journal and "A move was taken back" in journal, journal
    assert not env.harness.violations


async def test_a_move_after_a_blow_is_taken_back_with_the_log_as_it_was(bot_env: BotEnv) -> None:
    """The move kept the document it was made from without its log (``storage.conflict_undo``):
    taken back, the Conflict is exactly as it was, the blow before it still in its log."""
    env = bot_env
    await thug_hits_vin(env)
    await env.bot.conflicts.idle()
    prompt = latest_ping(env, "player1")
    dice = next(label for label in labels(prompt) if label.startswith("Act with"))
    before = await snapshot(env)
    assert '"log":[{' in before[0]  # the blow is in the log
    acted = await env.harness.click(dice, message=prompt, user="player1")
    assert not refused(acted), acted.content
    kept = await fetch_one(env.storage.database.reader, "SELECT undo FROM conflicts")
    assert kept is not None and '"document_without_log"' in kept["undo"]
    undone = await env.harness.click("Undo", message=with_undo(acted), user="player1")
    assert not refused(undone), undone.content
    document, version, sheets = await snapshot(env)
    assert (document, sheets, version) == (before[0], before[2], before[1] + 2)
    assert not env.harness.violations


async def test_a_blow_in_a_long_fight_is_taken_back_with_the_line_its_log_pushed_out(bot_env: BotEnv) -> None:
    """A full log drops its oldest line for the blow's: the record keeps that line alone, not the
    whole log again, and taken back, the Conflict is exactly as it was (``storage.conflict_undo``)."""
    env = bot_env
    for reply in await env.play(DUEL):
        assert not refused(reply), reply.content
    stored = await env.storage.conflicts.get(env.guild_id, env.world.guild.channels[0].id)
    assert stored is not None
    state = load_conflict(stored.document)
    full = tuple(log_entry(n) for n in range(MAX_LOG))
    await env.storage.conflicts.save(
        env.guild_id, stored, dump_conflict(state.model_copy(update={"log": full})), participants=None
    )
    attack = await thug_attacks(env)
    before = await snapshot(env)
    landed = await env.harness.click("Don't defend", message=attack.message, user="player1")
    assert not refused(landed), landed.content
    kept = await fetch_one(env.storage.database.reader, "SELECT undo, document FROM conflicts")
    assert kept is not None and '"document_with_oldest_log"' in kept["undo"]  # a bot before it reads none
    assert len(kept["undo"]) < len(kept["document"]) / 4  # not the log again
    after = load_conflict(str(kept["document"]))
    assert len(after.log) == MAX_LOG and after.log[-1].kind is LogKind.DAMAGE
    undone = await env.harness.click("Undo", message=with_undo(landed), user="player1")
    assert not refused(undone), undone.content
    document, version, sheets = await snapshot(env)
    assert (document, sheets, version) == (before[0], before[2], before[1] + 2)
    assert not env.harness.violations
