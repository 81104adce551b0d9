"""Step 1: the declaration order and the dice each declaration produces (docs/rulings.md §1, §4)."""

from typing import Any

import pytest

from rules.character import Resilience, revise_character
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    AdjustDice,
    Burn,
    ConflictType,
    Declare,
    DiceSpec,
    Join,
    Leave,
    Phase,
    Reorder,
    SetSurprised,
    Side,
    Status,
    declaration_order,
    next_declarer,
)
from tests.rules.conflict.builders import (
    BRUTE,
    CROWD,
    KELL,
    THUG,
    VIN,
    Table,
    cast,
    declare_attack,
    declare_defence,
    declare_nothing,
    of_type,
    pick,
    sheet,
    waiting,
)


def order_of(table: Table) -> list[int]:
    return [p.id for p in declaration_order(table.state)]


def test_ascending_wits_with_the_crowd_at_its_lowest() -> None:
    table = Table.start(cast())
    # Crowd 1, Thug 2, Brute 3, Vin 4, Kelsier 5.
    assert order_of(table) == [CROWD, THUG, BRUTE, VIN, KELL]


def test_the_surprised_declare_before_everyone_else() -> None:
    table = Table.start(cast(), surprised=(KELL, BRUTE))
    assert order_of(table) == [BRUTE, KELL, CROWD, THUG, VIN]


def test_ties_keep_join_order_until_the_narrator_reorders() -> None:
    sheets = {10: sheet("Ash", wits=3), 11: sheet("Bell", wits=3), 12: sheet("Cole", wits=2)}
    table = Table.start(sheets)
    assert order_of(table) == [12, 10, 11]
    events = table.do(Reorder(order=(12, 11, 10)))
    assert order_of(table) == [12, 11, 10]
    assert of_type(events, "reordered")[0].order == (12, 11, 10)
    # A newcomer with the same Wits goes after the ties already settled.
    table.sheets[13] = sheet("Dorn", wits=3)
    table.do(Join(character_id=13))
    assert order_of(table) == [12, 11, 10, 13]


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ((VIN, THUG, BRUTE), "Thug has Wits 2 and must declare before Vin"),
        ((THUG, VIN), "List every fighter exactly once"),
        ((THUG, VIN, VIN, BRUTE), "List every fighter exactly once"),
        ((THUG, BRUTE, VIN, 99), "List every fighter exactly once"),
    ],
)
def test_reorder_can_only_settle_ties(order: tuple[int, ...], message: str) -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.refuse(Reorder(order=order), message)


def test_reorder_respects_surprise() -> None:
    table = Table.start(pick(VIN, THUG), surprised=(VIN,))
    table.refuse(Reorder(order=(THUG, VIN)), "Vin is surprised")


def test_declaring_in_turn_opens_the_resolve_phase() -> None:
    table = Table.start(pick(VIN, THUG))
    events = table.do(declare_attack(THUG, VIN))
    assert waiting(events).participants == (VIN,)
    events = table.do(declare_attack(VIN, THUG))
    assert table.state.phase is Phase.RESOLVE
    assert of_type(events, "resolve_started")[0].order == ((THUG,), (VIN,))
    assert next_declarer(table.state) is None


BASE: dict[str, Any] = {}


@pytest.mark.parametrize(
    ("stat", "dice", "burn", "expected"),
    [
        ("Physique", {}, False, 4),
        ("physique", {"traits_for": 2}, False, 6),
        ("Physique", {"traits_against": 1}, False, 3),
        ("Physique", {"tool": 1, "circumstances": 1}, False, 6),
        ("Physique", {"tool": -1, "circumstances": -1}, False, 2),
        ("Physique", {}, True, 7),  # Pewter 3 while it burns
        ("Steel", {}, True, 5),  # Pewter does nothing for Steel
        ("Wits", {"traits_for": 1}, False, 5),
        ("Resources", {}, False, 4),
        ("Physique", {"burdens": ("Broken arm", "Shamed")}, False, 4 + 2 + 1),
        ("Physique", {"burdens": ("broken ARM",)}, False, 4 + 2),
    ],
)
def test_action_dice_are_formed_like_a_pool_without_the_cap(
    stat: str, dice: dict[str, Any], burn: bool, expected: int
) -> None:
    sheets = pick(VIN, THUG)
    sheets[THUG] = revise_character(
        sheets[THUG],
        burdens=[{"name": "Broken arm", "severity": "grave"}, {"name": "Shamed", "severity": "serious"}],
    )
    table = Table.start(sheets)
    table.do(declare_defence(THUG))
    if burn:
        table.do(Burn(participant=VIN, metal="Pewter"))
    events = table.do(
        Declare(
            participant=VIN,
            action=ActionSpec(kind=ActionKind.ATTACK, target=THUG),
            dice=DiceSpec(stat=stat, **dice),
        )
    )
    assert table.dice(VIN) == (expected, 0)
    (declared,) = of_type(events, "declared")
    assert declared.dice == expected == sum(c.dice for c in declared.pool)


