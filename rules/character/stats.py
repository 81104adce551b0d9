"""Reading a sheet the way a roll or a Conflict needs it (docs/rulings.md §5, §6).

Ratings are looked up by the name a player types; Resilience maxima are derived from the
stats, with Pewter's boost when the caller says it burns; defeat penalties come back as
``(label, dice)`` pairs that ``rules.pool.build_pool(modifiers=...)`` accepts.

Rulings where the rules are silent:

* Maxima use the Standings as written on the sheet, not as lowered by spending, so rolling
  Resources never shrinks Health.
* A Standing's rating for a roll is what is left after spending: the roll uses the lowered
  Standing.
* Only Allomantic Pewter burns. Saying a character burns Pewter when the sheet has none is an
  error rather than a silent 0, so a Conflict engine cannot misread a sheet.
"""

from pydantic import BaseModel, ConfigDict

from rules.character.lookup import one_of, pick, same_name
from rules.character.model import Character
from rules.character.names import (
    PENALISED_BY,
    RESILIENCE_DEFEAT,
    Attribute,
    PowerType,
    Resilience,
    Standing,
    StatKind,
    parse_resilience,
    parse_standing,
)
from rules.character.parts import Power
from rules.errors import RulesError
from rules.naming import did_you_mean, name_key

DEFEAT_DICE = -2
"""Dice lost on the rolls a defeat penalises (docs/rulings.md §5)."""


def pewter_rating(character: Character) -> int:
    """The character's Allomantic Pewter rating, 0 if they cannot burn it."""
    for power in character.powers:
        if power.type is PowerType.ALLOMANCY and power.name == "Pewter":
            return power.rating
    return 0


def pewter_bonus(character: Character, burning_pewter: bool) -> int:
    """What burning Pewter adds to Physique right now (docs/rulings.md §6); 0 when not burning."""
    if not burning_pewter:
        return 0
    rating = pewter_rating(character)
    if rating == 0:
        raise RulesError(
            f"{character.name} cannot burn Pewter: the sheet has no Allomantic Pewter. "
            "Add the Power with /edit power-add first."
        )
    return rating


def effective_physique(character: Character, burning_pewter: bool = False) -> int:
    """Physique, plus the Pewter rating while Pewter burns (docs/rulings.md §6).

    This can pass 10 (Carrow: 4 + 5 = 9; Thorrow: 6 + 5 = 11); pools clamp it when rolled.
    """
    return character.attributes.physique + pewter_bonus(character, burning_pewter)


def resilience_max(character: Character, resilience: Resilience | str, burning_pewter: bool = False) -> int:
    """Health = Physique + Resources, Reputation = Charm + Influence, Willpower = Wits + Spirit.

    docs/rulings.md §5. Pewter raises Health through Physique while it burns.
    """
    resilience = parse_resilience(resilience)
    if resilience is Resilience.HEALTH:
        return effective_physique(character, burning_pewter) + character.standings.resources
    if resilience is Resilience.REPUTATION:
        return character.attributes.charm + character.standings.influence
    return character.attributes.wits + character.standings.spirit


def resilience_current(
    character: Character, resilience: Resilience | str, burning_pewter: bool = False
) -> int:
    """What is left of a Resilience: its maximum less the damage, never below 0.

    Damage taken while Pewter burned stays when it stops, so Health can drop (even to 0) as the
    boost fades. Extras track members, not Resiliences: theirs read as full while any stand.
    """
    resilience = parse_resilience(resilience)
    top = resilience_max(character, resilience, burning_pewter)
    if character.is_extra:
        return top if character.members_left else 0
    return max(0, top - character.damage.get(resilience))


def resilience_lost(character: Character, resilience: Resilience | str, burning_pewter: bool = False) -> int:
    """Points missing from a Resilience, at most its maximum: what healing can give back."""
    resilience = parse_resilience(resilience)
    top = resilience_max(character, resilience, burning_pewter)
    return top - resilience_current(character, resilience, burning_pewter)


def defeated_resiliences(character: Character, burning_pewter: bool = False) -> list[Resilience]:
    """The Resiliences at 0, each a defeat whose penalty lasts until it is 1 or more (§5)."""
    return [r for r in Resilience if resilience_current(character, r, burning_pewter) == 0]


class StatRef(BaseModel):
    """A rollable rating found on a sheet by name."""

    model_config = ConfigDict(frozen=True)

    kind: StatKind
    label: str
    attribute: Attribute | None = None
    standing: Standing | None = None
    power: Power | None = None


def _power_labels(character: Character) -> list[str]:
    short = [name_key(p.name) for p in character.powers]
    return [p.label if short.count(name_key(p.name)) == 1 else p.full_label for p in character.powers]


def rollable_names(character: Character) -> list[str]:
    """Every name ``rating_for`` accepts in its plainest form, in sheet order (autocomplete).

    A Twinborn's shared metal shows with its type ("Steel (Allomancy)", "Steel (Feruchemy)").
    """
    return [a.label for a in Attribute] + [s.label for s in Standing] + _power_labels(character)


Rating = Attribute | Standing | Power
_STATS: tuple[Attribute | Standing, ...] = (*Attribute, *Standing)
_STAT_KEYS = {stat.value: stat for stat in _STATS}
"""Attributes and Standings by their name keys (each enum value is its label's key)."""
_STAT_FORMS = [(i, stat.label) for i, stat in enumerate(_STATS)]


