"""Conflicts saved by an older engine, brought up to the current schema on load.

A stored Conflict is one JSON document (``storage.conflicts``); a Conflict may run for weeks,
so a document saved before an upgrade of the bot must still load and play on.

* **Version 1 → 2.** Version 1 gave an attack only a target Resilience, and chose a busy
  defender's Defense Dice and armour by it. Version 2 gives every attack a kind too
  (docs/rulings.md §4.5). Each attack stored in a version-1 document gets the kind the
  defaults give it now: from the Attribute its declaration rolls (Physique physical, Charm
  social, Wits mental), else the Conflict's kind. Its Resilience stays as it was declared,
  since the Narrator may have chosen it.

Each step works on the plain JSON data and leaves anything it does not recognise alone, so a
damaged document still fails validation with the usual plain message.
"""

import copy
from typing import Any

from rules.character.names import parse_attribute
from rules.conflict.specs import ATTRIBUTE_KIND, ActionKind, ConflictType
from rules.errors import RulesError

Data = dict[str, Any]


def _kind_of_stat(stat: object, fallback: ConflictType) -> ConflictType:
    """The default kind of an attack rolling ``stat``: an Attribute's own, else the fallback."""
    try:
        return ATTRIBUTE_KIND[parse_attribute(str(stat))]
    except RulesError:
        return fallback


def _dict(value: object) -> Data | None:
    return value if isinstance(value, dict) else None


def _is_attack(action: Data | None) -> bool:
    return action is not None and action.get("kind") == ActionKind.ATTACK.value


def _declared(participant: Data) -> tuple[Data | None, Data | None]:
    """A participant's declared action and its dice, as stored (either may be missing)."""
    state = _dict(participant.get("round")) or {}
    declaration = _dict(state.get("declaration")) or {}
    return _dict(declaration.get("action")), _dict(declaration.get("dice"))


def _without_aim(action: Data) -> Data:
    """An action as declared, before the Narrator's last-moment change of its Resilience."""
    return {key: value for key, value in action.items() if key not in ("resilience", "attack_kind")}


def upgrade_v1(document: Data) -> Data:
    """A version-1 Conflict as version 2: every stored attack with its kind (see the module)."""
    data = copy.deepcopy(document)
    try:
        fallback = ConflictType(str(data.get("type")))
    except ValueError:
        return data  # not a Conflict we could read; validation says so
    declared_kinds: dict[object, tuple[Data, ConflictType]] = {}
    participants = data.get("participants")
    for participant in participants if isinstance(participants, list) else ():
        if not isinstance(participant, dict):
            continue
        action, dice = _declared(participant)
        if action is not None and _is_attack(action):
            kind = _kind_of_stat((dice or {}).get("stat"), fallback)
            action.setdefault("attack_kind", kind.value)
            declared_kinds[participant.get("id")] = (action, kind)
    pending = _dict(data.get("pending"))
    action = _dict(pending.get("action")) if pending is not None else None
    if pending is not None and action is not None and _is_attack(action):
        declared = declared_kinds.get(pending.get("attacker"))
        same = declared is not None and _without_aim(declared[0]) == _without_aim(action)
        kind = declared[1] if declared is not None and same else fallback
        action.setdefault("attack_kind", kind.value)
    data["schema_version"] = 2
    return data
