"""Random play, legal and not: the engine's invariants hold after every command.

Hypothesis drives a whole Conflict with commands drawn both from what the state allows (the
current declarer declares, whoever's turn it is acts, the target defends...) and from anywhere
(wrong participants, wrong phases, silly numbers). After every step:

* no pile of dice is negative, and each participant's ledger balances;
* dice spent (pools and defences, as reported by events) match what the state counts, so a
  spent die is never used again;
* the declaration and resolve orders follow the rules, and whoever acted was at the head of it;
* the state round-trips through JSON exactly;
* a refused command raised RulesError (never anything else) and changed nothing.
"""

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rules.character import Character, Resilience, revise_character
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    AdjustDice,
    Awaiting,
    Burn,
    Command,
    Conflict,
    ConflictType,
    Declare,
    Defend,
    DiceSpec,
    End,
    NextRound,
    Pass,
    Phase,
    Reorder,
    SetSurprised,
    SpendNudges,
    Status,
    Switch,
    apply,
    current_turn,
    declaration_order,
    dump_conflict,
    next_declarer,
    resolve_order,
    round_complete,
)
from rules.conflict.order import beat_holder, declaration_key, last_declarer
from rules.errors import RulesError
from tests.rules.conflict.builders import Table, cast

pytestmark = pytest.mark.slow  # 6,000 commands: the fuzzer of every Conflict command

IDS = [*cast(), 99]
STATS = ["Physique", "Physique", "Wits", "Charm", "Steel", "Pewter", "Resources", "Luck"]
faces = st.integers(1, 6)


def tied_cast() -> dict[int, Character]:
    """The test cast with ties in Wits (Vin and Kelsier 4, Thug and the crowd 2) to reorder."""
    sheets = cast()
    for pid, sheet in sheets.items():
        wits = {2: 4, 5: 2}.get(pid)
        if wits is not None:
            sheets[pid] = revise_character(
                sheet, attributes=sheet.attributes.model_copy(update={"wits": wits})
            )
    return sheets


def dice_spec(data: st.DataObject) -> DiceSpec:
    return DiceSpec(
        stat=data.draw(st.sampled_from(STATS)),
        traits_for=data.draw(st.integers(0, 3)),
        traits_against=data.draw(st.integers(0, 2)),
        tool=data.draw(st.integers(-1, 1)),
        circumstances=data.draw(st.integers(-1, 1)),
    )


def action_spec(
    data: st.DataObject, kinds: list[ActionKind] | None = None, targets: list[int] | None = None
) -> ActionSpec:
    default = [ActionKind.ATTACK, ActionKind.ATTACK, ActionKind.ATTACK, *ActionKind]
    kind = data.draw(st.sampled_from(kinds or default))
    if not kind.rolls:
        return ActionSpec(kind=kind)
    return ActionSpec(
        kind=kind,
        target=data.draw(st.sampled_from(targets or IDS))
        if kind is ActionKind.ATTACK or data.draw(st.booleans())
        else None,
        resilience=data.draw(st.sampled_from([None, *Resilience])) if kind is ActionKind.ATTACK else None,
        attack_kind=data.draw(st.sampled_from([None, *ConflictType])) if kind is ActionKind.ATTACK else None,
        contest=data.draw(st.booleans()) or data.draw(st.booleans()),
        weapon_bonus=data.draw(st.sampled_from([None, 0, 2, 4])) if kind is ActionKind.ATTACK else None,
    )


class ConflictMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.table = Table.start(tied_cast())
        self.rng = random.Random(0)
        self.spent: dict[int, int] = {}
        self.steps = 0

    @initialize(seed=st.integers(0, 2**16))
    def seed(self, seed: int) -> None:
        self.rng = random.Random(seed)

    @property
    def state(self) -> Conflict:
        return self.table.state

    def attempt(self, command: Command) -> None:
        before = self.state
        snapshot = before.model_dump_json()
        sheets = dict(self.table.sheets)
        heads = {pid for step in resolve_order(before)[:1] for pid in step}
        holder = beat_holder(before)
        try:
            step = apply(before, command, self.table.sheets, self.rng)
        except RulesError:
            assert before.model_dump_json() == snapshot
            assert self.table.sheets == sheets
            return
        if isinstance(command, Act | Switch) and holder is None:
            assert command.participant in heads, "acted out of the resolve order"
        if isinstance(command, Declare):  # in turn, or a change by the latest declarer (§4.23)
            declarer = next_declarer(before)
            if before.participant(command.participant).round.declaration is not None:
                declarer = last_declarer(before)
            assert declarer is not None and declarer.id == command.participant
        for event in step.events:
            if event.type == "acted":
                self.spent[event.participant] = self.spent.get(event.participant, 0) + event.pool
            elif event.type == "defended":
                self.spent[event.participant] = self.spent.get(event.participant, 0) + event.dice
            elif event.type == "round_started":
                self.spent = {}
        self.table.sheets.update(step.changed_sheets)
        self.table.state = step.state
        self.steps += 1

    # Commands drawn from what the state allows: they keep the game moving.

    @precondition(lambda self: self.state.phase is Phase.DECLARE)
    @rule(data=st.data())
    def declare_in_turn(self, data: st.DataObject) -> None:
        declarer = next_declarer(self.state)
        if declarer is None:
            return
        others = [p.id for p in self.state.participants if p.id != declarer.id and not p.defeated]
        action = action_spec(data, targets=others or None)
        dice = None if action.kind is ActionKind.NO_ROLL else dice_spec(data)
        self.attempt(Declare(participant=declarer.id, action=action, dice=dice))

    @precondition(lambda self: bool(current_turn(self.state)))
    @rule(data=st.data())
    def take_a_turn(self, data: st.DataObject) -> None:
        actor = self.state.participant(data.draw(st.sampled_from(current_turn(self.state))))
        choice = data.draw(st.sampled_from(["act", "act", "act", "switch", "pass"]))
        if choice == "act":
            legal = st.integers(2, max(2, min(10, actor.pile)))
            pool = data.draw(st.one_of(legal, legal, legal, st.integers(1, min(11, actor.pile + 1))))
            self.attempt(Act(participant=actor.id, pool=pool))
        elif choice == "switch":
            action = action_spec(data, [ActionKind.ATTACK, ActionKind.ACTION])
            self.attempt(Switch(participant=actor.id, action=action, dice=dice_spec(data)))
        else:
            self.attempt(Pass(participant=actor.id))

    @precondition(lambda self: self.state.pending is not None)
    @rule(data=st.data())
    def settle_pending(self, data: st.DataObject) -> None:
        pending = self.state.pending
        assert pending is not None
        if pending.awaiting is Awaiting.DEFENCE:
            target = self.state.participant(pending.target or 0)
            legal = [0, *range(2, min(10, target.pile) + 1)]
            dice = data.draw(st.sampled_from(legal + legal + [1, target.pile + 1]))
            given = data.draw(st.booleans())
            attack = (
                tuple(data.draw(st.lists(faces, min_size=pending.pool, max_size=pending.pool)))
                if given
                else None
            )
            self.attempt(Defend(participant=target.id, dice=dice, attack_faces=attack))
        else:
            n = pending.nudges
            parts = [data.draw(st.integers(0, n)) for _ in range(4)]
            while sum(parts) > n and data.draw(st.booleans()):
                parts[parts.index(max(parts))] -= 1
            self.attempt(
                SpendNudges(
                    participant=pending.attacker,
                    damage=parts[0],
                    remove_dice=parts[1],
                    next_round=parts[2],
                    story=parts[3],
                    catch_beat=data.draw(st.booleans()) and not any(parts),
                )
            )

    @precondition(lambda self: round_complete(self.state))
    @rule()
    def next_round(self) -> None:
        self.attempt(NextRound())

    @precondition(lambda self: self.state.phase is Phase.ENDED)
    @rule()
    def restart(self) -> None:
        self.table = Table.start(tied_cast())
        self.spent = {}

    # Commands from anywhere: mostly refused, sometimes not.

    def tie_shuffle(self, data: st.DataObject) -> tuple[int, ...]:
        """A legal reorder: the declaration order with ties shuffled."""
        order = declaration_order(self.state)
        return tuple(
            p.id for p in sorted(order, key=lambda p: (declaration_key(p)[:2], data.draw(st.integers(0, 9))))
        )

    @rule(data=st.data())
    def anything(self, data: st.DataObject) -> None:
        who = data.draw(st.sampled_from(IDS))
        options: list[Any] = [
            lambda: Act(participant=who, pool=data.draw(st.integers(-1, 12))),
            lambda: Pass(participant=who),
            lambda: Defend(participant=who, dice=data.draw(st.integers(-1, 12))),
            lambda: SpendNudges(
                participant=who, damage=data.draw(st.integers(0, 4)), catch_beat=data.draw(st.booleans())
            ),
            lambda: Switch(participant=who, action=action_spec(data), dice=dice_spec(data)),
            lambda: Declare(participant=who, action=action_spec(data), dice=dice_spec(data)),
            lambda: AdjustDice(participant=who, delta=data.draw(st.integers(-6, 6))),
            lambda: NextRound(force=data.draw(st.booleans())),
            lambda: Burn(participant=who, metal="Pewter", burning=data.draw(st.booleans())),
            lambda: SetSurprised(participant=who, surprised=data.draw(st.booleans())),
            lambda: Reorder(
                order=tuple(data.draw(st.permutations([p.id for p in declaration_order(self.state)])))
            ),
        ]
        self.attempt(data.draw(st.sampled_from(options))())

    @precondition(lambda self: self.steps > 60)
    @rule()
    def end(self) -> None:
        self.attempt(End())

    # What must always hold.

    @invariant()
    def dice_balance(self) -> None:
        for participant in self.state.participants:
            r = participant.round
            assert r.action_dice >= 0 and r.defense_dice >= 0
            assert r.action_dice + r.defense_dice == r.gained - r.spent - r.removed - r.dropped
            assert r.spent == self.spent.get(participant.id, 0)
            if r.status is not Status.WAITING:
                assert r.action_dice == 0
            assert participant.members_left <= participant.size

    @invariant()
    def orders_follow_the_rules(self) -> None:
        order = declaration_order(self.state)
        keys = [declaration_key(p) for p in order]
        assert keys == sorted(keys)
        steps = resolve_order(self.state)
        step_keys = [{self.state.participant(pid).order_key for pid in step} for step in steps]
        assert all(len(k) == 1 for k in step_keys)
        flat = [k.pop() for k in step_keys]
        assert flat == sorted(flat, reverse=True) and len(set(flat)) == len(flat)
        listed = {pid for step in steps for pid in step}
        assert listed == {p.id for p in self.state.participants if p.in_order}
        if self.state.phase is not Phase.RESOLVE:
            assert self.state.pending is None

    @invariant()
    def pending_is_consistent(self) -> None:
        pending = self.state.pending
        if pending is None:
            return
        assert self.state.find(pending.attacker) is not None
        assert 2 <= pending.pool <= 10
        if pending.awaiting is Awaiting.DEFENCE:
            assert pending.target is not None and self.state.find(pending.target) is not None
        else:
            assert pending.nudges > 0

    @invariant()
    def every_attack_has_a_kind_and_a_resilience(self) -> None:
        """docs/rulings.md §4.5: the engine fills both in for every attack it accepts."""
        actions = [p.round.declaration.action for p in self.state.participants if p.round.declaration]
        if self.state.pending is not None:
            actions.append(self.state.pending.action)
        for action in actions:
            attack = action.kind is ActionKind.ATTACK
            assert (action.attack_kind is not None) == attack
            assert (action.resilience is not None) == attack

    @invariant()
    def json_round_trip_is_exact(self) -> None:
        assert Conflict.model_validate_json(self.state.model_dump_json()) == self.state

    @invariant()
    def stored_document_is_the_models_json(self) -> None:
        """``dump_conflict`` writes the log from remembered entries: the text is the same."""
        assert dump_conflict(self.state) == self.state.model_dump_json()


ConflictMachine.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestConflictMachine = ConflictMachine.TestCase