def test_dice_pass_ten_and_never_drop_below_zero() -> None:
    sheets = {1: sheet("Big", physique=10, powers=[{"type": "allomancy", "name": "Pewter", "rating": 10}])}
    sheets[2] = sheet("Small", "villain", physique=1, wits=1)
    table = Table.start(sheets)
    table.do(Burn(participant=1, metal="Pewter"))
    table.do(declare_attack(2, 1, traits_against=3, tool=-1))
    assert table.dice(2) == (0, 0)
    table.do(declare_attack(1, 2, traits_for=3))
    assert table.dice(1) == (23, 0)


def test_a_defeat_penalty_costs_two_dice() -> None:
    sheets = pick(VIN, THUG)
    sheets[VIN] = revise_character(sheets[VIN], damage={"willpower": 9})  # Wits 4 + Spirit 5: devastated
    table = Table.start(sheets)
    table.do(declare_defence(THUG))
    table.do(declare_attack(VIN, THUG, "Steel"))  # a Power: 0 Willpower costs 2
    assert table.dice(VIN) == (3, 0)


def test_full_defence_gives_defense_dice_and_no_roll_gives_none() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_nothing(THUG), declare_defence(VIN, traits_for=1))
    assert table.dice(THUG) == (0, 0)
    assert table.dice(VIN) == (0, 5)
    assert table.state.phase is Phase.RESOLVE


PHYSICAL, SOCIAL, MENTAL = ConflictType.PHYSICAL, ConflictType.SOCIAL, ConflictType.MENTAL
HEALTH, REPUTATION, WILLPOWER = Resilience.HEALTH, Resilience.REPUTATION, Resilience.WILLPOWER


@pytest.mark.parametrize(
    ("conflict_type", "stat", "named", "kind", "resilience"),
    [
        ("physical", "Physique", {}, PHYSICAL, HEALTH),
        ("physical", "Charm", {}, SOCIAL, REPUTATION),  # a taunt in a brawl is social
        ("physical", "Wits", {}, MENTAL, WILLPOWER),
        ("social", "Physique", {}, PHYSICAL, HEALTH),  # the Attribute decides, not the frame
        ("social", "Steel", {}, SOCIAL, REPUTATION),  # a Power whose use is unstated: the Conflict's
        ("mental", "Resources", {}, MENTAL, WILLPOWER),  # a Standing: the Conflict's
        (
            "physical",
            "Physique",
            {"resilience": WILLPOWER},
            PHYSICAL,
            WILLPOWER,
        ),  # a beating to break the will
        ("physical", "Steel", {"attack_kind": MENTAL}, MENTAL, WILLPOWER),  # the Narrator's call
        ("mental", "Charm", {"attack_kind": PHYSICAL, "resilience": REPUTATION}, PHYSICAL, REPUTATION),
    ],
)
def test_an_attack_has_a_kind_and_a_resilience(
    conflict_type: str, stat: str, named: dict[str, Any], kind: ConflictType, resilience: Resilience
) -> None:
    """docs/rulings.md §4.5: an attack's kind defaults to its Attribute's (Physique physical,
    Charm social, Wits mental), else the Conflict's; its Resilience defaults to the kind's;
    the Narrator may name either."""
    table = Table.start(pick(VIN, THUG), conflict_type=conflict_type)
    events = table.do(declare_defence(THUG), declare_attack(VIN, THUG, stat, **named))
    action = table.declaration(VIN).action
    assert (action.attack_kind, action.resilience) == (kind, resilience)
    assert of_type(events, "declared")[-1].action == action