def _forms(character: Character) -> list[tuple[int, str]]:
    """Every name each rating answers to, by its index in ``_STATS`` then the sheet's Powers:
    a Power also answers to its type, either side of its name."""
    forms = list(_STAT_FORMS)
    for i, power in enumerate(character.powers, start=len(_STATS)):
        forms += [(i, power.name), (i, power.full_label), (i, f"{power.type.label} {power.name}")]
    return forms


def _ref(rating: Rating) -> StatRef:
    if isinstance(rating, Attribute):
        return StatRef(kind=StatKind.ATTRIBUTE, label=rating.label, attribute=rating)
    if isinstance(rating, Standing):
        return StatRef(kind=StatKind.STANDING, label=rating.label, standing=rating)
    return StatRef(kind=StatKind.POWER, label=rating.label, power=rating)


def find_stat(character: Character, name: str) -> StatRef:
    """Resolve a typed name to an Attribute, Standing or Power (``rules.naming.find_named``).

    A Power answers to its name, its name with its type ("Steel (Allomancy)") and its type
    then name ("Allomancy Steel"). Raises :class:`RulesError` listing what the sheet has when
    nothing matches, and the candidates when several do (a Twinborn's "Steel").
    """
    key = name_key(str(name))
    if key in _STAT_KEYS:  # the usual case, answered at once: no Power may take a stat's name
        return _ref(_STAT_KEYS[key])
    ratings: list[Rating] = [*_STATS, *character.powers]
    found = list(dict.fromkeys(i for i, _ in pick(str(name), _forms(character), lambda form: form[1])))
    if len(found) == 1:
        return _ref(ratings[found[0]])
    shown = str(name).strip()[:40] or "that"
    rollable = rollable_names(character)
    if found:
        first = ratings[found[0]].label
        what = first if same_name(str(name), first) else f"'{shown}'"
        raise RulesError(
            f"{character.name} has more than one {what}; say {one_of([rollable[i] for i in found])}."
        )
    hint = did_you_mean(shown, rollable)
    raise RulesError(
        f"{character.name} has no '{shown}' to roll.{hint} The sheet has: {', '.join(rollable)}."
    )


def stat_kind(character: Character, name: str) -> StatKind:
    """Whether a name is an Attribute, Standing or Power on this sheet."""
    return find_stat(character, name).kind


def standing_available(character: Character, standing: Standing | str) -> int:
    """A Standing as lowered by spending: what a roll on it uses (docs/rulings.md §6)."""
    standing = parse_standing(standing)
    return character.standings.get(standing) - character.spent.get(standing)


def rating_for(character: Character, name: str, burning_pewter: bool = False) -> int:
    """The dice a roll on ``name`` starts from: an Attribute, a Standing or a Power (§1, §6).

    Physique includes Pewter while it burns; a Standing is what is left after spending.
    """
    ref = find_stat(character, name)
    if ref.attribute is not None:
        if ref.attribute is Attribute.PHYSIQUE:
            return effective_physique(character, burning_pewter)
        return character.attributes.get(ref.attribute)
    if ref.standing is not None:
        return standing_available(character, ref.standing)
    assert ref.power is not None
    return ref.power.rating


def defeat_penalties(character: Character, name: str, burning_pewter: bool = False) -> list[tuple[str, int]]:
    """Dice a defeat costs on a roll of ``name``, for ``build_pool(modifiers=...)`` (§5).

    0 Health costs 2 dice on Attribute rolls, 0 Reputation on Standing rolls, 0 Willpower on
    Power rolls, until that Resilience is back to 1 or more. Extras have no such penalty: a
    defeated Extra is out of the scene.
    """
    kind = stat_kind(character, name)
    resilience = PENALISED_BY[kind]
    if character.is_extra or resilience_current(character, resilience, burning_pewter) > 0:
        return []
    condition = RESILIENCE_DEFEAT[resilience]
    return [(f"{condition.label} (0 {resilience.label})", DEFEAT_DICE)]


def spend_standing(character: Character, standing: Standing | str) -> Character:
    """Lower a Standing by 1 for a roll on it, which needs it to be 2 or more (docs/rulings.md §6).

    The check is on the Standing before the roll, so a spent Standing can rest at 1.
    """
    standing = parse_standing(standing)
    available = standing_available(character, standing)
    if available < 2:
        raise RulesError(
            f"{character.name}'s {standing.label} is down to {available}; a roll on it needs 2 or more. "
            "It comes back when the Narrator calls a Breather or recovers it for you."
        )
    spent = character.spent.with_value(standing, character.spent.get(standing) + 1)
    return character.model_copy(update={"spent": spent})


def recover_standing(
    character: Character, standing: Standing | str | None = None, amount: int | None = None
) -> Character:
    """Give back spent Standing: ``amount`` points (all when None) of one Standing or of each.

    The rules leave when a Standing recovers to the Narrator; this only does the bookkeeping.
    """
    if amount is not None and not 0 <= amount <= 10:
        raise RulesError("Recover between 0 and 10 points of Standing.")
    targets = list(Standing) if standing is None else [parse_standing(standing)]
    updates = {}
    for target in targets:
        spent = character.spent.get(target)
        updates[target.value] = 0 if amount is None else max(0, spent - amount)
    return character.model_copy(update={"spent": character.spent.model_copy(update=updates)})
