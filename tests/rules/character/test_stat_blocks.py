"""The four three-rating blocks of a sheet share one StatBlock and keep their JSON and messages."""

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from rules.character import Attribute, Attributes, Harm, Resilience, Spent, Standing, Standings
from rules.character.model import StatBlock


@pytest.mark.parametrize(
    ("block", "json"),
    [
        (Attributes(), '{"physique":2,"charm":2,"wits":2}'),
        (Standings(spirit=7), '{"resources":2,"influence":2,"spirit":7}'),
        (Spent(influence=1), '{"resources":0,"influence":1,"spirit":0}'),
        (Harm(willpower=30), '{"health":0,"reputation":0,"willpower":30}'),
    ],
)
def test_blocks_dump_and_load_the_same_json_as_before(block: BaseModel, json: str) -> None:
    assert isinstance(block, StatBlock)
    assert block.model_dump_json() == json
    assert type(block).model_validate_json(json) == block


@pytest.mark.parametrize(
    ("block", "fields", "message"),
    [
        (Attributes, {"charm": 0}, "Charm must be between 1 and 10; 0 is out of range."),
        (Standings, {"influence": 11}, "Influence must be between 2 and 10; 11 is out of range."),
        (Spent, {"spirit": 10}, "Spirit spent must be between 0 and 9; 10 is out of range."),
        (Harm, {"reputation": -1}, "Reputation damage must be between 0 and 30; -1 is out of range."),
        (Harm, {"luck": 1}, "Extra inputs are not permitted"),
        (Attributes, {"wits": "3"}, "Input should be a valid integer"),
    ],
)
def test_blocks_check_their_bounds_with_the_same_messages(
    block: type[BaseModel], fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        block.model_validate(fields)


def test_get_and_with_value_work_on_every_block() -> None:
    attributes = Attributes(physique=4, charm=5, wits=6)
    assert [attributes.get(a) for a in Attribute] == [4, 5, 6]
    assert attributes.with_value(Attribute.CHARM, 9) == Attributes(physique=4, charm=9, wits=6)
    assert Standings().with_value(Standing.SPIRIT, 8).get(Standing.SPIRIT) == 8
    assert Spent().with_value(Standing.RESOURCES, 1) == Spent(resources=1)
    harm = Harm().with_value(Resilience.HEALTH, 3)
    assert type(harm) is Harm and harm.get(Resilience.HEALTH) == 3
    with pytest.raises(ValidationError):
        attributes.physique = 1  # frozen


def test_a_block_must_name_its_fields_after_its_enum() -> None:
    with pytest.raises(TypeError, match=r"Odd's fields must be \['physique', 'charm', 'wits'\]"):

        class Odd(StatBlock[Attribute]):
            KEYS = Attribute
            LOW = 0
            HIGH = 1

            physique: int = 0
            wits: int = 0
            charm: int = 0
