"""The Conflict renderer through the Keep Hasting example: each stage's lines and board."""

import discord

from bot.render.common import FAILURE, NEUTRAL, SUCCESS
from bot.render.conflict import (
    defence_prompt,
    event_lines,
    events_embed,
    status_embed,
    summary_embed,
)
from bot.render.rows import INDENT, ROW_WIDTH, visible
from rules.conflict import (
    Act,
    Command,
    Defend,
    End,
    Event,
    NextRound,
    SpendNudges,
)
from tests.bot.render.conflict_render_support import STAKES, assert_fits, description, field, text_of
from tests.rules.conflict.builders import Table, of_type
from tests.rules.conflict.keep_hasting import (
    CARROW,
    CARROW_FACES,
    CORDAL,
    GUARDS,
    KOEL,
    THORROW,
    THORROW_FACES,
    declarations,
)


def test_declared(table: Table) -> None:
    events = table.do(declarations()[-1])
    lines = event_lines(table.state, events)
    assert lines == [
        "**Thorrow** declares a physical attack on **Carrow Bylerum** (Health), “sweeps at Carrow's legs”: "
        "12 Action Dice — Physique 6 + Trait + Pewter 5",
        "Everyone has declared. Resolve order: **Thorrow** 12 · **Carrow Bylerum** 9 · "
        "**Cordal Bylerum** 6 · **Koel** 4",
    ]
    reply = events_embed(table.state, events, title="Thorrow declares")
    assert_fits(reply)
    assert field(reply, "Next") == "Act: **Thorrow** (12 Action Dice) — `/act` (or `/switch`, or `/pass`)"

    board = status_embed(table.state, table.sheets)
    assert_fits(board)
    assert board.title == "Conflict — round 1 · Physical"
    assert f"Stakes: {STAKES}" in description(board)
    assert "Phase: resolving actions" in description(board)
    assert (
        "Resolve order: ▶ **Thorrow** 12 · **Carrow Bylerum** 9 · **Cordal Bylerum** 6 · **Koel** 4"
        in description(board)
    )
    heroes, opposition = field(board, "Heroes"), field(board, "Opposition")
    assert (
        "▶ **Thorrow** · burning Pewter · waiting · physical attack → **Carrow Bylerum** (Health) · "
        "AD 12 · DD 0" in heroes
    )
    assert "Health 14/14 · Rep 5/5 · Will 7/7" in heroes and "Burden" not in heroes  # none to count
    assert "**Carrow Bylerum** · surprised · burning Pewter · waiting" in opposition
    assert "Health 13/13" in opposition
    assert "**Ignus** · surprised · done · full defence · AD 0 · DD 5" in opposition
    assert "**House guards** · surprised · done · no roll · AD 0 · DD 0 · 3/3 standing" in opposition


def test_the_declaration_phase_marks_who_declares(table: Table) -> None:
    board = status_embed(table.state, table.sheets)
    assert "Phase: declaring actions" in description(board)
    assert "✓ **Koel** → ▶ **Thorrow**" in description(board)
    assert "Declare: **Thorrow** (Wits 4) — `/declare`" in field(board, "Next")


def test_thorrow_acts(table: Table) -> None:
    table.do(declarations()[-1])
    events = table.do(Act(participant=THORROW, pool=8))
    assert event_lines(table.state, events) == [
        "**Thorrow** attacks **Carrow Bylerum** (physical, Health) with 8 dice, keeping 4 Defense Dice; "
        "waiting for **Carrow Bylerum** to defend"
    ]
    reply = events_embed(table.state, events, title="Thorrow acts")
    assert field(reply, "Next").startswith(
        "Defend: **Carrow Bylerum** against **Thorrow** — choose dice below"
    )
    board = status_embed(table.state, table.sheets)
    assert_fits(board)
    assert (
        "In progress: **Thorrow** → **Carrow Bylerum** (physical, Health), 8 dice, "
        "waiting for **Carrow Bylerum**'s defence" in description(board)
    )
    assert "▶ **Carrow Bylerum**" in field(board, "Opposition")
    prompt = defence_prompt(table.state, table.sheets)
    assert prompt is not None
    assert prompt.startswith("**Carrow Bylerum**: Thorrow makes a physical attack on your Health with 8 dice")
    assert "Defend with how many of your 9 Action Dice? (2–9, or 0 = don't defend)" in prompt
    assert "<@" not in prompt


