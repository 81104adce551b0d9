"""A Conflict saved by the engine before attacks had a kind loads and plays on (schema 1 → 2).

``fixtures/conflict_v1.json`` was saved by the engine at commit 7d8e198 (schema version 1): in a
physical Conflict the Thug is busy barring a door (no roll), the Brute has declared a Charm
attack on Vin ("mocks her", which that engine aimed at Health), and Vin has attacked the Thug's
Willpower with Physique ("beats the truth out of him") with 3 dice, waiting for his defence.
"""

import json
from pathlib import Path

from rules.character import Resilience
from rules.conflict import ConflictType, Defend, Pass, Step, dump_conflict, load_conflict
from rules.conflict.upgrade import upgrade_v1
from tests.rules.conflict.builders import BRUTE, THUG, VIN, Table, of_type, pick, waiting

V1 = (Path(__file__).parent / "fixtures" / "conflict_v1.json").read_text(encoding="utf-8")


def test_the_old_document_is_version_1_without_attack_kinds() -> None:
    data = json.loads(V1)
    assert data["schema_version"] == 1
    assert "attack_kind" not in V1


def test_each_stored_attack_gets_the_kind_its_declaration_gives_it() -> None:
    """docs/rulings.md §4.5: the kind follows the attacking Attribute (Physique physical, Charm
    social); the Resilience stays as declared."""
    state = load_conflict(V1)
    assert state.schema_version == 2
    vin_declared = state.participant(VIN).round.declaration
    brute_declared = state.participant(BRUTE).round.declaration
    thug_declared = state.participant(THUG).round.declaration
    assert vin_declared is not None and brute_declared is not None and thug_declared is not None
    vin = vin_declared.action
    brute = brute_declared.action
    assert (vin.attack_kind, vin.resilience) == (ConflictType.PHYSICAL, Resilience.WILLPOWER)
    assert (brute.attack_kind, brute.resilience) == (ConflictType.SOCIAL, Resilience.HEALTH)
    assert state.pending is not None and state.pending.action == vin
    assert thug_declared.action.attack_kind is None  # no roll, no attack
    again = dump_conflict(state)
    assert json.loads(again)["schema_version"] == 2 and load_conflict(again) == state


def test_the_old_conflict_plays_on_by_the_rules_as_written() -> None:
    """The Thug, busy, defends against a physical attack with his Physique (5), not the Wits (2)
    of the Willpower it aims at (§4.11); Vin's Dagger, her best weapon, adds a point to a
    physical blow and his leather stops one (§5.1, §5.2); then the round goes on to the Brute's
    social attack."""
    table = Table(load_conflict(V1), pick(VIN, THUG, BRUTE))
    events = table.do(Defend(participant=THUG, dice=0, attack_faces=(3, 3, 1)))
    assert of_type(events, "defence_granted")[0].dice == 5
    (dealt,) = of_type(events, "damage_dealt")
    assert (dealt.resilience, dealt.weapon, dealt.armour, dealt.amount) == (Resilience.WILLPOWER, 1, 1, 1)
    assert waiting(events).step is Step.ACT and waiting(events).participants == (BRUTE,)
    events = table.do(Pass(participant=BRUTE))
    assert waiting(events).step is Step.NEXT_ROUND


def test_the_pending_attack_of_a_beat_takes_the_conflicts_kind_when_new() -> None:
    """An extra action that is not the declared one had no rating of its own: the Conflict's kind."""
    data = json.loads(V1)
    data["pending"]["extra"] = True
    data["pending"]["action"]["label"] = "shoves a crate at him"
    upgraded = upgrade_v1(data)
    assert upgraded["pending"]["action"]["attack_kind"] == "physical"
    data["type"] = "mental"
    assert upgrade_v1(data)["pending"]["action"]["attack_kind"] == "mental"
    assert "attack_kind" not in data["pending"]["action"]  # the input is left as it was
