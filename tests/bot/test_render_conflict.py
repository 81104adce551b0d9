"""The Conflict renderers: Keep Hasting at each step, every event type, and Discord's limits.

Pure functions returning ``discord.Embed``: no Discord connection. Sizes are checked both as
Python counts them and in UTF-16 units (the stricter count Discord may use).
"""

import typing
from collections.abc import Iterator

import discord
import pytest

from bot.render.common import FAILURE, NEUTRAL, SUCCESS
from bot.render.conflict import (
    defence_prompt,
    event_lines,
    events_embed,
    next_step_line,
    status_embed,
    summary_embed,
)
from bot.render.conflict_events import DEFEAT
from bot.render.sheet import units
from rules.burdens import Severity
from rules.character import Burden, DefeatCondition, Resilience, make_character
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    Command,
    Conflict,
    ConflictType,
    Declare,
    Defend,
    DiceSpec,
    End,
    EndReason,
    Event,
    NextRound,
    Phase,
    Pile,
    Side,
    SpendNudges,
    Step,
    SummaryLine,
    Waiting,
    new_conflict,
    waiting,
)
from rules.conflict import events as ev
from rules.contest import ContestResult, decide
from rules.pool import Contribution, Pool, Source
from rules.roll import read
from tests.conflict.builders import Table, of_type
from tests.conflict.keep_hasting import (
    CARROW,
    CARROW_FACES,
    CHANNEL,
    CORDAL,
    GUARDS,
    KOEL,
    THORROW,
    THORROW_FACES,
    declarations,
    keep_hasting_sheets,
    setup_commands,
)

STAKES = "Keep the Bylerum Boys busy while the crew works"


def assert_fits(embed: discord.Embed) -> None:
    """Every one of Discord's embed limits, in characters and in UTF-16 units."""
    for count in (len, units):
        assert count(embed.title or "") <= 256
        assert count(embed.description or "") <= 4096
        assert len(embed.fields) <= 25
        for field in embed.fields:
            assert 0 < count(field.name or "") <= 256
            assert 0 < count(field.value or "") <= 1024
        assert count(embed.footer.text or "") <= 2048
        assert count(embed.author.name or "") <= 256
        total = count(embed.title or "") + count(embed.description or "") + count(embed.footer.text or "")
        total += sum(count(f.name or "") + count(f.value or "") for f in embed.fields)
        assert total <= 6000
    assert len(embed) <= 6000