def attack_with(**fields: Any) -> Declare:
    dice = fields.pop("dice", DiceSpec(stat="Physique"))
    return Declare(
        participant=THUG, action=ActionSpec(**{"kind": ActionKind.ATTACK, "target": VIN, **fields}), dice=dice
    )


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (declare_attack(VIN, THUG), "Thug's turn to declare"),
        (attack_with(target=None), "An attack needs a target"),
        (attack_with(target=THUG), "cannot target themselves"),
        (attack_with(target=42), "not taking part"),
        (attack_with(dice=None), "Say which rating"),
        (attack_with(dice=DiceSpec(stat="Luck")), "no 'Luck' to roll"),
        (attack_with(dice=DiceSpec(stat="Physique", tool=2)), "Tools add or remove at most one die"),
        (attack_with(dice=DiceSpec(stat="Physique", burdens=("Limp",))), "no Burdens"),
        (attack_with(weapon="Sword"), "no Prop called 'Sword'"),
        (attack_with(weapon="Leather"), "not a weapon"),
        (attack_with(weapon="Club", weapon_bonus=1), "not both"),
        (attack_with(weapon_bonus=5), "weapon's bonus must be between 0 and 4"),
        (attack_with(armour=4), "Armour must be between 0 and 3"),
        (attack_with(difficulty=6), "Difficulty runs from 1"),
        (attack_with(label="x" * 101), "too long"),
        (attack_with(label="two\nlines"), "line breaks"),
        (
            Declare(participant=THUG, action=ActionSpec(kind=ActionKind.NO_ROLL), dice=DiceSpec(stat="Wits")),
            "produces no dice",
        ),
        (
            Declare(
                participant=THUG,
                action=ActionSpec(kind=ActionKind.FULL_DEFENCE, target=VIN),
                dice=DiceSpec(stat="Wits"),
            ),
            "Full defence takes no target",
        ),
        (
            Declare(
                participant=THUG,
                action=ActionSpec(kind=ActionKind.ACTION, resilience=Resilience.HEALTH),
                dice=DiceSpec(stat="Wits"),
            ),
            "Only an attack aims at a Resilience",
        ),
        (
            Declare(
                participant=THUG,
                action=ActionSpec(kind=ActionKind.ACTION, attack_kind=ConflictType.SOCIAL),
                dice=DiceSpec(stat="Charm"),
            ),
            "Only an attack is physical, social or mental",
        ),
        (
            Declare(
                participant=THUG, action=ActionSpec(kind=ActionKind.NO_ROLL, attack_kind=ConflictType.MENTAL)
            ),
            "takes no kind of attack",
        ),
        (
            Declare(
                participant=THUG,
                action=ActionSpec(kind=ActionKind.ACTION),
                dice=DiceSpec(stat="Wits", burdens=("x",)),
            ),
            "this action has no target",
        ),
        (attack_with(dice=DiceSpec(stat="Physique", burdens=("Limp", "limp"))), "counts once"),
    ],
)
def test_declarations_the_rules_refuse(command: Declare, message: str) -> None:
    sheets = pick(VIN, THUG)
    sheets[VIN] = revise_character(sheets[VIN], burdens=[{"name": "Limp", "severity": "serious"}])
    if "no Burdens" in message:
        sheets[VIN] = revise_character(sheets[VIN], burdens=[])
    table = Table.start(sheets)
    table.refuse(command, message)


def test_declaring_in_the_wrong_phase_or_changing_a_declaration_too_late() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_attack(THUG, VIN))
    changed = table.do(declare_defence(THUG))  # nobody has declared since: Thug changes his mind
    assert of_type(changed, "declared")[0].changed and table.p(THUG).round.status is Status.DONE
    table.do(declare_attack(THUG, VIN))
    table.do(declare_attack(VIN, THUG))
    table.refuse(declare_attack(THUG, VIN), "Vin has declared since. Only the Narrator can reopen it")
    table.do(Act(participant=THUG, pool=2))
    table.refuse(declare_attack(VIN, THUG), "turns have been taken this round")
    table.refuse(SetSurprised(participant=VIN), "Actions are being resolved")