def test_carrow_defends_and_the_contest_is_shown(table: Table) -> None:
    table.do(declarations()[-1], Act(participant=THORROW, pool=8))
    events = table.do(
        Defend(participant=CARROW, dice=4, attack_faces=THORROW_FACES, defence_faces=CARROW_FACES)
    )
    defended, resolved = event_lines(table.state, events)
    assert defended == "**Carrow Bylerum** defends with 4 Action Dice (5 left)"
    assert resolved.startswith("**Thorrow** rolls **3** **3** 6✦ 6✦ 6✦ 6✦ 1 2 (Result 3, 4 Nudges); ")
    assert "**Carrow Bylerum** rolls **3** **3** 6✦ 1 (Result 3, 1 Nudge)" in resolved
    assert "→ **Thorrow** succeeds. Equal Results: settled by Nudges." in resolved
    assert resolved.endswith("**Thorrow** has 4 Nudges to spend.")
    reply = events_embed(table.state, events, title="Carrow defends")
    assert reply.colour == SUCCESS
    assert field(reply, "Next") == "Spend Nudges: **Thorrow** has 4 — `/nudges`"
    assert defence_prompt(table.state, table.sheets) is None
    board = status_embed(table.state, table.sheets)
    assert (
        "In progress: **Thorrow** → **Carrow Bylerum** (physical, Health) succeeded, 4 Nudges to spend"
        in description(board)
    )
    assert "Resolve order: **Cordal Bylerum** 6 · **Carrow Bylerum** 5 · **Koel** 4" in description(board)


def test_the_nudges_wound_carrow(table: Table) -> None:
    table.do(
        declarations()[-1],
        Act(participant=THORROW, pool=8),
        Defend(participant=CARROW, dice=4, attack_faces=THORROW_FACES, defence_faces=CARROW_FACES),
    )
    events = table.do(SpendNudges(participant=THORROW, story=2, damage=2))
    spent, dealt = event_lines(table.state, events)
    assert spent == "**Thorrow** spends 4 Nudges: 2 on damage, 2 on the story"
    assert dealt.startswith(
        "**Carrow Bylerum** takes 5 damage to Health (13 → 8) and gains a Serious Burden: Wounded (Health)"
    )
    assert "1 + 2 Nudges + Spear 2" in dealt  # the weapon Prop is named
    reply = events_embed(table.state, events, title="Thorrow spends Nudges")
    assert reply.colour == FAILURE
    assert field(reply, "Next").startswith("Act: **Cordal Bylerum** (6 Action Dice)")
    board = status_embed(table.state, table.sheets)
    assert "Health 8/13 · Rep 7/7 · Will 8/8 · 1 Burden" in field(board, "Opposition")
    assert "Resolve order: ▶ **Cordal Bylerum** 6" in description(board)


def rest_of_round_one() -> list[Command]:
    return [
        Act(participant=CORDAL, pool=6),
        Defend(participant=KOEL, dice=2, attack_faces=(1, 2, 3, 4, 5, 6), defence_faces=(4, 4)),
        Act(participant=CARROW, pool=5),
        Defend(participant=THORROW, dice=2, attack_faces=(2, 2, 1, 1, 3), defence_faces=(1, 3)),
        Act(participant=KOEL, pool=2),
    ]


def play_round_one(table: Table) -> tuple[Event, ...]:
    table.do(
        declarations()[-1],
        Act(participant=THORROW, pool=8),
        Defend(participant=CARROW, dice=4, attack_faces=THORROW_FACES, defence_faces=CARROW_FACES),
        SpendNudges(participant=THORROW, story=2, damage=2),
        *rest_of_round_one(),
    )
    return table.do(Defend(participant=GUARDS, dice=2, attack_faces=(3, 3), defence_faces=(1, 2)))


def test_the_guards_lose_a_member_and_the_round_ends(table: Table) -> None:
    events = play_round_one(table)
    lines = event_lines(table.state, events)
    assert lines[0] == "**House guards** are busy elsewhere, so get 3 Defense Dice — Physique 3"
    assert "against Difficulty 3" in lines[2]
    assert lines[3] == "**House guards** take 1 damage: 1 member down (3 → 2 standing)"
    reply = events_embed(table.state, events, title="The guards defend")
    over = "Round over: Narrator, **Next round** on the board or `/conflict next-round`"
    assert field(reply, "Next") == over
    assert "2/3 standing" in field(status_embed(table.state, table.sheets), "Opposition")


