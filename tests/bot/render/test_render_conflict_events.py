"""Every Conflict event type renders, with the wording of the rarer cases and next steps."""

import typing

import pytest

from bot.render.common import FAILURE, INFO, NEUTRAL
from bot.render.conflict import (
    event_lines,
    events_embed,
    next_step_line,
    summary_embed,
)
from bot.render.conflict_events import DEFEAT
from rules.burdens import Severity
from rules.character import Burden, DefeatCondition, Resilience
from rules.conflict import (
    ActionKind,
    ActionSpec,
    Conflict,
    ConflictType,
    EndReason,
    Event,
    Phase,
    Pile,
    Side,
    Step,
    SummaryLine,
    Waiting,
    waiting,
)
from rules.conflict import events as ev
from rules.contest import ContestResult, decide
from rules.pool import Contribution, Pool, Source
from rules.powers.ledger import Move, Store, Why
from rules.roll import read
from tests.bot.render.conflict_render_support import assert_fits, field
from tests.rules.conflict.builders import Table
from tests.rules.conflict.keep_hasting import (
    CARROW,
    CORDAL,
    GUARDS,
    KOEL,
    THORROW,
    declarations,
)


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
            ev.BurningChanged(participant=KOEL, metal="Tin", burning=True, health=5, flared=True),
        ],
        ev.ChargesMoved: [
            ev.ChargesMoved(
                participant=THORROW,
                moves=(Move(metal="Pewter", store=Store.RESERVE, delta=-1, why=Why.FLARE),),
                notes=("Thorrow's Pewter is too low to flare: it burns on, unflared.",),
            ),
            ev.ChargesMoved(
                participant=KOEL,
                moves=(Move(metal="Atium", store=Store.RESERVE, delta=-1, why=Why.BURN),),
                ended=("Atium",),
            ),
        ],
        ev.Declared: [
            ev.Declared(participant=THORROW, action=attack, pile=Pile.ACTION, dice=8, pool=pool, bonus=2),
            ev.Declared(
                participant=KOEL, action=attack, pile=Pile.ACTION, dice=4, pool=pool, bonus=0, electrum=2
            ),
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
        ev.Anchored: [ev.Anchored(participant=THORROW, health=7), ev.Anchored(participant=KOEL, health=0)],
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
        ev.BeatActionNamed: [
            ev.BeatActionNamed(
                participant=THORROW,
                action=ActionSpec(
                    kind=ActionKind.ATTACK,
                    target=KOEL,
                    attack_kind=ConflictType.PHYSICAL,
                    resilience=Resilience.HEALTH,
                ),
            )
        ],
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
        Waiting: [waiting(Conflict(channel_id=1, type=ConflictType.SOCIAL, stakes="x"))],
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
            if kind is Waiting:
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
    assert line(ev.Defeated, 1) == "**House guards** are defeated: every member is down"
    assert "Stalemates carried over: **Thorrow** vs **Carrow Bylerum**, **Koel**" in line(ev.RoundStarted)
    assert "unfinished action was dropped" in line(ev.RoundStarted)
    assert line(ev.Switched).endswith("halved to 6, less 2 already gone → 4 Action Dice; goes last")
    assert line(ev.BeatCaught) == "**Thorrow** catches a Beat: an extra action now, from the 4 dice left"
    assert line(ev.BeatActionNamed) == (
        "**Thorrow** makes the Beat's extra action a new one: a physical attack on **Koel** (Health)"
    )
    assert line(ev.DiceRemoved) == "**Carrow Bylerum** loses 2 Action Dice to the Nudges (3 left)"
    assert line(ev.Left) == r"**Gone \*away\*** leaves the Conflict"
    assert line(ev.ConflictEnded) == "The Opposition is defeated after 3 rounds: the Conflict is over"
    assert line(ev.Declared).endswith("8 Action Dice — Physique 6 + 2 from last round's Nudges")
    assert r"“\*spear\*”" in line(ev.Declared)
    colours = {
        ev.Defeated: DEFEAT,
        ev.DamageDealt: FAILURE,
        ev.ConflictEnded: NEUTRAL,
        ev.Joined: INFO,
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
        (Step.NEXT_ROUND, "Round over: Narrator, **Next round** on the board or `/conflict next-round`"),
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
