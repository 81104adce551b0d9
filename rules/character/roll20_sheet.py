"""Roll20's "Mistborn" sheet onto ours: every field maps, or is listed back (docs/rulings.md §6.12).

The sheet's fields (``Mistborn/Mistborn.html`` in Roll20's public sheet repository) and where
each goes:

* ``character_name``, ``concept``, ``cType`` (1 Hero, 2 Extra, 3 Villain): name, concept, kind;
* ``physique``, ``charm``, ``wits``; ``resources``, ``influence``, ``spirit`` and their
  ``…Spent``: Attributes, Standings, spent Standings;
* ``health``, ``reputation``, ``willpower``: checked against the maxima the bot works out
  (Physique + Resources, …); ``…Damage``: damage (an Extras group counts members instead);
* ``drive``, ``profession``, ``specialty``, ``feature``, ``personality``: the named Traits;
* ``repeating_TraitsBurdens`` (``TBLabel``, ``TBDescription``): a row labelled as a Burden
  ("Burden", "Grave Burden", a severity) is a Burden; one labelled with a named Trait fills it;
  any other is an extra Trait;
* ``destiny``, ``tragedy``: Destiny and Tragedy (not on Extras);
* ``repeating_Powers`` (``power``, ``type`` 1–4, ``rating``, ``stunts``): Powers, Stunts split
  at commas and semicolons; ``charges``: an Allomantic metal's reserve, or a Feruchemical
  metal's metalmind (``rules.character.roll20_charges``);
* ``repeating_equipment`` (``item``, ``rules``, ``prop``): an item ticked as a Prop is a Prop
  (a "weapon N" or "armour N" in its rules is its bonus); other items go to the notes;
* ``secrets``, ``crew``, ``cause``, ``target``, ``method``, ``race``, ``sex``, ``age``,
  ``height``, ``weight``, ``extraType``, ``description``, ``affiliation``: the notes, one line each;
* ``advance1``–``advance20``: a Hero's Advancements held, one per box ticked (docs/rulings.md
  §10.1); a Villain's or Extra's are listed back;
* ``action_dice``, ``defence_dice`` (a Conflict's dice): no place on our sheet, listed back.

Anything else — a value out of range, text too long for its place, an unknown field — is listed
back to the user with the reason, never dropped unsaid (``rules.character.roll20_left_out``).
"""

import re

from pydantic import BaseModel, ConfigDict

from rules.burdens import Severity
from rules.character import limits as lim
from rules.character.advancement import HOLD_MAX, Advancements
from rules.character.checked import make_character, validated
from rules.character.draft import TRAIT_SLOTS
from rules.character.model import Character
from rules.character.names import METALS, Attribute, CharacterKind, PowerType, Standing, canonical_metal
from rules.character.parts import Burden, Power, Prop, lowest_rating, rating_refusal
from rules.character.roll20 import Roll20File, shown
from rules.character.roll20_charges import charges_refusal, kept_charges
from rules.character.roll20_left_out import LeftOut
from rules.errors import RulesError
from rules.naming import name_key

KINDS = {"1": CharacterKind.HERO, "2": CharacterKind.EXTRA, "3": CharacterKind.VILLAIN}
TYPES = {"1": PowerType.ALLOMANCY, "2": PowerType.FERUCHEMY, "3": PowerType.HEMALURGY, "4": PowerType.OTHER}
TYPES |= {t.value: t for t in PowerType}
ATTRIBUTES = {a.value: a for a in Attribute}
STANDINGS = {s.value: s for s in Standing}
SCORES = {
    "health": (Attribute.PHYSIQUE, Standing.RESOURCES),
    "reputation": (Attribute.CHARM, Standing.INFLUENCE),
}
SCORES["willpower"] = (Attribute.WITS, Standing.SPIRIT)
NOTE_FIELDS = {
    "extratype": "Type",
    "description": "Description",
    "affiliation": "Affiliation",
    "crew": "Crew",
    "cause": "Cause",
    "target": "Target",
    "method": "Method",
    "race": "Race",
    "sex": "Sex",
    "age": "Age",
    "height": "Height",
    "weight": "Weight",
    "secrets": "Secrets known",
}
DICE_FIELDS = {"action_dice": "Action Dice", "defence_dice": "Defense Dice"}
ADVANCE = re.compile(r"^advance\d{1,2}$")
SECTIONS = {
    "traitsburdens": {"tblabel", "tbdescription"},
    "powers": {"power", "type", "rating", "charges", "stunts"},
    "equipment": {"item", "rules", "prop"},
}
TICKED = {"on", "1", "true", "yes"}
GENERIC_TRAIT = {"", "trait", "traits"}
_BONUS = re.compile(r"\b(?P<what>weapon|damage|armou?r)\s*[:+]?\s*\+?(?P<value>\d{1,2})\b", re.IGNORECASE)
_NUMBER = re.compile(r"^[+-]?\d{1,6}(\.0+)?$")


