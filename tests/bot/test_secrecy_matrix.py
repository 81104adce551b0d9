"""Issue 14's secrecy matrix, every cell through the real discord.py path (``secrecy_matrix``).

For each member of ``PERSONAS`` and each thing in ``ROWS``: put the table back as it was (every
row of every table), set the Conflict up for that thing if it needs it, send the interaction as
that member, and read what the bot did. A refusal must be private, give the reason the rule
gives, and leave the database exactly as it was. The observed matrix must equal ``EXPECTED``,
cell by cell. The table and the sending live in ``secrecy_table``.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.render.rows import one_line
from fake_discord import payloads
from fake_discord.commandline import find_command
from testbed.bot_env import controls, text_displays
from testbed.cards import card_text
from tests.bot.cogs.sessions.test_sessions import journal_of
from tests.bot.rooms import room
from tests.bot.secrecy_matrix import EXPECTED, PERSONAS, ROWS, markdown
from tests.bot.secrecy_table import (
    GMROLL,
    HUSHED,
    OPEN_ROLLS,
    OWN,
    PLAN,
    ROOM_ROLL,
    Table,
    accepted,
    acting,
    actor,
    declaring_first,
    defending,
    deliver,
    open_table,
    refusal,
    restore,
    routed,
    shown,
    slash,
    table_dice,
    text,
    who,
)
from tests.bot.test_bad_input import Outcome


@pytest.fixture
async def secrecy_table(tmp_path: Path) -> AsyncIterator[Table]:
    async with open_table(tmp_path) as table:
        yield table


# -- one function per row ----------------------------------------------------------------------

Cell = Callable[[Table, str], Awaitable[str]]


async def cell_show(t: Table, p: str) -> str:
    return shown(await slash(t, p, "/character show name:Straff"), "shown", needle=PLAN)


async def cell_export(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/character export name:Straff")
    if refusal(outcome):
        return "refused"
    assert outcome.record.message is not None and outcome.record.message["attachments"]
    return f"file {'privately' if outcome.record.ephemeral else 'publicly'}"


async def cell_list(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/character list")
    assert not refusal(outcome), outcome.text
    if "Straff" not in text(outcome.record):
        return "not listed"
    return f"listed {'privately' if outcome.record.ephemeral else 'publicly'}"


async def cell_autocomplete(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/character show name:Str", autocomplete=True)
    return "offered" if any(c["name"] == "Straff" for c in outcome.record.choices) else "not offered"


async def cell_menu(t: Table, p: str) -> str:
    who_ = actor(t, p)
    command = find_command(t.env.harness.fake.commands.visible_in(who_.guild.id), "View sheet", kind=2)
    target = who_.guild.member("former")
    assert target is not None
    outcome = await deliver(t, payloads.user_menu(t.env.world, who_, command, target))
    return shown(outcome, "shown")


async def cell_history(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/history rolls")
    assert not refusal(outcome), outcome.text
    if GMROLL not in text(outcome.record):
        return "not listed"
    return f"listed {'privately' if outcome.record.ephemeral else 'publicly'}"


async def cell_fairness(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/history fairness")
    assert not refusal(outcome), outcome.text
    match = re.search(r"(\d+) rolls?, \d+ dice", text(outcome.record))
    assert match is not None, outcome.text
    if int(match[1]) <= OPEN_ROLLS:  # the open rolls only (or, elsewhere, nothing)
        return "not counted"
    return f"counted {'privately' if outcome.record.ephemeral else 'publicly'}"


async def cell_board(t: Table, p: str) -> str:
    harness = t.env.harness
    message_id = await t.storage.boards.get(t.env.guild_id, t.env.world.guild.channels[0].id)
    assert message_id is not None
    board = harness.fake.messages[message_id]
    [button] = [c for c in controls(board) if c.get("label") == "Narrator view"]
    outcome = await deliver(t, payloads.component_click(t.env.world, actor(t, p), board, button))
    if refusal(outcome):
        return "refused"
    card = card_text(outcome.record.messages[0])
    assert outcome.record.ephemeral and re.search(r"Straff\*\* · .*AD \d", card), card
    return "full board privately"


async def cell_contest(t: Table, p: str) -> str:
    return routed(await slash(t, p, "/contest actor_dice:3 opponent:Straff opponent_stat:Physique"), "dice")


async def cell_roll(t: Table, p: str) -> str:
    return routed(await slash(t, p, "/roll character:Straff stat:Physique"), "dice")


def faces(own: bool, on: bool) -> Cell:
    async def cell(t: Table, p: str) -> str:
        await table_dice(t, on)
        if own:
            await acting(t)
            return accepted(await slash(t, p, f'/act {who(p)}dice:2 faces:"3 3"'))
        await defending(t)
        return accepted(await slash(t, p, '/defend dice:0 attacker_faces:"3 3"'))

    return cell


async def cell_challenge(t: Table, p: str) -> str:
    await declaring_first(t, p)
    target = "Vin" if OWN[p] == "Straff" else "Straff"
    line = f"/declare {who(p)}action:attack target:{target} stat:Physique challenge:true"
    return accepted(await slash(t, p, line))


def sheet(line: str) -> Cell:
    """A change of the member's own character (the Narrators': hidden Straff's)."""

    async def cell(t: Table, p: str) -> str:
        return routed(await slash(t, p, line.format(name=OWN[p])), "state")

    return cell