def test_a_defeated_participant_cannot_declare_and_is_skipped() -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.state = table.state.with_participant(table.p(THUG).model_copy(update={"defeated": True}))
    table.refuse(declare_attack(THUG, VIN), "defeated and cannot declare")
    declarer = next_declarer(table.state)
    assert declarer is not None and declarer.id == BRUTE
    table.refuse(declare_attack(BRUTE, THUG), "already defeated")


def test_joining_rules() -> None:
    sheets = pick(VIN, THUG)
    sheets[7] = revise_character(cast()[KELL], name="Fallen", damage={"health": 9})
    sheets[8] = revise_character(cast()[CROWD], name="Routed", members_down=4)
    table = Table.start(pick(VIN))
    table.sheets.update(sheets)
    table.refuse(Join(character_id=VIN), "already taking part")
    table.refuse(Join(character_id=99), "not found")
    table.refuse(Join(character_id=7), "already defeated")
    table.refuse(Join(character_id=8), "Every member")
    events = table.do(Join(character_id=THUG))
    assert table.p(THUG).side is Side.OPPOSITION and table.p(VIN).side is Side.HEROES
    assert of_type(events, "joined")[0].side is Side.OPPOSITION


def test_a_conflict_holds_at_most_25() -> None:
    sheets = {i: sheet(f"Extra {i}", "extra", size=2) for i in range(100, 125)}
    table = Table.start(sheets)
    table.sheets[200] = sheet("One too many")
    table.refuse(Join(character_id=200), "at most 25")


def test_leaving_and_surprise() -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(SetSurprised(participant=VIN))
    assert next(p.id for p in declaration_order(table.state)) == VIN
    table.refuse(SetSurprised(participant=VIN), "already surprised")
    table.do(declare_attack(VIN, THUG))
    table.refuse(SetSurprised(participant=VIN, surprised=False), "already declared")
    table.do(declare_attack(THUG, VIN))
    events = table.do(Leave(participant=BRUTE))
    # Brute was the last to declare; with him gone everyone has declared.
    assert table.state.phase is Phase.RESOLVE
    assert of_type(events, "left")[0].name == "Brute"
    assert table.state.name_of(BRUTE) == "Brute" and table.state.departed_name(BRUTE) == "Brute"
    assert table.state.departed_name(VIN) is None and table.state.name_of(404) == "a fighter who left"


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Burn(participant=THUG, metal="Pewter"), "no Allomantic Pewter"),
        (Burn(participant=VIN, metal="Wood"), "not a metal"),
        (Burn(participant=VIN, metal="Pewter", burning=False), "not burning Pewter"),
        (AdjustDice(participant=VIN, delta=1), "has not declared yet"),
        (AdjustDice(participant=THUG, delta=0), "at least one die"),
        (AdjustDice(participant=THUG, delta=21), "between -20 and 20"),
        (AdjustDice(participant=THUG, delta=-6), "only 5 Action Dice"),
    ],
)
def test_roster_refusals(command: Any, message: str) -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_attack(THUG, VIN))
    table.refuse(command, message)


def test_burning_pewter_raises_health_and_later_dice() -> None:
    table = Table.start(pick(VIN, THUG))
    events = table.do(Burn(participant=VIN, metal="pewter"))
    assert of_type(events, "burning_changed")[0].health == 4 + 3 + 4
    table.refuse(Burn(participant=VIN, metal="Pewter"), "already burning")
    events = table.do(Burn(participant=VIN, metal="Pewter", burning=False))
    assert of_type(events, "burning_changed")[0].health == 8


def test_narrator_adjustments_change_the_pile_held_now() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_attack(THUG, VIN), declare_defence(VIN))
    events = table.do(AdjustDice(participant=THUG, delta=-2, reason="slipped on the wet floor"))
    assert table.dice(THUG) == (3, 0)
    assert of_type(events, "dice_adjusted")[0].reason == "slipped on the wet floor"
    table.do(AdjustDice(participant=VIN, delta=3))
    assert table.dice(VIN) == (0, 7)