class Roll20Import(BaseModel):
    """The sheet read from Roll20, and what could not go on it, one sentence each."""

    model_config = ConfigDict(frozen=True)

    character: Character
    left_out: tuple[str, ...] = ()


def number(text: str) -> int | None:
    return int(float(text)) if _NUMBER.match(text.strip()) else None


def flat(text: str) -> str:
    """One line: Roll20's text areas may hold line breaks our one-line fields refuse."""
    return " ".join(text.split())


class _Mapper(LeftOut):
    """Walks the sheet in its own order, building our sheet's parts and the list left out."""

    def __init__(self, read: Roll20File) -> None:
        super().__init__()
        self.read = read
        self.used: set[str] = set()
        self.notes: list[str] = []
        self.charges: list[tuple[Power, int]] = []

    def take(self, key: str) -> str:
        self.used.add(key)
        return self.read.fields.get(key, "")

    def rating(self, key: str, label: str, low: int, high: int, default: int) -> int:
        text = self.take(key)
        value = number(text) if text else default
        if value is None or not low <= value <= high:
            self.leave(f"{label} {shown(text)}: not a rating from {low} to {high}, so it is {default}")
            return default
        return value

    def name(self, given: str | None) -> str:
        on_sheet = flat(self.take("character_name"))
        name = given or self.read.name or on_sheet
        if not name:
            raise RulesError("That Roll20 character has no name: give it one with the name option.")
        if on_sheet and name_key(on_sheet) != name_key(name):
            self.leave(f"character_name {shown(on_sheet)}: imported as {shown(name)}")
        return name

    def kind(self) -> CharacterKind:
        text = self.take("ctype")
        if text and text not in KINDS:
            self.leave(f"cType {shown(text)}: not 1, 2 or 3, so a Hero")
        return KINDS.get(text, CharacterKind.HERO)

    def spent(self, standings: dict[str, int]) -> dict[str, int]:
        spent: dict[str, int] = {}
        for key, standing in STANDINGS.items():
            most = standings[key] - 1
            spent[key] = self.rating(f"{key}spent", f"{standing.label} spent", 0, most, 0)
        return spent

    def damage(self, kind: CharacterKind) -> dict[str, int]:
        damage: dict[str, int] = {}
        for key in SCORES:
            if kind is CharacterKind.EXTRA:
                text = self.take(f"{key}damage")
                if text and text != "0":
                    self.leave(
                        f"{key.capitalize()} damage {shown(text)}: an Extras group counts members down"
                    )
                continue
            damage[key] = self.rating(f"{key}damage", f"{key.capitalize()} damage", 0, lim.DAMAGE_MAX, 0)
        return damage

    def check_scores(self, attributes: dict[str, int], standings: dict[str, int]) -> None:
        for key, (attribute, standing) in SCORES.items():
            text = self.take(key)
            expected = attributes[attribute.value] + standings[standing.value]
            if text and number(text) != expected:
                self.leave(
                    f"{key.capitalize()} {shown(text)}: the bot works it out as {attribute.label} + "
                    f"{standing.label} = {expected}"
                )

    def traits(self, burdens: list[Burden]) -> dict[str, object]:
        traits: dict[str, object] = {}
        for slot in TRAIT_SLOTS:
            if (text := flat(self.take(slot))) and (
                kept := self.fits(text, slot.capitalize(), lim.TRAIT_MAX)
            ):
                traits[slot] = kept
        extras: list[str] = []
        for row in self.rows("traitsburdens"):
            label, text = flat(row.get("tblabel", "")), flat(row.get("tbdescription", ""))
            key = label.lower()
            severity = next((s for s in Severity if s.value in key), None)
            if severity is not None or "burden" in key:
                self.burden(burdens, text or label, severity or Severity.SERIOUS)
            elif key in TRAIT_SLOTS and text and key not in traits:
                if (kept := self.fits(text, label.capitalize(), lim.TRAIT_MAX)) is not None:
                    traits[key] = kept
            elif extra := text if key in GENERIC_TRAIT else f"{label}: {text}" if text else label:
                if len(extras) >= lim.EXTRA_TRAITS_MAX:
                    self.leave(
                        f"Trait {shown(extra)}: a sheet holds at most {lim.EXTRA_TRAITS_MAX} extra Traits"
                    )
                elif (kept := self.fits(extra, "Trait", lim.TRAIT_MAX)) is not None:
                    extras.append(kept)
        traits["extras"] = tuple(extras)
        return traits

    def burden(self, burdens: list[Burden], name: str, severity: Severity) -> None:
        if len(burdens) >= lim.BURDENS_MAX:
            self.leave(f"Burden {shown(name)}: a sheet holds at most {lim.BURDENS_MAX} Burdens")
        elif any(name_key(b.name) == name_key(name) for b in burdens):
            self.leave(f"Burden {shown(name)}: listed twice")
        elif (kept := self.fits(name, "Burden", lim.BURDEN_NAME_MAX)) is not None:
            burdens.append(Burden(name=kept, severity=severity))

    def story(self, kind: CharacterKind) -> dict[str, str]:
        story: dict[str, str] = {}
        for key, limit in (("destiny", lim.DESTINY_MAX), ("tragedy", lim.TRAGEDY_MAX)):
            text = flat(self.take(key))
            if text and kind is CharacterKind.EXTRA:
                self.leave(f"{key.capitalize()} {shown(text)}: Extras have no {key.capitalize()}")
            elif text and (kept := self.fits(text, key.capitalize(), limit)) is not None:
                story[key] = kept
        return story

    def rows(self, section: str) -> list[dict[str, str]]:
        found = self.read.rows.get(section, [])
        for row in found:
            for field in sorted(set(row) - SECTIONS[section]):
                self.leave(f"repeating_{section} {field} {shown(row[field])}: not a field of that section")
        return found

    def powers(self) -> list[Power]:
        powers: list[Power] = []
        stunts = 0
        for row in self.rows("powers"):
            name, kind_text = flat(row.get("power", "")), row.get("type", "").strip().lower()
            charges = row.get("charges", "").strip()
            if not name:
                continue
            kind = TYPES.get(kind_text) if kind_text else None
            if kind is None and kind_text:
                self.leave(f"Power {shown(name)}: type {shown(kind_text)} is not one of 1 to 4")
                continue
            kind = kind or (PowerType.ALLOMANCY if canonical_metal(name) else PowerType.OTHER)
            if kind.uses_metal and canonical_metal(name) is None:
                metal = next((m for m in METALS if re.search(rf"\b{m}\b", name, re.IGNORECASE)), None)
                if metal is None:
                    self.leave(f"Power {shown(name)}: {kind.label} needs a metal such as Steel")
                    continue
                self.leave(f"Power {shown(name)}: kept as {metal} ({kind.label})")
                name = metal
            found = [s for s in (flat(s) for s in re.split(r"[;,\n]", row.get("stunts", ""))) if s]
            room = max(0, lim.STUNTS_MAX - stunts)
            self.leave_each(
                found[room:],
                lambda stunt: f"Stunt {shown(stunt)}: a sheet holds at most {lim.STUNTS_MAX} Stunts",
            )
            power = self.power(powers, kind, name, row.get("rating", ""), found[:room])
            stunts += len(power.stunts) if power else 0
            if power is not None and charges:
                self.charge(power, charges)
        return powers

    def charge(self, power: Power, text: str) -> None:
        if (why := charges_refusal(power, number(text))) is not None:
            self.leave(f"Charges of {shown(power.name)} {shown(text)}: {why}")
        else:
            self.charges.append((power, number(text) or 0))

    def power(
        self, powers: list[Power], kind: PowerType, name: str, rating: str, stunts: list[str]
    ) -> Power | None:
        try:
            power = validated(Power, {"type": kind, "name": name, "rating": number(rating), "stunts": stunts})
            if (why := rating_refusal(kind, power.name, power.rating)) is not None:  # §9.1: from 2
                self.leave(f"Power {shown(name)}: {why} Kept at {lowest_rating(kind)}")
                power = power.model_copy(update={"rating": lowest_rating(kind)})
        except RulesError as error:
            self.leave(f"Power {shown(name)}: {error}")
            return None
        if len(powers) >= lim.POWERS_MAX or any(p.full_label == power.full_label for p in powers):
            self.leave(f"Power {shown(name)}: listed twice, or past the {lim.POWERS_MAX} a sheet holds")
            return None
        powers.append(power)
        return power

    def props(self) -> list[Prop]:
        props: list[Prop] = []
        gear: list[str] = []
        for row in self.rows("equipment"):
            item, rules = flat(row.get("item", "")), flat(row.get("rules", ""))
            if not item:
                if rules:
                    self.leave(f"Equipment rules {shown(rules)}: no item named")
                continue
            if row.get("prop", "").strip().lower() not in TICKED:
                gear.append(f"{item} ({rules})" if rules else item)
                continue
            bonuses = {
                ("weapon" if m["what"].lower() in ("weapon", "damage") else "armour"): int(m["value"])
                for m in _BONUS.finditer(rules)
            }
            if re.sub(r"[\W_]+", "", _BONUS.sub("", rules)):
                self.leave(f"Rules of {shown(item)} {shown(rules)}: only a weapon or armour number is kept")
            try:
                prop = validated(Prop, {"name": item, **bonuses})
            except RulesError as error:
                self.leave(f"Prop {shown(item)}: {error}")
                continue
            if len(props) >= lim.PROPS_MAX:
                self.leave(f"Prop {shown(item)}: a sheet holds at most {lim.PROPS_MAX} Props")
            else:
                props.append(prop)
        if gear:
            self.note("Equipment", "; ".join(gear))
        return props

    def note(self, label: str, text: str) -> None:
        line = f"{label}: {text.strip()}"
        if self.fits(
            "\n".join([*self.notes, line]), f"{label} (in the notes)", lim.NOTES_MAX, multiline=True
        ):
            self.notes.append(line)

    def advancements(self, kind: CharacterKind) -> Advancements:
        """The boxes ticked, as a Hero's Advancements held (earned, none spent: the sheet tells
        no more); boxes past the 20 a Hero holds are not boxes of the Mistborn sheet."""
        fields = [k for k in self.read.fields if ADVANCE.match(k)]
        ticked = [k for k in fields if self.take(k).lower() in TICKED]
        self.used |= set(fields)
        if not ticked:
            return Advancements()
        if kind is not CharacterKind.HERO:
            self.leave(f"{len(ticked)} Advancements ticked: only Heroes keep Advancements")
            return Advancements()
        held = min(len(ticked), HOLD_MAX)
        if len(ticked) > held:
            self.leave(f"{len(ticked)} Advancements ticked: a Hero holds at most {HOLD_MAX}, so {held}")
        return Advancements(held=held, earned=held)

    def rest(self) -> None:
        """Everything no part took: dice, unknown fields and sections, maxima."""
        for key, label in DICE_FIELDS.items():
            if (text := self.take(key)) and text != "0":
                self.leave(f"{label} {shown(text)}: the dice of a Conflict round, not part of a sheet")
        for key in sorted(set(self.read.fields) - self.used):
            self.leave(f"{key} {shown(self.read.fields[key])}: not a field of the Mistborn sheet")
        for section in sorted(set(self.read.rows) - set(SECTIONS)):
            count = len(self.read.rows[section])
            rows = f"{count} row{'s' if count != 1 else ''}"
            self.leave(f"{rows} of repeating_{section}: not a section of the Mistborn sheet")
        for key in sorted(self.read.maxima):
            self.leave(f"The max of {key} {shown(self.read.maxima[key])}: the sheet uses no maximum there")
        self.leave_each(self.read.outside, str)


