"""The metals' numbers a Conflict applies on defence and damage (docs/rulings.md §9.3, §9.4,
§9.7): Reflect Ranged Attack, Denser Tissues and Iron Will, flared Zinc and Brass as mental
attacks (Spirit, Willpower, Affect Crowd, Focused Emotion), a held emotion, and storing."""

from typing import Any

import pytest

from rules.character import Character, Resilience, make_character
from rules.conflict import Act, Begin, Burn, ConflictType, Defend, SpendNudges
from rules.powers.pushes import ObjectSize
from tests.rules.conflict.builders import (
    BRUTE,
    CROWD,
    KELL,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    declare_nothing,
    of_type,
    pick,
)


def _with(sheet: Character, **update: Any) -> Character:
    return make_character(**{**sheet.model_dump(exclude={"id"}), **update})


def _lurcher(table: Table, *stunts: str) -> None:
    """The Brute burns Iron 4 with ``stunts`` on it."""
    iron = {"type": "allomancy", "name": "Iron", "rating": 4, "stunts": list(stunts)}
    table.sheets[BRUTE] = _with(table.sheets[BRUTE], powers=[iron])


@pytest.mark.parametrize(
    ("stunts", "defence_faces", "back"),
    [
        # Attacker: Result 3, no Nudges. Defender: Result 5 and that many sixes.
        (("Reflect Ranged Attack",), (5, 5, 6, 6), 1 + 0 + 1),  # 2 Nudges pay: 1 + the coin's 1
        (("Reflect Ranged Attack",), (5, 5, 6, 6, 6), 1 + 1 + 1),  # one Nudge past the 2 adds 1
        (("Reflect Ranged Attack",), (5, 5, 6, 1), None),  # 1 Nudge: it only misses
        ((), (5, 5, 6, 6), None),  # no Stunt: it only misses
    ],
)
def test_reflect_ranged_attack_sends_the_coin_back(
    stunts: tuple[str, ...], defence_faces: tuple[int, ...], back: int | None
) -> None:
    """§9.7, our numbers: a won deflection with 2 Nudges strikes the attacker with the object."""
    table = Table.start(pick(VIN, THUG, BRUTE))
    _lurcher(table, *stunts)
    table.do(Burn(participant=VIN, metal="Steel"), Burn(participant=BRUTE, metal="Iron"))
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    table.do(declare_attack(VIN, BRUTE, stat="Steel", push=ObjectSize.SMALL), Act(participant=VIN, pool=5))
    dice = len(defence_faces)
    events = table.do(
        Defend(
            participant=BRUTE,
            dice=dice,
            deflect=True,
            attack_faces=(3, 3, 1, 1, 1),
            defence_faces=defence_faces,
        )
    )
    dealt = of_type(events, "damage_dealt")
    if back is None:
        assert not dealt
        return
    (hit,) = dealt
    assert (hit.target, hit.attacker, hit.reflected, hit.amount) == (VIN, BRUTE, True, back)
    assert table.sheets[VIN].damage.health == back


def _tissues(table: Table, who: int, stunts: list[str], metal: str = "Pewter") -> None:
    sheet = table.sheets[who]
    power = {"type": "allomancy", "name": metal, "rating": 3, "stunts": stunts}
    table.sheets[who] = _with(sheet, powers=[power])


@pytest.mark.parametrize(
    ("stunts", "burning", "taken"),
    [
        ([], True, 2),
        (["Denser Tissues"], True, 1),
        (["Denser Tissues", "Denser Tissues"], True, 0),
        (["Denser Tissues"], False, 2),  # a Stunt works only while its metal burns
    ],
)
def test_denser_tissues_takes_one_off_each_hit(stunts: list[str], burning: bool, taken: int) -> None:
    """§9.7: 1 + Vin's Dagger 1 + 1 Nudge − Thug's leather 1 = 2, less Denser Tissues."""
    table = Table.start(pick(VIN, THUG, BRUTE), begin=False)
    _tissues(table, THUG, stunts)
    if burning:
        table.do(Burn(participant=THUG, metal="Pewter"))
    table.do(Begin())
    table.do(declare_nothing(THUG), declare_defence(BRUTE), declare_attack(VIN, THUG))
    table.do(Act(participant=VIN, pool=4))
    events = table.do(Defend(participant=THUG, dice=0, attack_faces=(6, 3, 3, 1)))
    events += table.do(*_spend(VIN))
    (dealt,) = of_type(events, "damage_dealt")
    assert dealt.amount == taken
    assert (dealt.soaked, dealt.soaked_by) == ((2 - taken, "Denser Tissues") if taken < 2 else (0, ""))


def _spend(who: int) -> list[Any]:
    return [SpendNudges(participant=who, damage=1)]