def text_of(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def field(embed: discord.Embed, name: str) -> str:
    return next(f.value or "" for f in embed.fields if (f.name or "").startswith(name))


# --- Keep Hasting, step by step -------------------------------------------------------------


@pytest.fixture
def table() -> Table:
    table = Table(new_conflict(CHANNEL, ConflictType.PHYSICAL, STAKES), keep_hasting_sheets())
    table.do(*setup_commands(), *declarations()[:-1])
    return table


def test_declared(table: Table) -> None:
    events = table.do(declarations()[-1])
    lines = event_lines(table.state, events)
    assert lines == [
        "**Thorrow** declares an attack on **Carrow Bylerum** (Health), “sweeps at Carrow's legs”: "
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
    assert f"Stakes: {STAKES}" in (board.description or "")
    assert "Phase: resolving actions" in (board.description or "")
    assert "Resolve order: ▶ **Thorrow** 12 · **Carrow Bylerum** 9 · **Cordal Bylerum** 6 · **Koel** 4" in (
        board.description or ""
    )
    heroes, opposition = field(board, "Heroes"), field(board, "Opposition")
    assert "▶ **Thorrow** · burning Pewter · waiting · attack → **Carrow Bylerum** · AD 12 · DD 0" in heroes
    assert "Health 14/14 · Rep 5/5 · Will 7/7 · 0 Burdens" in heroes
    assert "**Carrow Bylerum** · surprised · burning Pewter · waiting" in opposition
    assert "Health 13/13" in opposition
    assert "**Ignus** · surprised · done · full defence · AD 0 · DD 5" in opposition
    assert "**House guards** · surprised · done · no roll · AD 0 · DD 0 · 3/3 standing" in opposition


def test_the_declaration_phase_marks_who_declares(table: Table) -> None:
    board = status_embed(table.state, table.sheets)
    assert "Phase: declaring actions" in (board.description or "")
    assert "✓ **Koel** → ▶ **Thorrow**" in (board.description or "")
    assert "Declare: **Thorrow** (Wits 4) — `/declare`" in field(board, "Next")


def test_thorrow_acts(table: Table) -> None:
    table.do(declarations()[-1])
    events = table.do(Act(participant=THORROW, pool=8))
    assert event_lines(table.state, events) == [
        "**Thorrow** attacks **Carrow Bylerum** (Health) with 8 dice, keeping 4 Defense Dice; "
        "waiting for **Carrow Bylerum** to defend"
    ]
    reply = events_embed(table.state, events, title="Thorrow acts")
    assert field(reply, "Next").startswith(
        "Defend: **Carrow Bylerum** against **Thorrow** — choose dice below"
    )
    board = status_embed(table.state, table.sheets)
    assert_fits(board)
    assert (
        "In progress: **Thorrow** → **Carrow Bylerum**, 8 dice, waiting for **Carrow Bylerum**'s defence"
        in (board.description or "")
    )
    assert "▶ **Carrow Bylerum**" in field(board, "Opposition")
    prompt = defence_prompt(table.state, table.sheets)
    assert prompt is not None
    assert prompt.startswith("**Carrow Bylerum**: Thorrow attacks your Health with 8 dice")
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
    assert "In progress: **Thorrow** → **Carrow Bylerum** succeeded, 4 Nudges to spend" in (
        board.description or ""
    )
    assert "Resolve order: **Cordal Bylerum** 6 · **Carrow Bylerum** 5 · **Koel** 4" in (
        board.description or ""
    )


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
    assert "1 + 2 Nudges + weapon 2" in dealt
    reply = events_embed(table.state, events, title="Thorrow spends Nudges")
    assert reply.colour == FAILURE
    assert field(reply, "Next").startswith("Act: **Cordal Bylerum** (6 Action Dice)")
    board = status_embed(table.state, table.sheets)
    assert "Health 8/13 · Rep 7/7 · Will 8/8 · 1 Burden" in field(board, "Opposition")
    assert "Resolve order: ▶ **Cordal Bylerum** 6" in (board.description or "")


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
    assert lines[0] == "**House guards** is busy elsewhere, so gets 3 Defense Dice — Physique 3"
    assert "against Difficulty 3" in lines[2]
    assert lines[3] == "**House guards** take 1 damage: 1 member down (3 → 2 standing)"
    reply = events_embed(table.state, events, title="The guards defend")
    assert field(reply, "Next") == "Round over: Narrator, `/conflict next-round`"
    assert "2/3 standing" in field(status_embed(table.state, table.sheets), "Opposition")


def test_next_round(table: Table) -> None:
    play_round_one(table)
    events = table.do(NextRound())
    assert event_lines(table.state, events) == ["Round 2 begins: every leftover die is gone; declare again"]
    board = status_embed(table.state, table.sheets)
    assert board.title == "Conflict — round 2 · Physical"
    assert "Declaration order: ▶ **Ignus** → **Koel**" in (board.description or "")
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
    assert board.colour == NEUTRAL and "Phase: ended (by the Narrator)" in (board.description or "")


def test_a_missing_sheet_renders(table: Table) -> None:
    table.do(declarations()[-1])
    sheets = {k: v for k, v in table.sheets.items() if k not in (THORROW, GUARDS)}
    board = status_embed(table.state, sheets)
    assert_fits(board)
    assert (
        "**Thorrow** · burning Pewter · waiting · attack → **Carrow Bylerum** · AD 12 · DD 0 · sheet missing"
        in (field(board, "Heroes"))
    )
    assert "3/3 standing · sheet missing" in field(board, "Opposition")
    table.do(Act(participant=THORROW, pool=8))
    assert defence_prompt(table.state, {}) is not None


# --- Every event type -----------------------------------------------------------------------


def _contest(attack: tuple[int, ...], defence: tuple[int, ...] | None, difficulty: int = 1) -> ContestResult:
    acting = read(attack, pool=Pool.of_dice(len(attack), "Action Dice"), difficulty=difficulty)
    opposing = [read(defence, pool=Pool.of_dice(len(defence), "Defense Dice"))] if defence else []
    return decide([acting], opposing)


def minimal_events() -> dict[type, list[typing.Any]]:
    attack = ActionSpec(kind=ActionKind.ATTACK, target=CARROW, resilience=Resilience.HEALTH, label="*spear*")
    pool = (Contribution(source=Source.RATING, label="Physique", dice=6),)
    wound = Burden(name="Wounded (Health)", severity=Severity.SERIOUS)
    line = SummaryLine(
        name="Carrow",
        side=Side.OPPOSITION,
        dealt=0,
        taken=((Resilience.HEALTH, 5),),
        members_lost=0,
        burdens=(wound,),
        defeated=True,
    )
    return {
        ev.Joined: [ev.Joined(participant=THORROW, side=Side.HEROES, surprised=True)],
        ev.Left: [ev.Left(participant=99, name="Gone *away*")],
        ev.Reordered: [ev.Reordered(order=(THORROW, KOEL))],
        ev.SurpriseChanged: [
            ev.SurpriseChanged(participant=KOEL, surprised=True),
            ev.SurpriseChanged(participant=KOEL, surprised=False),
        ],
        ev.BurningChanged: [
            ev.BurningChanged(participant=THORROW, metal="Pewter", burning=False, health=9),
            ev.BurningChanged(participant=KOEL, metal="Tin", burning=True, health=5),
        ],
        ev.Declared: [
            ev.Declared(participant=THORROW, action=attack, pile=Pile.ACTION, dice=8, pool=pool, bonus=2),
            ev.Declared(
                participant=GUARDS,
                action=ActionSpec(kind=ActionKind.NO_ROLL),
                pile=Pile.NONE,
                dice=0,
                pool=(),
                bonus=0,
                bonus_lost=1,
            ),
            ev.Declared(
                participant=KOEL,
                action=ActionSpec(kind=ActionKind.ACTION, difficulty=3),
                pile=Pile.ACTION,
                dice=4,
                pool=pool,
                bonus=0,
            ),
        ],
        ev.ResolveStarted: [ev.ResolveStarted(order=((THORROW,), (CARROW, CORDAL)))],
        ev.DiceAdjusted: [
            ev.DiceAdjusted(participant=KOEL, pile=Pile.ACTION, delta=-1, dice=3, reason="smoke"),
        ],
        ev.Acted: [
            ev.Acted(
                action_id=1,
                participant=KOEL,
                kind=ActionKind.ACTION,
                pool=2,
                kept=0,
                target=None,
                resilience=None,
                difficulty=3,
                awaiting_defence=False,
                extra=True,
            )
        ],
        ev.Switched: [
            ev.Switched(participant=THORROW, action=attack, pool=pool, refigured=12, halved=6, lost=2, dice=4)
        ],
        ev.Passed: [
            ev.Passed(participant=CARROW, defense_dice=9),
            ev.Passed(participant=CARROW, defense_dice=1, declined_beat=True),
        ],
        ev.DefenceGranted: [ev.DefenceGranted(participant=GUARDS, dice=3, pool=pool)],
        ev.Defended: [
            ev.Defended(action_id=1, participant=THORROW, dice=0, pile=Pile.DEFENSE, left=4),
        ],
        ev.Resolved: [
            ev.Resolved(
                action_id=1,
                attacker=THORROW,
                target=CARROW,
                contest=_contest((3, 3, 6), (3, 3, 6)),
                success=False,
                stalemate=True,
                nudges=0,
                awaiting_nudges=False,
            ),
            ev.Resolved(
                action_id=2,
                attacker=KOEL,
                target=None,
                contest=_contest((1, 2), None, 3),
                success=False,
                stalemate=False,
                nudges=0,
                awaiting_nudges=False,
            ),
        ],
        ev.NudgesSpent: [
            ev.NudgesSpent(
                action_id=1,
                participant=THORROW,
                available=5,
                damage=0,
                remove_dice=0,
                next_round=0,
                story=0,
                catch_beat=True,
                unspent=0,
            ),
            ev.NudgesSpent(
                action_id=1,
                participant=THORROW,
                available=4,
                damage=1,
                remove_dice=1,
                next_round=1,
                story=0,
                catch_beat=False,
                unspent=1,
            ),
        ],
        ev.DamageDealt: [
            ev.DamageDealt(
                action_id=1,
                attacker=THORROW,
                target=CARROW,
                resilience=Resilience.HEALTH,
                nudges=0,
                weapon=0,
                armour=2,
                amount=0,
                taken=0,
                before=8,
                after=8,
                wound=None,
                burdens_added=(),
                burdens_skipped=(),
                members_lost=0,
            ),
            ev.DamageDealt(
                action_id=1,
                attacker=THORROW,
                target=CARROW,
                resilience=Resilience.HEALTH,
                nudges=9,
                weapon=0,
                armour=0,
                amount=10,
                taken=8,
                before=8,
                after=0,
                wound=Severity.MORTAL,
                burdens_added=(wound, Burden(name="Incapacitated", severity=Severity.GRAVE)),
                burdens_skipped=(wound,),
                members_lost=0,
            ),
        ],
        ev.DiceRemoved: [ev.DiceRemoved(participant=CARROW, pile=Pile.ACTION, removed=2, left=3)],
        ev.BeatCaught: [ev.BeatCaught(participant=THORROW, dice=4)],
        ev.Defeated: [
            ev.Defeated(participant=CARROW, condition=DefeatCondition.INCAPACITATED, simultaneous=True),
            ev.Defeated(participant=GUARDS, condition=None),
        ],
        ev.RoundStarted: [
            ev.RoundStarted(round=3, dropped_action=4, stalemates=((THORROW, CARROW), (KOEL, None)))
        ],
        ev.ConflictEnded: [
            ev.ConflictEnded(
                reason=EndReason.SIDE_DEFEATED,
                defeated_sides=(Side.OPPOSITION,),
                rounds=3,
                summary=(line,),
                log_dropped=7,
            ),
            ev.ConflictEnded(
                reason=EndReason.SIDE_DEFEATED,
                defeated_sides=(Side.HEROES, Side.OPPOSITION),
                rounds=1,
                summary=(),
            ),
        ],
        ev.Waiting: [waiting(Conflict(channel_id=1, type=ConflictType.SOCIAL, stakes="x"))],
    }


def event_types() -> set[type]:
    (union, *_) = typing.get_args(Event)
    return set(typing.get_args(union))


def test_every_event_type_renders(table: Table) -> None:
    table.do(declarations()[-1])
    examples = minimal_events()
    assert set(examples) == event_types(), "a new Event type needs an example here"
    for kind, events in examples.items():
        for event in events:
            lines = event_lines(table.state, [event])
            if kind is ev.Waiting:
                assert lines == []
                continue
            (line,) = lines
            assert line and "Something happened" not in line, kind
        reply = events_embed(table.state, events, title=kind.__name__)
        assert_fits(reply)


def test_event_wording_for_the_rarer_cases(table: Table) -> None:
    table.do(declarations()[-1])
    examples = minimal_events()

    def line(kind: type, index: int = 0) -> str:
        return event_lines(table.state, [examples[kind][index]])[0]

    assert line(ev.Resolved).endswith(
        "→ Stalemate. Equal Results and Nudges: stalemate, it carries into the next Beat."
    )
    assert "**Koel** fails" in line(ev.Resolved, 1) and "against Difficulty 3" in line(ev.Resolved, 1)
    assert line(ev.NudgesSpent) == "**Thorrow** spends all 5 Nudges to catch a Beat"
    assert "(1 unspent, lost)" in line(ev.NudgesSpent, 1)
    assert line(ev.DamageDealt) == "**Carrow Bylerum** takes no damage (1 − armour 2)"
    assert "takes 8 of 10 damage to Health (8 → 0) and gains Burdens" in line(ev.DamageDealt, 1)
    assert "(already had Wounded (Health))" in line(ev.DamageDealt, 1)
    assert line(ev.Defeated).startswith("**Carrow Bylerum** is defeated: Incapacitated — but still")
    assert line(ev.Defeated, 1) == "**House guards** is defeated: every member is down"
    assert "Stalemates carried over: **Thorrow** vs **Carrow Bylerum**, **Koel**" in line(ev.RoundStarted)
    assert "unfinished action was dropped" in line(ev.RoundStarted)
    assert line(ev.Switched).endswith("halved to 6, less 2 already gone → 4 Action Dice; goes last")
    assert line(ev.BeatCaught) == "**Thorrow** catches a Beat: an extra action now, from the 4 dice left"
    assert line(ev.DiceRemoved) == "**Carrow Bylerum** loses 2 Action Dice to the Nudges (3 left)"
    assert line(ev.Left) == r"**Gone \*away\*** leaves the Conflict"
    assert line(ev.ConflictEnded) == "The Opposition is defeated after 3 rounds: the Conflict is over"
    assert line(ev.Declared).endswith("8 Action Dice — Physique 6 + 2 from last round's Nudges")
    assert r"“\*spear\*”" in line(ev.Declared)
    colours = {
        ev.Defeated: DEFEAT,
        ev.DamageDealt: FAILURE,
        ev.ConflictEnded: NEUTRAL,
        ev.Joined: discord.Colour.from_rgb(90, 110, 160),
    }
    for kind, colour in colours.items():
        assert events_embed(table.state, examples[kind], title="x").colour == colour

    summary = summary_embed(examples[ev.ConflictEnded][0])
    assert "7 log entries were dropped" in (summary.footer.text or "")
    assert "defeated" in field(summary, "Opposition")
    assert "Both sides are defeated" in (summary_embed(examples[ev.ConflictEnded][1]).description or "")


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        (Step.NEXT_ROUND, "Round over: Narrator, `/conflict next-round`"),
        (Step.JOIN, "Add participants with `/conflict add` / `/conflict join`"),
        (Step.NOTHING, "The Conflict has ended."),
        (Step.ACT, "Act (at the same moment): **Thorrow** (12 Action Dice), **Koel** (4 Action Dice)"),
    ],
)
def test_next_step_lines(table: Table, step: Step, expected: str) -> None:
    table.do(declarations()[-1])
    now = Waiting(phase=Phase.RESOLVE, round=1, step=step, participants=(THORROW, KOEL), order=())
    assert next_step_line(table.state, now).startswith(expected)


