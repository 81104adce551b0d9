"""What a new Hero may be made of: the point splits, the Power templates and the Props line
(docs/rulings.md §6.3, §6.4, §6.10).

The guided builder offers only what this module lists, so a wrong sheet cannot be made there:
the splits are exactly the ratings the Hero-build check (``build_check``) accepts for a label,
read from its own numbers (13 / 11 / 9 points, the caps 6 / 5 / 4 and 8 / 6 / 4, Attributes
2–6, Standings from 2), and the Powers are whole templates.
"""

import re
from enum import StrEnum
from itertools import product

from rules.character.build_check import (
    ATTRIBUTE_CAP,
    HERO_ATTRIBUTE_MAX,
    HERO_ATTRIBUTE_MIN,
    POINTS,
    STANDING_CAP,
)
from rules.character.checked import validated
from rules.character.limits import PROPS_MAX, STANDING_MIN
from rules.character.names import BASIC_METALS, METALS, Emphasis, PowerType, canonical_metal
from rules.character.parts import Power, Prop
from rules.character.stunts import stunts_for
from rules.errors import RulesError
from rules.naming import did_you_mean

Split = tuple[int, int, int]
"""Three ratings in sheet order: Physique, Charm, Wits, or Resources, Influence, Spirit."""


def splits(points: int, low: int, cap: int) -> list[Split]:
    """Every way to share ``points`` among three ratings of ``low``..``cap``, highest first."""
    values = range(cap, low - 1, -1)
    return [(a, b, c) for a, b, c in product(values, values, values) if a + b + c == points]


def attribute_splits(emphasis: Emphasis) -> list[Split]:
    """The Attributes a new Hero may have under ``emphasis`` (§6.3): strong 18, average 12, weak 7."""
    return splits(POINTS[emphasis], HERO_ATTRIBUTE_MIN, min(ATTRIBUTE_CAP[emphasis], HERO_ATTRIBUTE_MAX))


def standing_splits(emphasis: Emphasis) -> list[Split]:
    """The Standings a new Hero may have under ``emphasis`` (§6.3): strong 33, average 18, weak 7."""
    return splits(POINTS[emphasis], STANDING_MIN, STANDING_CAP[emphasis])


class PowerTemplate(StrEnum):
    """The Powers a new Hero starts with (docs/rulings.md §6.4, §6.10)."""

    MISTBORN = "mistborn"
    MISTING = "misting"
    KEEPER = "keeper"
    KANDRA = "kandra"
    NONE = "none"

    @property
    def label(self) -> str:
        return "No Powers" if self is PowerTemplate.NONE else self.value.capitalize()


MISTBORN_RATING = 4
MISTING_RATING = 5
KEEPER_RATING = 3
MIMICRY_RATING = 5
"""A kandra starts with Mimicry 5 and one Blessing (docs/rulings.md §9.6)."""
BLESSING_GIVES = {
    "awareness": "+2 dice on the senses, +2 to declare by",
    "potency": "+2 Physique (to 8)",
    "presence": "+2 Wits (to 8)",
    "stability": "+5 Willpower, beyond Brass",
}
"""What each Blessing gives, in a line (§9.6; the numbers are ``rules.character.power_stats``')."""
TRAITS_WITHOUT_POWERS = 2
"""A Hero with no Powers takes this many more Traits instead (§6.10)."""
MISTING_METALS = tuple(m for m in METALS if m not in ("Malatium", "Lerasium"))
"""A Misting burns one metal: any but Malatium and Lerasium, which make no Misting."""


def misting_stunts(metal: str) -> tuple[str, ...]:
    """The catalogued Stunts a new Misting of ``metal`` may start with (docs/rulings.md §9.7):
    a Misting starts with one, of its metal; none for a metal the catalogue has none of."""
    return tuple(s.name for s in stunts_for(metal))


def check_misting_stunt(metal: str, stunt: str) -> str:
    """``stunt`` as the catalogue spells it, when a new Misting of ``metal`` may start with it."""
    offered = misting_stunts(metal)
    found = next((s for s in offered if s.casefold() == stunt.strip().casefold()), None)
    if found is None:
        choices = f"one of {', '.join(offered)}" if offered else "none: the catalogue has no Stunt of it"
        raise RulesError(f"A {metal} Misting starts with {choices}.")
    return found


