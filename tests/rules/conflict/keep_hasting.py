"""The Conflicts chapter's Keep Hasting example (docs/rulings.md §4–§5) as sheets and commands, for the tests.

Ids are what storage would assign when the six sheets are created in this order.
"""

from rules.character import Character, make_character
from rules.conflict import (
    ActionKind,
    ActionSpec,
    Begin,
    Burn,
    Command,
    Conflict,
    ConflictType,
    Declare,
    DiceSpec,
    Join,
    Side,
    Transition,
    apply,
    new_conflict,
)

THORROW, KOEL, IGNUS, CORDAL, CARROW, GUARDS = 1, 2, 3, 4, 5, 6
CHANNEL = 100


def keep_hasting_sheets() -> dict[int, Character]:
    """The six sheets: only what the example uses is set; the rest are defaults."""
    return {
        THORROW: make_character(
            name="Thorrow",
            kind="hero",
            owner_id=11,
            attributes={"physique": 6, "charm": 2, "wits": 4},
            standings={"resources": 3, "influence": 3, "spirit": 3},
            traits={"specialty": "spear fighter"},
            powers=[{"type": "allomancy", "name": "Pewter", "rating": 5}],
            props=[{"name": "Spear", "weapon": 2}],
        ),
        KOEL: make_character(
            name="Koel",
            kind="hero",
            owner_id=12,
            attributes={"physique": 3, "charm": 4, "wits": 3},
            powers=[
                {"type": "allomancy", "name": "Steel", "rating": 4},
                {"type": "allomancy", "name": "Tin", "rating": 4},
            ],
        ),
        IGNUS: make_character(
            name="Ignus",
            kind="villain",
            owner_id=10,
            attributes={"physique": 3, "charm": 3, "wits": 2},
            traits={"personality": "sniveling coward"},
        ),
        CORDAL: make_character(
            name="Cordal Bylerum",
            kind="villain",
            owner_id=10,
            attributes={"physique": 4, "charm": 2, "wits": 3},
            powers=[{"type": "allomancy", "name": "Steel", "rating": 6}],
        ),
        CARROW: make_character(
            name="Carrow Bylerum",
            kind="villain",
            owner_id=10,
            attributes={"physique": 4, "charm": 3, "wits": 5},
            standings={"resources": 4, "influence": 4, "spirit": 3},
            traits={"feature": "agile tumbler"},
            powers=[{"type": "allomancy", "name": "Pewter", "rating": 5}],
            props=[{"name": "Obsidian dagger", "weapon": 1}],
        ),
        GUARDS: make_character(
            name="House guards",
            kind="extra",
            owner_id=10,
            size=3,
            attributes={"physique": 3, "charm": 2, "wits": 4},
            props=[{"name": "Spear", "weapon": 2}],
        ),
    }


def attack(target: int, stat: str, **dice: object) -> tuple[ActionSpec, DiceSpec]:
    extra = {k: v for k, v in dice.items() if k in ("weapon", "difficulty", "label")}
    rest = {k: v for k, v in dice.items() if k not in extra}
    return ActionSpec(kind=ActionKind.ATTACK, target=target, **extra), DiceSpec(stat=stat, **rest)


def declarations() -> list[Command]:
    """Everyone's first declaration, in the order the example gives them."""
    cordal = attack(KOEL, "Steel", label="flings coins at Koel")
    carrow = attack(
        THORROW,
        "Physique",
        traits_for=1,
        circumstances=-1,
        weapon="Obsidian dagger",
        label="steps in with a dagger",
    )
    koel = attack(GUARDS, "Steel", difficulty=3, label="shoots coins through the wall")
    thorrow = attack(CARROW, "Physique", traits_for=1, weapon="Spear", label="sweeps at Carrow's legs")
    return [
        Declare(
            participant=IGNUS,
            action=ActionSpec(kind=ActionKind.FULL_DEFENCE, label="ducks under the table"),
            dice=DiceSpec(stat="Physique", traits_for=1, tool=1),
        ),
        Declare(participant=CORDAL, action=cordal[0], dice=cordal[1]),
        Declare(participant=GUARDS, action=ActionSpec(kind=ActionKind.NO_ROLL, label="close in")),
        Declare(participant=CARROW, action=carrow[0], dice=carrow[1]),
        Declare(participant=KOEL, action=koel[0], dice=koel[1]),
        Declare(participant=THORROW, action=thorrow[0], dice=thorrow[1]),
    ]


def setup_commands() -> list[Command]:
    """Joining (the Bylerum side surprised), lighting Pewter, and the Narrator's Begin."""
    joins: list[Command] = [
        Join(character_id=THORROW),
        Join(character_id=KOEL),
        Join(character_id=IGNUS, surprised=True),
        Join(character_id=CORDAL, surprised=True),
        Join(character_id=CARROW, surprised=True),
        Join(character_id=GUARDS, side=Side.OPPOSITION, surprised=True),
    ]
    burns: list[Command] = [
        Burn(participant=THORROW, metal="Pewter"),
        Burn(participant=CARROW, metal="pewter"),
    ]
    return [*joins, *burns, Begin()]


def run(
    state: Conflict, commands: list[Command], sheets: dict[int, Character]
) -> tuple[Conflict, list[Transition]]:
    """Apply commands in turn, keeping the sheets up to date with any damage."""
    done = []
    for command in commands:
        step = apply(state, command, sheets)
        sheets.update(step.changed_sheets)
        state = step.state
        done.append(step)
    return state, done


def declared_conflict() -> tuple[Conflict, dict[int, Character]]:
    """The Conflict at the start of resolving round 1, and the sheets."""
    sheets = keep_hasting_sheets()
    state = new_conflict(CHANNEL, ConflictType.PHYSICAL, "Keep the Bylerum Boys busy while the crew works")
    state, _ = run(state, [*setup_commands(), *declarations()], sheets)
    return state, sheets


THORROW_FACES = (3, 3, 6, 6, 6, 6, 1, 2)
CARROW_FACES = (3, 3, 6, 1)


def round_one() -> list[Command]:
    """The whole first round after joining, with every die fixed so it replays exactly."""
    from rules.conflict import Act, Defend, NextRound, SpendNudges

    return [
        Burn(participant=THORROW, metal="Pewter"),
        Burn(participant=CARROW, metal="Pewter"),
        *declarations(),
        Act(participant=THORROW, pool=8),
        Defend(participant=CARROW, dice=4, attack_faces=THORROW_FACES, defence_faces=CARROW_FACES),
        SpendNudges(participant=THORROW, story=2, damage=2),
        Act(participant=CORDAL, pool=6),
        Defend(participant=KOEL, dice=2, attack_faces=(1, 2, 3, 4, 5, 6), defence_faces=(4, 4)),
        Act(participant=CARROW, pool=5),
        Defend(participant=THORROW, dice=2, attack_faces=(2, 2, 1, 1, 3), defence_faces=(1, 3)),
        Act(participant=KOEL, pool=2),
        Defend(participant=GUARDS, dice=2, attack_faces=(3, 3), defence_faces=(1, 2)),
        NextRound(),
    ]


def joins() -> list[Join]:
    return [c for c in setup_commands() if isinstance(c, Join)]