# --- Discord's limits -----------------------------------------------------------------------

NASTY = "*_~`|\\>@everyone<@123456789012345678>"


def nasty_name(index: int) -> str:
    return (f"{index:02d}" + NASTY * 3)[:64]


def crowd() -> Iterator[Table]:
    """25 maximal names, declared and then resolving with an attack waiting for a defence."""
    sheets = {
        i: make_character(name=nasty_name(i), kind="hero" if i % 2 else "villain", owner_id=1)
        for i in range(1, 26)
    }
    table = Table.start(sheets)
    yield table
    label = ("**" + NASTY) * 3
    for pid in (p.id for p in sorted(table.state.participants, key=lambda p: (p.wits, p.rank))):
        target = pid % 25 + 1
        spec = ActionSpec(kind=ActionKind.ATTACK, target=target, label=label[:100])
        table.do(Declare(participant=pid, action=spec, dice=DiceSpec(stat="Physique")))
    yield table
    first = table.state.participants[0].id
    table.do(Act(participant=first, pool=2))
    yield table


def test_25_maximal_names_fit_every_limit() -> None:
    long_stakes = ("*_" + NASTY) * 10
    for step, table in enumerate(crowd()):
        state = table.state.model_copy(update={"stakes": long_stakes[:200]})
        board = status_embed(state, table.sheets)
        assert_fits(board)
        assert "@everyone" not in text_of(board) and "<@123456789012345678>" not in text_of(board)
        rows = sum((f.value or "").count("\n") + 1 for f in board.fields if f.name != "Next")
        assert rows == 25, "every participant keeps a line"
        if step == 2:
            prompt = defence_prompt(state, table.sheets)
            assert prompt is not None and len(prompt) <= 2000
    events = table.last.events if table.last else ()
    assert_fits(events_embed(table.state, events, title="x" * 300))


