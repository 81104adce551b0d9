"""The optional Hero-creation check: what about a sheet differs from a fresh Hero (docs/rulings.md §6).

It reports and never raises, because a Hero outgrows these numbers through play and the
Narrator may allow exceptions. Villains and Extras are built freely, so they always pass.

When the sheet has no strong / average / weak labels the check tries every way of giving
them and judges the sheet by the closest fit, saying which one it used.
"""

from itertools import permutations

from rules.character.model import Character
from rules.character.names import Attribute, CharacterKind, Emphasis, Standing
from rules.character.parts import BuildLabels

POINTS = {Emphasis.STRONG: 13, Emphasis.AVERAGE: 11, Emphasis.WEAK: 9}
ATTRIBUTE_CAP = {Emphasis.STRONG: 6, Emphasis.AVERAGE: 5, Emphasis.WEAK: 4}
STANDING_CAP = {Emphasis.STRONG: 8, Emphasis.AVERAGE: 6, Emphasis.WEAK: 4}
HERO_ATTRIBUTE_MIN = 2
HERO_ATTRIBUTE_MAX = 6


def _range_problems(character: Character) -> list[str]:
    problems = []
    for attribute in Attribute:
        value = character.attributes.get(attribute)
        if not HERO_ATTRIBUTE_MIN <= value <= HERO_ATTRIBUTE_MAX:
            low, high = HERO_ATTRIBUTE_MIN, HERO_ATTRIBUTE_MAX
            problems.append(f"A Hero's {attribute.label} runs from {low} to {high}; it is {value}.")
    return problems


def _split_problems(character: Character, labels: BuildLabels) -> list[str]:
    problems = []
    attributes = {a: character.attributes.get(a) for a in Attribute}
    standings = {s: character.standings.get(s) for s in Standing}
    for what, values, emphasis, caps in (
        ("Attributes", attributes, labels.attributes, ATTRIBUTE_CAP),
        ("Standings", standings, labels.standings, STANDING_CAP),
    ):
        word = emphasis.value
        total = sum(values.values())
        if total != POINTS[emphasis]:
            problems.append(
                f"{emphasis.label} {what} share {POINTS[emphasis]} points; these add up to {total}."
            )
        for stat, value in values.items():
            reported = what == "Attributes" and value > HERO_ATTRIBUTE_MAX
            if value > caps[emphasis] and not reported:
                problems.append(
                    f"{stat.label} {value} is above {caps[emphasis]}, the most for {word} {what}."
                )
    return problems


def _all_labels() -> list[BuildLabels]:
    return [BuildLabels(attributes=a, standings=s, powers=p) for a, s, p in permutations(list(Emphasis))]


def check_hero_build(character: Character) -> list[str]:
    """Everything that is off for a newly made Hero, one sentence each; empty when all is well.

    Checks a Hero's Attributes are 2–6, the 13 / 11 / 9 point splits of Attributes and
    Standings with their caps (6 / 5 / 4 and 8 / 6 / 4) by their labels, and that there are no
    more Props than Resources; a Power's vials and metalminds come with it and are not counted
    (docs/rulings.md §9.8).
    """
    if character.kind is not CharacterKind.HERO:
        return []
    problems = _range_problems(character)
    if character.build is not None:
        problems += _split_problems(character, character.build)
    else:
        best = min(_all_labels(), key=lambda labels: len(_split_problems(character, labels)))
        split = _split_problems(character, best)
        if split:
            problems.append(
                f"No strong / average / weak labels are set; judged as {best.attributes.value} Attributes "
                f"and {best.standings.value} Standings, the closest fit."
            )
            problems += split
    resources = character.standings.resources
    counted = sum(1 for p in character.props if p.implement is None)
    if counted > resources:
        problems.append(f"{counted} Props is more than Resources {resources} allows.")
    return problems