async def cell_act_villain(t: Table, p: str) -> str:
    await acting(t)
    return accepted(await slash(t, p, "/act who:Straff dice:2"))


def privately(outcome: Outcome) -> str:
    return "privately" if outcome.record.ephemeral else "publicly"


async def cell_room_journal(t: Table, p: str) -> str:
    [night] = await t.storage.journal.sessions(t.env.guild_id, room(t.env, "ooc").id, limit=1)
    outcome = await slash(t, p, f"/session journal session:{night.id}")
    if refusal(outcome):
        return "refused"
    assert ROOM_ROLL in journal_of(t.env, outcome.record), outcome.text
    return f"file {privately(outcome)}"


async def cell_room_history(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/history rolls count:25")
    assert not refusal(outcome), outcome.text
    return f"listed {privately(outcome)}" if ROOM_ROLL in text(outcome.record) else "not listed"


async def cell_room_story(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/sheet history name:Vin")
    if refusal(outcome):
        return "refused"
    return f"listed {privately(outcome)}" if ROOM_ROLL in journal_of(t.env, outcome.record) else "not listed"


async def cell_thread_recap(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/session recap")
    if refusal(outcome):
        return "refused"
    return f"shown {privately(outcome)}" if HUSHED in card_text(outcome.record.messages[0]) else "not shown"


CELLS: dict[str, Cell] = {
    "show": cell_show,
    "export": cell_export,
    "list": cell_list,
    "autocomplete": cell_autocomplete,
    "menu": cell_menu,
    "history": cell_history,
    "fairness": cell_fairness,
    "board": cell_board,
    "contest": cell_contest,
    "roll": cell_roll,
    "faces_own_off": faces(own=True, on=False),
    "faces_own_on": faces(own=True, on=True),
    "faces_other_off": faces(own=False, on=False),
    "faces_other_on": faces(own=False, on=True),
    "challenge": cell_challenge,
    "heal": sheet("/sheet heal amount:1 name:{name}"),
    "damage": sheet("/sheet damage amount:1 name:{name}"),
    "burden": sheet("/burden add burden:Cut severity:serious name:{name}"),
    "act_villain": cell_act_villain,
    "room_journal": cell_room_journal,
    "room_history": cell_room_history,
    "room_story": cell_room_story,
    "thread_recap": cell_thread_recap,
}


SECRET = "one of the Narrator's characters"
NOT_HERE = {"stranger": "There is no character named"}
NO_CONFLICT = {"stranger": "There is no Conflict running"}
REASONS: dict[str, dict[str, str]] = {
    "show": {"player": SECRET, "other": SECRET, "former": SECRET, **NOT_HERE},
    "export": {"player": SECRET, "other": SECRET, "former": SECRET, **NOT_HERE},
    "menu": {"player": SECRET, "other": SECRET, "former": SECRET, "stranger": "no active character"},
    "board": dict.fromkeys(("player", "other", "former", "stranger"), "Only a Narrator"),
    "contest": {"player": SECRET, "other": SECRET, "former": SECRET, **NOT_HERE},
    "roll": {"player": SECRET, "other": SECRET, "former": SECRET, **NOT_HERE},
    "faces_own_off": {"player": "Typed dice", "other": "Typed dice", "former": "not yours", **NO_CONFLICT},
    "faces_own_on": {"former": "not yours", **NO_CONFLICT},
    **{
        key: {
            "player": "Only the one who rolls Straff's dice",
            "other": "Only Vin's player",
            "former": "Only Vin's player",
            **NO_CONFLICT,
        }
        for key in ("faces_other_off", "faces_other_on")
    },
    "challenge": {"player": "unopposed", "other": "unopposed", "former": "not yours", **NO_CONFLICT},
    **{
        key: {
            "player": "is in the Conflict in",
            "other": "is in the Conflict in",
            "former": SECRET,
            **NOT_HERE,
        }
        for key in ("heal", "damage", "burden")
    },
    "act_villain": {"player": "not yours", "other": "not yours", "former": "not yours", **NO_CONFLICT},
    "room_journal": {"other": "There is no session #", "stranger": "There is no session #"},
    "room_story": NOT_HERE,
    "thread_recap": {"stranger": "No session has been played in this channel"},
}
"""Why each refusal is refused: a phrase its reply must hold (a refusal for another reason,
such as "not your turn", would not prove the rule)."""


def test_every_row_has_a_cell_and_an_expectation() -> None:
    assert list(CELLS) == list(ROWS) == list(EXPECTED)
    assert all(set(cells) == set(PERSONAS) for cells in EXPECTED.values())
    refused = {(key, p) for key, cells in EXPECTED.items() for p, cell in cells.items() if cell == "refused"}
    assert refused == {(key, p) for key, reasons in REASONS.items() for p in reasons}
    assert markdown().count("\n") == len(ROWS) + 1


@pytest.mark.parametrize("persona", list(PERSONAS))
async def test_the_secrecy_matrix(secrecy_table: Table, persona: str) -> None:
    t = secrecy_table
    observed: dict[str, str] = {}
    for row_key, cell in CELLS.items():
        await t.probe.settle()
        await restore(t.storage, t.base)
        t.said = ""
        observed[row_key] = await cell(t, persona)
        if observed[row_key] == "refused":
            reason = REASONS[row_key][persona]
            assert reason in t.said, f"{row_key}: refused for another reason: {t.said}"
    expected = {row_key: cells[persona] for row_key, cells in EXPECTED.items()}
    wrong = {key: (observed[key], expected[key]) for key in ROWS if observed[key] != expected[key]}
    assert not wrong, f"{PERSONAS[persona]}: (observed, expected) {wrong}"


async def test_the_public_board_shows_straff_by_state_only(secrecy_table: Table) -> None:
    t = secrecy_table
    message_id = await t.storage.boards.get(t.env.guild_id, t.env.world.guild.channels[0].id)
    assert message_id is not None
    board = t.env.harness.fake.messages[message_id]
    assert not board["embeds"]
    # A participant's section: its rows, its name first (▶ marks whoever is up).
    rows = [one_line(text) for text in text_displays(board)]
    straff = next(line for line in rows if line.removeprefix("▶ ").startswith("**Straff"))
    vin = next(line for line in rows if line.removeprefix("▶ ").startswith("**Vin"))
    assert straff.endswith("unhurt") and "AD" not in straff and "Health" not in straff
    assert "AD 0" in vin and "Health" in vin
