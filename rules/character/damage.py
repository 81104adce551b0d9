"""Taking damage: lost Resilience, wounds and defeat (docs/rulings.md §5).

Rulings where the rules are silent:

* "The Resilience before the damage" is what remains of it just before the hit (with Pewter's
  boost if it burns), not its maximum. Carrow's boosted Health 13 taking 5 is a Serious wound:
  5 is short of 7 (half of 13, rounded up) but reaches 4 (a quarter, rounded up).
* A wound needs at least 1 point of damage. An attack on a Resilience already at 0 changes
  nothing: no damage, no wound, no new defeat.
* A wound is a Burden named "Wounded (Health)" (or Reputation, Willpower); a defeat Burden is
  named for the condition ("Incapacitated"). A name already on the sheet gets a number
  ("Wounded (Health) 2"). If the sheet is full of Burdens the new one is reported as skipped
  rather than refusing the whole attack.
* ``defeat_burden`` is the attacker's choice made up front; it applies only if this attack
  brings the Resilience to 0.
* Extras take no wounds and no defeat Burdens; each point of damage defeats one member of a
  group (a lone Extra is a group of one). Pewter does not change that.
"""

from pydantic import BaseModel, ConfigDict

from rules.burdens import Severity
from rules.character import limits as lim
from rules.character.burden_track import unused_name
from rules.character.model import Character
from rules.character.names import (
    RESILIENCE_DEFEAT,
    DefeatCondition,
    Resilience,
    parse_resilience,
    parse_severity,
)
from rules.character.parts import Burden
from rules.character.stats import resilience_current
from rules.errors import RulesError

MAX_ATTACK_DAMAGE = 99


class DamageResult(BaseModel):
    """What one attack did: the new sheet and everything the bot should announce.

    ``before``/``after`` are the Resilience's remaining value (members left, for Extras). Built
    only here, from a checked sheet and figures worked out from it, so without validating: a
    sheet in a field is checked again whenever a model holding it is validated.
    """

    model_config = ConfigDict(frozen=True)

    character: Character
    resilience: Resilience
    amount: int
    taken: int
    before: int
    after: int
    wound: Severity | None = None
    defeated: bool = False
    already_defeated: bool = False
    condition: DefeatCondition | None = None
    burdens_added: tuple[Burden, ...] = ()
    burdens_skipped: tuple[Burden, ...] = ()
    members_lost: int = 0


def check_amount(amount: int, what: str = "Damage") -> int:
    """Refuse negative, fractional or absurd amounts with a plain message."""
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_ATTACK_DAMAGE:
        raise RulesError(f"{what} must be a whole number from 0 to {MAX_ATTACK_DAMAGE}.")
    return amount


def _ceil_div(value: int, by: int) -> int:
    return -(-value // by)


def wound_severity(before: int, damage: int) -> Severity | None:
    """The wound a hit leaves, judged on the Resilience just before it (docs/rulings.md §5).

    At least half of it (rounded up) is Grave; otherwise at least a quarter (rounded up) is
    Serious; less leaves no wound.
    """
    if damage <= 0 or before <= 0:
        return None
    if damage >= _ceil_div(before, 2):
        return Severity.GRAVE
    if damage >= _ceil_div(before, 4):
        return Severity.SERIOUS
    return None


def _add_burdens(
    burdens: tuple[Burden, ...], wanted: list[tuple[str, Severity]]
) -> tuple[tuple[Burden, ...], list[Burden], list[Burden]]:
    """A sheet's ``burdens`` with the wanted ones added while there is room, what was added and
    what was skipped for want of room."""
    added: list[Burden] = []
    skipped: list[Burden] = []
    for base, severity in wanted:
        burden = _burden(unused_name(burdens, base), severity)
        if len(burdens) >= lim.BURDENS_MAX:
            skipped.append(burden)
            continue
        burdens = (*burdens, burden)
        added.append(burden)
    return burdens, added, skipped


_BURDENS: dict[tuple[str, Severity], Burden] = {}
"""Wound and defeat Burdens already made, by name and severity: the few names a hit gives
("Wounded (Health)", "Incapacitated", numbered when taken) are checked once, not on every hit
(a Burden is frozen, and the same name and severity always check to the same Burden)."""


def _burden(name: str, severity: Severity) -> Burden:
    made = _BURDENS.get((name, severity))
    if made is None:
        if len(_BURDENS) >= 256:
            _BURDENS.clear()
        made = _BURDENS[(name, severity)] = Burden(name=name, severity=severity)
    return made


def _damage_extras(character: Character, resilience: Resilience, amount: int) -> DamageResult:
    before = character.members_left
    lost = min(amount, before)
    after = before - lost
    defeated = before > 0 and after == 0
    if lost:
        character = character.model_copy(update={"members_down": character.members_down + lost})
    return DamageResult.model_construct(
        character=character,
        resilience=resilience,
        amount=amount,
        taken=lost,
        before=before,
        after=after,
        defeated=defeated,
        already_defeated=before == 0,
        condition=RESILIENCE_DEFEAT[resilience] if defeated else None,
        members_lost=lost,
    )


def apply_damage(
    character: Character,
    resilience: Resilience | str,
    amount: int,
    defeat_burden: Severity | str | None = None,
    burning_pewter: bool | None = None,
) -> DamageResult:
    """Deal ``amount`` damage to one Resilience (docs/rulings.md §5).

    The Resilience never drops below 0. One wound per attack, judged on the value before the
    hit. Reaching 0 defeats the character, and ``defeat_burden`` (Grave or Mortal, or None)
    is then left too. ``burning_pewter`` raises Health by the Pewter rating for this hit (None:
    as the sheet says it burns); the damage stays when the Pewter stops. A hit that takes
    nothing gives back the very sheet it was given, so a caller sees at once nothing changed.
    """
    resilience = parse_resilience(resilience)
    amount = check_amount(amount)
    chosen = None if defeat_burden is None else parse_severity(defeat_burden)
    if chosen is Severity.SERIOUS:
        raise RulesError("A defeat leaves a Grave or Mortal Burden, or none.")
    if character.is_extra:
        return _damage_extras(character, resilience, amount)

    before = resilience_current(character, resilience, burning_pewter)
    taken = min(amount, before)
    after = before - taken
    wound = wound_severity(before, taken)
    defeated = before > 0 and after == 0
    condition = RESILIENCE_DEFEAT[resilience] if defeated else None
    wanted: list[tuple[str, Severity]] = []
    if wound is not None:
        wanted.append((f"Wounded ({resilience.label})", wound))
    if condition is not None and chosen is not None:
        wanted.append((condition.label, chosen))
    burdens, added, skipped = _add_burdens(character.burdens, wanted)
    if taken or added:
        damage = character.damage.with_value(resilience, character.damage.get(resilience) + taken)
        character = character.model_copy(update={"damage": damage, "burdens": burdens})
    return DamageResult.model_construct(
        character=character,
        resilience=resilience,
        amount=amount,
        taken=taken,
        before=before,
        after=after,
        wound=wound,
        defeated=defeated,
        already_defeated=before == 0,
        condition=condition,
        burdens_added=tuple(added),
        burdens_skipped=tuple(skipped),
    )