def test_next_round(table: Table) -> None:
    play_round_one(table)
    events = table.do(NextRound())
    assert event_lines(table.state, events) == ["Round 2 begins: every leftover die is gone; declare again"]
    board = status_embed(table.state, table.sheets)
    assert board.title == "Conflict — round 2 · Physical"
    assert "Declaration order: ▶ **Ignus** → **Koel**" in description(board)
    assert "surprised" not in text_of(board)
    assert field(board, "Next") == "Declare: **Ignus** (Wits 2) — `/declare`"


def test_the_conflict_ends_with_a_summary(table: Table) -> None:
    play_round_one(table)
    events = table.do(End())
    (ended,) = of_type(events, "conflict_ended")
    reply = events_embed(table.state, events, title="The Narrator ends the Conflict")
    assert reply.colour == NEUTRAL
    assert reply.description == "The Narrator ended the Conflict after 1 round"
    assert field(reply, "Next") == "The Conflict has ended."
    summary = summary_embed(ended)
    assert_fits(summary)
    assert summary.title == "Conflict over — 1 round"
    assert "**Thorrow**: dealt 5 damage · took 2 to Health" in field(summary, "Heroes")
    carrow = "**Carrow Bylerum**: dealt 2 damage · took 5 to Health · Burdens: Wounded (Health) (Serious)"
    assert carrow in field(summary, "Opposition")
    assert "**House guards**: dealt 0 damage · lost 1 member" in field(summary, "Opposition")
    assert summary.footer.text is None
    board = status_embed(table.state, table.sheets)
    assert board.colour == NEUTRAL and "Phase: ended (by the Narrator)" in description(board)


def test_a_missing_sheet_renders(table: Table) -> None:
    table.do(declarations()[-1])
    sheets = {k: v for k, v in table.sheets.items() if k not in (THORROW, GUARDS)}
    board = status_embed(table.state, sheets)
    assert_fits(board)
    assert (
        "**Thorrow** · burning Pewter · waiting · physical attack → **Carrow Bylerum** (Health) · "
        "AD 12 · DD 0 · sheet missing" in (field(board, "Heroes"))
    )
    assert "3/3 standing · sheet missing" in field(board, "Opposition")
    table.do(Act(participant=THORROW, pool=8))
    assert defence_prompt(table.state, {}) is not None


# --- Every event type -----------------------------------------------------------------------


def phone_rows(board: discord.Embed) -> list[str]:
    """Every row the board draws except the stakes (the Narrator's own words, as typed)."""
    texts = [board.description or "", board.footer.text or "", *(f.value or "" for f in board.fields)]
    return [row for text in texts for row in text.split("\n") if not row.startswith("Stakes:")]


def test_the_board_reads_on_a_phone(table: Table) -> None:
    """Rows of at most 60 characters, so a phone never wraps a board mid-phrase (docs/rulings.md
    §8.7), at every step of round one and the next round's declarations."""
    seen = [status_embed(table.state, table.sheets)]
    for command in (
        declarations()[-1],
        Act(participant=THORROW, pool=8),
        Defend(participant=CARROW, dice=4, attack_faces=THORROW_FACES, defence_faces=CARROW_FACES),
        SpendNudges(participant=THORROW, story=2, damage=2),
        *rest_of_round_one(),
        Defend(participant=GUARDS, dice=2, attack_faces=(3, 3), defence_faces=(1, 2)),
    ):
        table.do(command)
        seen.append(status_embed(table.state, table.sheets))
    table.do(NextRound())
    seen.append(status_embed(table.state, table.sheets))
    for board in seen:
        long = [row for row in phone_rows(board) if visible(row) > ROW_WIDTH]
        assert all(" · " not in row for row in long), long  # a sentence, or one item
    heroes = (seen[1].fields[0].value or "").split("\n")
    thorrow = heroes.index(next(row for row in heroes if row.startswith("▶ **Thorrow**")))
    assert heroes[thorrow : thorrow + 3] == [
        "▶ **Thorrow** · burning Pewter · waiting ·",
        f"{INDENT}physical attack → **Carrow Bylerum** (Health)",
        f"{INDENT}AD 12 · DD 0 · Health 14/14 · Rep 5/5 · Will 7/7",
    ]