def _soother(table: Table, *stunts: str, metal: str = "Zinc", rating: int = 4) -> None:
    """Kelsier burns ``metal`` at ``rating`` with ``stunts`` on it, and Copper 3 with Iron Will."""
    powers = [
        {"type": "allomancy", "name": metal, "rating": rating, "stunts": list(stunts)},
        {"type": "allomancy", "name": "Copper", "rating": 3, "stunts": ["Iron Will"]},
    ]
    table.sheets[KELL] = _with(table.sheets[KELL], powers=powers)


def emotion_table(*stunts: str, flared: bool = True, rating: int = 4) -> Table:
    table = Table.start(pick(VIN, KELL, THUG, CROWD), begin=False)
    _soother(table, *stunts, rating=rating)
    table.do(Burn(participant=KELL, metal="Zinc", flared=flared), Begin())
    table.do(*(declare_nothing(p) for p in (CROWD, THUG, VIN)))  # by Wits, Kelsier last
    return table


def test_flared_zinc_is_a_mental_attack_on_willpower_resisted_with_spirit() -> None:
    """§9.3: the metal against Spirit, on Willpower, whatever the Conflict's kind."""
    table = emotion_table()
    table.do(declare_attack(KELL, THUG, stat="Zinc", label="rage"))
    action = table.declaration(KELL).action
    assert (action.attack_kind, action.resilience, action.emotion) == (
        ConflictType.MENTAL,
        Resilience.WILLPOWER,
        "Zinc",
    )
    table.do(Act(participant=KELL, pool=5))
    events = table.do(Defend(participant=THUG, dice=0))
    (granted,) = of_type(events, "defence_granted")
    assert granted.pool[0].label == "Spirit"


@pytest.mark.parametrize(
    ("named", "refused"),
    [({"attack_kind": ConflictType.PHYSICAL}, True), ({"resilience": Resilience.HEALTH}, True), ({}, False)],
)
def test_flared_emotion_named_otherwise_is_refused(named: dict[str, Any], refused: bool) -> None:
    table = emotion_table()
    command = declare_attack(KELL, THUG, stat="Zinc", **named)
    if refused:
        table.refuse(command, "mental attack on Willpower")
    else:
        table.do(command)


def test_an_unflared_zinc_attack_keeps_the_conflicts_kind() -> None:
    table = emotion_table(flared=False)
    table.do(declare_attack(KELL, THUG, stat="Zinc"))
    action = table.declaration(KELL).action
    assert (action.attack_kind, action.emotion) == (ConflictType.PHYSICAL, None)


@pytest.mark.parametrize(
    ("stunts", "rating", "label", "parts"),
    [
        ((), 4, "rage", {}),
        (("Focused Emotion: rage",), 4, "stir their rage", {"Focused Emotion": 1}),
        (("Focused Emotion: grief",), 4, "stir their rage", {}),
        (("Affect Crowd",), 3, "rage", {}),  # flared Zinc 3 + 1 reaches the crowd of 4
        (("Affect Crowd",), 2, "rage", {"Affect Crowd": -2}),
    ],
)
def test_focused_emotion_and_affect_crowd_on_the_pool(
    stunts: tuple[str, ...], rating: int, label: str, parts: dict[str, int]
) -> None:
    """§9.7: Focused Emotion +1 when the action names its emotion (we chose); Affect Crowd −2
    against a group larger than the rating."""
    table = emotion_table(*stunts, rating=rating)
    table.do(declare_attack(KELL, CROWD, stat="Zinc", label=label))
    (declared,) = of_type(table.last.events, "declared")
    found = {
        part.label: part.dice for part in declared.pool if part.label in ("Focused Emotion", "Affect Crowd")
    }
    assert found == parts


def test_a_crowd_past_the_rating_needs_affect_crowd() -> None:
    """§9.3: Zinc reaches up to the rating in people; flared Zinc 2 + 1 = 3 < the crowd of 4."""
    table = emotion_table(rating=2)
    table.refuse(declare_attack(KELL, CROWD, stat="Zinc"), "needs the Affect Crowd Stunt")


@pytest.mark.parametrize(("copper", "taken"), [(False, 2), (True, 1)])
def test_iron_will_takes_one_off_each_willpower_hit(copper: bool, taken: int) -> None:
    """§9.7: Iron Will (Copper) takes 1 off each hit to Willpower while Copper burns."""
    table = Table.start(pick(VIN, KELL, THUG), begin=False)
    _soother(table)
    thug = _with(table.sheets[THUG], powers=[{"type": "allomancy", "name": "Zinc", "rating": 8}])
    table.sheets[THUG] = thug
    table.do(Burn(participant=THUG, metal="Zinc", flared=True))
    if copper:
        table.do(Burn(participant=KELL, metal="Copper"))
    table.do(Begin(), declare_attack(THUG, KELL, stat="Zinc"), declare_nothing(VIN), declare_nothing(KELL))
    table.do(Act(participant=THUG, pool=4))
    events = table.do(Defend(participant=KELL, dice=0, attack_faces=(6, 3, 3, 1)))
    events += table.do(SpendNudges(participant=THUG, damage=1))
    (dealt,) = of_type(events, "damage_dealt")
    assert (dealt.resilience, dealt.amount) == (Resilience.WILLPOWER, taken)
    assert dealt.soaked_by == ("Iron Will" if copper else "")