def template_powers(
    template: PowerTemplate, metal: str | None = None, stunt: str | None = None
) -> tuple[Power, ...]:
    """The Powers of a template: every basic metal at 4 (Mistborn) or as Feruchemy at 3
    (Keeper), one metal at 5 (Misting of ``metal``, with its starting ``stunt`` when chosen,
    §9.7), Mimicry at 5 (kandra, whose Blessing is the sheet's Hemalurgy, §9.6), or nothing."""
    if stunt is not None and template is not PowerTemplate.MISTING:
        raise RulesError("Only a Misting starts with a Stunt; others buy them with Advancements.")
    if template is PowerTemplate.MISTBORN:
        return tuple(Power(type=PowerType.ALLOMANCY, name=m, rating=MISTBORN_RATING) for m in BASIC_METALS)
    if template is PowerTemplate.KEEPER:
        return tuple(Power(type=PowerType.FERUCHEMY, name=m, rating=KEEPER_RATING) for m in BASIC_METALS)
    if template is PowerTemplate.MISTING:
        found = canonical_metal(metal or "")
        if found not in MISTING_METALS:
            hint = did_you_mean(metal or "", MISTING_METALS)
            raise RulesError(f"A Misting burns one of {', '.join(MISTING_METALS)}.{hint}")
        stunts = (check_misting_stunt(found, stunt),) if stunt is not None else ()
        return (Power(type=PowerType.ALLOMANCY, name=found, rating=MISTING_RATING, stunts=stunts),)
    if template is PowerTemplate.KANDRA:
        return (Power(type=PowerType.KANDRA, name="Mimicry", rating=MIMICRY_RATING),)
    return ()


KEEPER_MINDS = ("Pewter", "Steel", "Tin")
"""A Keeper's three average metalminds, of different metals (docs/rulings.md §9.8): we chose the
three whose taps give dice; they are swapped at a Long Breather like any Prop."""


def _implement(name: str, implement: dict[str, object]) -> Prop:
    return validated(Prop, {"name": name, "implement": implement})


def template_implements(template: PowerTemplate, metal: str | None = None) -> tuple[Prop, ...]:
    """The implements a Power template starts with (docs/rulings.md §9.8): a Misting's vial of
    its metal (3 charges), a Mistborn's vial (1 of each basic metal), a Keeper's three average
    metalminds, empty; they come with the template, over the Props Resources allow."""
    if template is PowerTemplate.MISTBORN:
        return (_implement("Mistborn vial", {"kind": "vial", "metals": BASIC_METALS, "charges": 1}),)
    if template is PowerTemplate.MISTING:
        (power,) = template_powers(template, metal)
        return (_implement(f"{power.name} vial", {"kind": "vial", "metals": (power.name,), "charges": 3}),)
    if template is PowerTemplate.KEEPER:
        return tuple(
            _implement(f"{m}mind", {"kind": "metalmind", "metal": m, "size": "average"}) for m in KEEPER_MINDS
        )
    return ()


_BONUS = re.compile(r"\s*\((?P<inside>[^()]*)\)\s*$")
_PART = re.compile(r"^(?P<what>weapon|armou?r)\s*\+?\s*(?P<value>\d{1,2})$", re.IGNORECASE)
PROPS_HELP = "One Prop per line; a bonus in brackets: Dueling cane (weapon 1), Mail (armour 2)."


def read_prop(line: str) -> Prop:
    """One typed Prop: a name, then optionally its bonuses in brackets ("Sword (weapon 2)",
    "Breastplate (armour 3)", "Shield (weapon 1, armor 1)"); brackets of other words are
    part of the name."""
    text = line.strip()
    bonuses: dict[str, int] = {}
    if (found := _BONUS.search(text)) is not None:
        parts = [p.strip() for p in found["inside"].split(",")]
        matches = [_PART.match(p) for p in parts]
        if all(matches):
            for match in matches:
                assert match is not None
                key = "weapon" if match["what"].lower() == "weapon" else "armour"
                bonuses[key] = int(match["value"])
            text = text[: found.start()]
    return validated(Prop, {"name": text, **bonuses})


def read_props(text: str, most: int = PROPS_MAX) -> tuple[Prop, ...]:
    """The Props typed one per line (blank lines skipped), at most ``most`` of them."""
    lines = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    if len(lines) > most:
        raise RulesError(f"That is {len(lines)} Props; a new Hero has at most {most}, their Resources.")
    return tuple(read_prop(line) for line in lines)


def prop_line(prop: Prop) -> str:
    """A Prop as ``read_prop`` reads it back: the name, then its bonuses in brackets."""
    bonuses = [f"weapon {prop.weapon}" if prop.weapon is not None else ""]
    bonuses.append(f"armour {prop.armour}" if prop.armour is not None else "")
    shown = ", ".join(b for b in bonuses if b)
    return f"{prop.name} ({shown})" if shown else prop.name