def map_roll20(read: Roll20File, owner_id: int, name: str | None = None) -> Roll20Import:
    """Our sheet from a Roll20 export (``name`` replaces its name), and what was left out."""
    mapper = _Mapper(read)
    chosen, kind = mapper.name(name), mapper.kind()
    typed = flat(mapper.take("concept"))
    concept = mapper.fits(typed, "Concept", lim.CONCEPT_MAX) if typed else ""
    attributes = {
        key: mapper.rating(key, a.label, lim.ATTRIBUTE_MIN, lim.ATTRIBUTE_MAX, 2)
        for key, a in ATTRIBUTES.items()
    }
    standings = {
        key: mapper.rating(key, s.label, lim.STANDING_MIN, lim.STANDING_MAX, 2)
        for key, s in STANDINGS.items()
    }
    spent, damage = mapper.spent(standings), mapper.damage(kind)
    mapper.check_scores(attributes, standings)
    burdens: list[Burden] = []
    traits = mapper.traits(burdens)
    story, powers = mapper.story(kind), mapper.powers()
    for key, label in NOTE_FIELDS.items():
        if text := mapper.take(key):
            mapper.note(label, text.replace("\r\n", "\n"))
    allomancy, props, no_room = kept_charges(mapper.charges, mapper.props())
    mapper.leave_each(no_room, str)
    advancements = mapper.advancements(kind)
    mapper.rest()
    try:
        character = make_character(
            name=chosen, kind=kind, owner_id=owner_id, concept=concept or "", attributes=attributes,
            standings=standings, spent=spent, damage=damage, traits=traits, burdens=burdens,
            powers=powers, props=props, allomancy=allomancy, notes="\n".join(mapper.notes),
            advancements=advancements, **story,
        )  # fmt: skip
    except RulesError as error:
        raise RulesError(f"That Roll20 sheet cannot be imported: {error}") from None
    return Roll20Import(character=character, left_out=mapper.listed())
