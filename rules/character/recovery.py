"""Getting better: healing, Breathers and the daily point (docs/rulings.md §5).

Rulings where the rules are silent:

* Recovery works on what is missing from each Resilience at its plain maximum (no Pewter):
  damage beyond the maximum, left from a fight while Pewter burned, is forgotten first.
* A Long Breather eases the Burden the caller names; with no name it eases the first Grave
  Burden on the sheet, else the first Serious one (the worst that a Breather can touch).
  Naming a Mortal Burden is refused: those need Advancements or strong magic.
* Breathers and the daily point leave an Extras group's defeated members down; ``heal`` on an
  Extra brings members back, as the Narrator's correction.
* A Breather is the Narrator's call and brings back every spent Standing too (§5.12); see
  :func:`breather`. ``short_breather`` and ``long_breather`` are its Resilience halves.
"""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from rules.burdens import Severity
from rules.character.advancement import open_spend
from rules.character.allomancy import Vial
from rules.character.burden_track import STEPS, TO_EASE, find_burden, step_down_burden
from rules.character.damage import check_amount
from rules.character.model import Character
from rules.character.names import CharacterKind, Resilience, Standing, parse_resilience
from rules.character.stats import recover_standing, resilience_lost
from rules.errors import RulesError


class RecoveryResult(BaseModel):
    """The new sheet, the points each Resilience regained, and the Burden eased, if any.

    ``eased_to`` is the Burden's new severity, or None when it is gone.
    """

    model_config = ConfigDict(frozen=True)

    character: Character
    restored: dict[Resilience, int]
    eased_burden: str | None = None
    eased_to: Severity | None = None
    standings: dict[Standing, int] = Field(default_factory=dict)
    """Points of spent Standing a Breather brought back, per Standing (none: absent)."""


class BreatherKind(StrEnum):
    SHORT = "short"
    LONG = "long"

    @property
    def label(self) -> str:
        return f"{self.value.capitalize()} Breather"


def _heal(character: Character, resilience: Resilience, amount: int, burning_pewter: bool) -> Character:
    lost = resilience_lost(character, resilience, burning_pewter)
    damage = character.damage.with_value(resilience, max(0, lost - amount))
    return character.model_copy(update={"damage": damage})


def heal(
    character: Character, resilience: Resilience | str, amount: int, burning_pewter: bool = False
) -> Character:
    """Give back up to ``amount`` points of one Resilience, never past its maximum.

    For an Extras group it brings back up to ``amount`` defeated members.
    """
    resilience = parse_resilience(resilience)
    amount = check_amount(amount, "Healing")
    if character.is_extra:
        return character.model_copy(update={"members_down": max(0, character.members_down - amount)})
    return _heal(character, resilience, amount, burning_pewter)


def _restore(character: Character, amounts: dict[Resilience, int]) -> RecoveryResult:
    restored: dict[Resilience, int] = {}
    for resilience in Resilience:
        before = resilience_lost(character, resilience, False)
        if not character.is_extra:
            character = _heal(character, resilience, amounts.get(resilience, 0), False)
        restored[resilience] = before - resilience_lost(character, resilience, False)
    return RecoveryResult(character=character, restored=restored)


def _half_up(value: int) -> int:
    return -(-value // 2)


def short_breather(character: Character, resting: bool = False) -> RecoveryResult:
    """Half the lost Reputation and Willpower back, rounded up; Health too only when resting."""
    amounts = {
        r: _half_up(resilience_lost(character, r, False))
        for r in Resilience
        if resting or r is not Resilience.HEALTH
    }
    return _restore(character, amounts)


def _burden_to_ease(character: Character, name: str | None) -> str | None:
    if name is not None:
        burden = find_burden(character, name, TO_EASE)
        if burden.severity is Severity.MORTAL:
            raise RulesError(
                f"{burden.name} is Mortal: a Breather cannot ease it, only Advancements or strong magic."
            )
        return burden.name
    for severity in (Severity.GRAVE, Severity.SERIOUS):
        for burden in character.burdens:
            if burden.severity is severity:
                return burden.name
    return None


def vials_back(character: Character) -> Character:
    """Every vial drunk comes back full and pure at a Long Breather (docs/rulings.md §9.8)."""
    props = tuple(
        p.model_copy(update={"implement": p.implement.model_copy(update={"used": False, "impure": False})})
        if isinstance(p.implement, Vial) and p.implement.used
        else p
        for p in character.props
    )
    return character.model_copy(update={"props": props})


def long_breather(character: Character, burden: str | None = None) -> RecoveryResult:
    """Every Resilience back to full, one Burden eased a step (Grave → Serious → gone), and the
    vials drunk back (§9.8)."""
    target = _burden_to_ease(character, burden)
    result = _restore(vials_back(character), {r: resilience_lost(character, r, False) for r in Resilience})
    if target is None:
        return result
    old = find_burden(result.character, target, TO_EASE).severity
    eased = step_down_burden(result.character, target)
    new = None if old is Severity.SERIOUS else STEPS[STEPS.index(old) - 1]
    return result.model_copy(update={"character": eased, "eased_burden": target, "eased_to": new})


def daily_recovery(character: Character) -> RecoveryResult:
    """The natural point a day on each Resilience (docs/rulings.md §5)."""
    return _restore(character, dict.fromkeys(Resilience, 1))


def breather(
    character: Character, kind: BreatherKind, resting: bool = False, burden: str | None = None
) -> RecoveryResult:
    """A Breather the Narrator called (docs/rulings.md §5.10, §5.12): the Resiliences its kind
    restores, a Long one's Burden eased, and every spent Standing back; a Long one also opens a
    Hero's spend of Advancements (§10.1)."""
    if kind is BreatherKind.SHORT and burden is not None:
        raise RulesError("Only a Long Breather eases a Burden.")
    if kind is BreatherKind.LONG:
        result = long_breather(character, burden)
    else:
        result = short_breather(character, resting=resting)
    spent = {s: character.spent.get(s) for s in Standing if character.spent.get(s)}
    recovered = recover_standing(result.character) if spent else result.character
    if kind is BreatherKind.LONG and recovered.kind is CharacterKind.HERO:
        recovered = recovered.model_copy(update={"advancements": open_spend(recovered.advancements)})
    return result.model_copy(update={"character": recovered, "standings": spent})
