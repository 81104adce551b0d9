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

from rules.character.limits import DAMAGE_MAX
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
from rules.character.power_stats import (
    PHYSIQUE_MAX,
    allomantic_rating,
    attribute_value,
    granted,
    physique_parts,
    power_parts,
    resilience_shift,
    sheet_burning,
    sheet_powers,
    spike_price,
    standing_value,
    wits_parts,
)
from rules.errors import RulesError
from rules.memo import IdentityMemo
from rules.naming import did_you_mean, name_key

DEFEAT_DICE = -2
"""Dice lost on the rolls a defeat penalises (docs/rulings.md §5)."""


Burning = bool | None
"""Whether Pewter burns for a reading: True or False as a Conflict says, None as the sheet says
(``rules.character.power_stats.sheet_burning``)."""


def burning_now(character: Character, burning_pewter: Burning = None) -> frozenset[str]:
    """The metals burning for a reading: the sheet's, with Pewter as ``burning_pewter`` says."""
    metals = sheet_burning(character)
    if burning_pewter is None:
        return metals
    return metals | {"Pewter"} if burning_pewter else metals - {"Pewter"}


def pewter_rating(character: Character) -> int:
    """The character's Allomantic Pewter rating (with the spikes that stole it), 0 if they
    cannot burn it."""
    return allomantic_rating(character, "Pewter")


def pewter_bonus(character: Character, burning_pewter: Burning = None) -> int:
    """What burning Pewter adds to Physique right now (docs/rulings.md §6, §9.3): its rating,
    +1 flared, halved while impure; 0 when not burning."""
    if "Pewter" not in burning_now(character, burning_pewter):
        return 0
    rating = pewter_rating(character)
    if rating == 0:
        if burning_pewter is None:
            return 0  # the sheet lost its Pewter while it burned: nothing left to add
        raise RulesError(
            f"{character.name} cannot burn Pewter: the sheet has no Allomantic Pewter. "
            "Add the Power with /edit power-add first."
        )
    return allomantic_rating(character, "Pewter", flared="Pewter" in character.allomancy.flared)


def effective_physique(character: Character, burning_pewter: Burning = None) -> int:
    """Physique as Powers leave it, plus Pewter's boost while it burns (docs/rulings.md §6, §9).

    This can pass 10 (Carrow: 4 + 5 = 9; Thorrow: 6 + 5 = 11); pools clamp it when rolled. It
    stops at 20, the largest rating a pool starts from.
    """
    burning = burning_now(character, burning_pewter)
    base = attribute_value(character, Attribute.PHYSIQUE, burning)
    return min(PHYSIQUE_MAX, base + pewter_bonus(character, burning_pewter))


def resilience_max(character: Character, resilience: Resilience | str, burning_pewter: Burning = None) -> int:
    """Health = Physique + Resources, Reputation = Charm + Influence, Willpower = Wits + Spirit.

    docs/rulings.md §5. Pewter raises Health through Physique while it burns; spikes, Blessings,
    Gold and Savants shift the rest (``power_stats``, §9); never past ``DAMAGE_MAX``.
    """
    return _top(character, parse_resilience(resilience), burning_pewter)


_MAXIMA: IdentityMemo[Character, int] = IdentityMemo(1024)
"""Each sheet's maxima, worked out once: one move reads them for its engine, its reply, its
journal and its board, and the next move mostly reads the same sheets (``rules.memo``)."""


def _top(character: Character, resilience: Resilience, burning_pewter: Burning) -> int:
    return _MAXIMA.get(
        character, (resilience, burning_pewter), lambda: _maximum(character, resilience, burning_pewter)
    )


def _maximum(character: Character, resilience: Resilience, burning_pewter: Burning) -> int:
    burning = burning_now(character, burning_pewter)
    if resilience is Resilience.HEALTH:
        top = effective_physique(character, burning_pewter) + character.standings.resources
    elif resilience is Resilience.REPUTATION:
        top = attribute_value(character, Attribute.CHARM, burning) + character.standings.influence
    else:
        wits = attribute_value(character, Attribute.WITS, burning)
        top = wits + standing_value(character, Standing.SPIRIT)
    return max(0, min(DAMAGE_MAX, top + resilience_shift(character, resilience, burning)))


def resilience_current(
    character: Character, resilience: Resilience | str, burning_pewter: Burning = None
) -> int:
    """What is left of a Resilience: its maximum less the damage, never below 0.

    Damage taken while Pewter burned stays when it stops, so Health can drop (even to 0) as the
    boost fades. Extras track members, not Resiliences: theirs read as full while any stand.
    """
    resilience = parse_resilience(resilience)
    top = _top(character, resilience, burning_pewter)
    if character.is_extra:
        return top if character.members_left else 0
    return max(0, top - character.damage.get(resilience))


def resilience_lost(
    character: Character, resilience: Resilience | str, burning_pewter: Burning = None
) -> int:
    """Points missing from a Resilience, at most its maximum: what healing can give back."""
    resilience = parse_resilience(resilience)
    top = resilience_max(character, resilience, burning_pewter)
    return top - resilience_current(character, resilience, burning_pewter)