def test_a_long_batch_keeps_its_last_lines() -> None:
    tables = crowd()
    table = next(tables)
    table = next(tables)
    everything: list[Event] = []
    for _ in range(4):
        everything += [
            ev.Joined(participant=p.id, side=p.side, surprised=False) for p in table.state.participants
        ]
    reply = events_embed(table.state, everything, title="Many")
    assert_fits(reply)
    description = reply.description or ""
    assert description.startswith("… ") and "earlier lines not shown" in description
    assert description.endswith(event_lines(table.state, everything)[-1])


def test_the_reply_and_summary_share_one_message() -> None:
    wound = Burden(name="W" * 40, severity=Severity.GRAVE)
    lines = tuple(
        SummaryLine(
            name=nasty_name(i),
            side=Side.HEROES if i % 2 else None,
            dealt=i,
            taken=((Resilience.HEALTH, 3),),
            members_lost=1,
            burdens=(wound,) * 10,
            defeated=True,
        )
        for i in range(40)
    )
    ended = ev.ConflictEnded(
        reason=EndReason.NARRATOR, defeated_sides=(), rounds=9, summary=lines, log_dropped=1
    )
    summary = summary_embed(ended)
    assert_fits(summary)
    assert "The oldest log entry was dropped" in (summary.footer.text or "")
    table = next(crowd())
    events = [ev.Joined(participant=p.id, side=p.side, surprised=True) for p in table.state.participants]
    reply = events_embed(table.state, [*events, *events, ended], title="End", limit=2500)
    shared = summary_embed(ended, limit=3500)
    assert_fits(reply)
    assert_fits(shared)
    assert len(reply) + len(shared) <= 6000