@pytest.mark.parametrize(("rate", "expected"), [(0, 4), (1, 3), (3, 1)])
def test_storing_steel_costs_action_dice(rate: int, expected: int) -> None:
    """§9.4: storing N Steel costs N Action Dice (Vin: Physique 4)."""
    table = Table.start(pick(VIN, THUG), begin=False)
    if rate:
        storing = {"storing": [{"metal": "Steel", "rate": rate}]}
        table.sheets[VIN] = _with(table.sheets[VIN], feruchemy=storing)
    table.do(Begin(), declare_nothing(THUG), declare_attack(VIN, THUG))
    assert table.dice(VIN)[0] == expected


@pytest.mark.parametrize(
    ("storing", "wits"), [([], 5), ([("Zinc", 2)], 3), ([("Zinc", 2), ("Bronze", 4)], 0)]
)
def test_storing_zinc_or_bronze_lowers_the_wits_one_declares_by(
    storing: list[tuple[str, int]], wits: int
) -> None:
    """§9.4: Kelsier (Wits 5) declares by Wits less what he stores of Zinc and Bronze."""
    sheets = pick(VIN, KELL)
    stores = {"storing": [{"metal": m, "rate": r} for m, r in storing]}
    sheets[KELL] = _with(sheets[KELL], feruchemy=stores)
    table = Table.start(sheets, begin=False)
    assert table.p(KELL).wits == wits


@pytest.mark.parametrize(("stat", "held"), [("Charm", 3), ("Influence", 3), ("Physique", 0)])
def test_a_held_emotion_adds_its_dice_to_charm_and_influence_actions(stat: str, held: int) -> None:
    """§9.3: a soothing or rioting that succeeded adds its dice to the burner's Charm and
    Influence, in a Conflict as on /roll."""
    table = Table.start(pick(VIN, KELL, THUG), begin=False)
    _soother(table)
    allomancy = {"burning": ["Zinc"], "hold": {"metal": "Zinc", "dice": 3}}
    table.sheets[KELL] = _with(table.sheets[KELL], allomancy=allomancy)
    table.do(Begin(), declare_nothing(THUG), declare_nothing(VIN), declare_attack(KELL, THUG, stat=stat))
    (declared,) = of_type(table.last.events, "declared")
    assert sum(p.dice for p in declared.pool if p.label == "Rioting") == held


@pytest.mark.parametrize(("copper", "part"), [(False, None), (True, -3)])
def test_a_heros_copper_takes_its_rating_off_emotional_allomancy(copper: bool, part: int | None) -> None:
    """§9.3: Kelsier's Copper 3 burning takes 3 dice off the Thug's rioting aimed at him."""
    table = Table.start(pick(VIN, KELL, THUG), begin=False)
    _soother(table)
    table.sheets[THUG] = _with(
        table.sheets[THUG], powers=[{"type": "allomancy", "name": "Zinc", "rating": 6}]
    )
    table.do(Burn(participant=THUG, metal="Zinc"))
    if copper:
        table.do(Burn(participant=KELL, metal="Copper"))
    table.do(Begin(), declare_attack(THUG, KELL, stat="Zinc"))
    (declared,) = of_type(table.last.events, "declared")
    found = [p.dice for p in declared.pool if p.label == "Copper cloud"]
    assert found == ([part] if part is not None else [])


def test_a_villains_copper_is_left_to_the_narrator() -> None:
    """§7.1: a Villain's Copper may be a secret, so the bot does not take it off by itself."""
    table = Table.start(pick(VIN, KELL, THUG), begin=False)
    _soother(table)
    table.sheets[THUG] = _with(
        table.sheets[THUG], powers=[{"type": "allomancy", "name": "Copper", "rating": 4}]
    )
    table.do(Burn(participant=THUG, metal="Copper"), Burn(participant=KELL, metal="Zinc"), Begin())
    table.do(declare_nothing(THUG), declare_nothing(VIN), declare_attack(KELL, THUG, stat="Zinc"))
    (declared,) = of_type(table.last.events, "declared")
    assert not [p for p in declared.pool if p.label == "Copper cloud"]