def defeated_resiliences(character: Character, burning_pewter: Burning = None) -> list[Resilience]:
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
    powers = sheet_powers(character)
    short = [name_key(p.name) for p in powers]
    return [p.label if short.count(name_key(p.name)) == 1 else p.full_label for p in powers]


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
    for i, power in enumerate(sheet_powers(character), start=len(_STATS)):
        forms += [(i, power.name), (i, power.full_label), (i, f"{power.type.label} {power.name}")]
    return forms


def _ref(rating: Rating) -> StatRef:
    if isinstance(rating, Attribute | Standing):
        return _STAT_REFS[rating]
    return StatRef(kind=StatKind.POWER, label=rating.label, power=rating)


_STAT_REFS: dict[Attribute | Standing, StatRef] = {
    **{a: StatRef(kind=StatKind.ATTRIBUTE, label=a.label, attribute=a) for a in Attribute},
    **{s: StatRef(kind=StatKind.STANDING, label=s.label, standing=s) for s in Standing},
}
"""The six stats' references, made once (frozen, so every sheet shares them)."""


def find_stat(character: Character, name: str) -> StatRef:
    """Resolve a typed name to an Attribute, Standing or Power (``rules.naming.find_named``).

    A Power answers to its name, its name with its type ("Steel (Allomancy)") and its type
    then name ("Allomancy Steel"). Raises :class:`RulesError` listing what the sheet has when
    nothing matches, and the candidates when several do (a Twinborn's "Steel").
    """
    key = name_key(str(name))
    if key in _STAT_KEYS:  # the usual case, answered at once: no Power may take a stat's name
        return _ref(_STAT_KEYS[key])
    ratings: list[Rating] = [*_STATS, *sheet_powers(character)]
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
    """A Standing as lowered by spending and by spikes: what a roll on it uses (§6.7, §9.5)."""
    standing = parse_standing(standing)
    return max(0, standing_value(character, standing) - character.spent.get(standing))


def _allomantic_pewter(character: Character) -> Power | None:
    return next(
        (p for p in sheet_powers(character) if p.type is PowerType.ALLOMANCY and p.name == "Pewter"), None
    )


class RatingParts(BaseModel):
    """The rating a roll starts from and what Powers add to it, each named so the table can
    follow the sum ("Physique 4 + Pewter 5 + Flared 1", docs/rulings.md §9)."""

    model_config = ConfigDict(frozen=True)

    label: str
    base: int
    parts: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        return self.base + sum(dice for _, dice in self.parts)


def rating_parts(character: Character, name: str, burning_pewter: Burning = None) -> RatingParts:
    """``name``'s rating as written (a Standing as spent) and what Powers do to it now."""
    ref = find_stat(character, name)
    burning = burning_now(character, burning_pewter)
    parts: list[tuple[str, int]] = []
    if ref.attribute is Attribute.PHYSIQUE:
        base = character.attributes.physique
        parts = physique_parts(character, burning)
        if pewter_bonus(character, burning_pewter):
            pewter = _allomantic_pewter(character)
            assert pewter is not None  # pewter_bonus refuses a sheet without it
            parts += [("Pewter", pewter.rating), *power_parts(character, pewter, granted(character, pewter))]
        over = base + sum(d for _, d in parts) - PHYSIQUE_MAX
        if over > 0:
            parts.append(("Past 20", -over))
    elif ref.attribute is not None:
        base = character.attributes.get(ref.attribute)
        parts = (
            wits_parts(character)
            if ref.attribute is Attribute.WITS
            else spike_price(character, ref.attribute, base)
        )
    elif ref.standing is not None:
        base = character.standings.get(ref.standing) - character.spent.get(ref.standing)
        parts = spike_price(character, ref.standing, base)
    else:
        assert ref.power is not None
        base, parts = ref.power.rating, power_parts(character, ref.power, granted(character, ref.power))
    return RatingParts(label=ref.label, base=base, parts=tuple(parts))


def rating_for(character: Character, name: str, burning_pewter: Burning = None) -> int:
    """The dice a roll on ``name`` starts from: an Attribute, a Standing or a Power (§1, §6),
    as Powers leave it (§9): Physique with Pewter while it burns, a Standing as spent."""
    return rating_parts(character, name, burning_pewter).total


def defeat_penalties(
    character: Character, name: str, burning_pewter: Burning = None
) -> list[tuple[str, int]]:
    """Dice a defeat costs on a roll of ``name``, for ``build_pool(modifiers=...)`` (§5).

    0 Health costs 2 dice on Attribute rolls, 0 Reputation on Standing rolls, 0 Willpower on
    Power rolls, until that Resilience is back to 1 or more. Extras have no such penalty: a
    defeated Extra is out of the scene.
    """
    kind = stat_kind(character, name)
    resilience = PENALISED_BY[kind]
    if character.is_extra or resilience_current(character, resilience, burning_pewter) > 0:
        return []
    if resilience is Resilience.HEALTH and "Tin" in character.allomancy.flared:
        return []  # flared Tin: 0 Health costs no dice (docs/rulings.md §9.3)
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
