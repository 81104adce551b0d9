"""A won deflection's extras in words (docs/rulings.md §9.3, §7.1): a hidden deflector's Iron is
named only when they deflected with it, which the table saw."""

import pytest

from bot.render.conflict_metal import deflection_text
from rules.character import make_character
from rules.conflict import Act, Burn, Defend
from rules.powers.pushes import ObjectSize
from tests.rules.conflict.builders import (
    BRUTE,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    declare_nothing,
    of_type,
    pick,
)


@pytest.mark.parametrize(("shows", "said"), [(True, "Iron may draw it in"), (False, "")])
def test_a_mistborn_deflecting_with_steel_may_draw_in_with_iron(shows: bool, said: str) -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    data = table.sheets[BRUTE].model_dump(exclude={"id"})
    powers = [
        {"type": "allomancy", "name": "Steel", "rating": 5},
        {"type": "allomancy", "name": "Iron", "rating": 3},
    ]
    table.sheets[BRUTE] = make_character(**{**data, "powers": powers})
    table.do(
        *(Burn(participant=who, metal=m) for who, m in ((VIN, "Steel"), (BRUTE, "Steel"), (BRUTE, "Iron")))
    )
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    table.do(declare_attack(VIN, BRUTE, stat="Steel", push=ObjectSize.SMALL), Act(participant=VIN, pool=5))
    events = table.do(
        Defend(
            participant=BRUTE, dice=4, deflect=True, attack_faces=(3, 3, 1, 1, 1), defence_faces=(5, 5, 6, 1)
        )
    )
    (resolved,) = of_type(events, "resolved")
    assert (resolved.deflected, resolved.draws) == ("Steel", True)
    text = deflection_text(table.state, resolved, shows)
    assert (said in text) if said else text == ""
