"""What each click, menu choice and form of the Hero builder means: a pure change of the draft
and the step it leads to (docs/rulings.md §6.10).

The values come from custom ids and forms, which a raw payload can fill with anything, so each
is read back strictly and anything else is a :class:`~rules.errors.RulesError` the builder
shows on the step, as it does the rules' own refusals. Nothing here touches Discord or storage:
``builder`` loads, checks, saves and renders around these.
"""

from collections.abc import Callable
from typing import NamedTuple

from bot.cogs.characters.builder_screens import FORM_STEPS, NO_STUNT
from bot.forms import YES
from rules.character import BuildLabels, Emphasis
from rules.character.creation import TRAITS_WITHOUT_POWERS, PowerTemplate, read_props
from rules.character.draft import (
    TRAIT_SLOTS,
    HeroDraft,
    Step,
    power_choice,
    step_done,
    with_attributes,
    with_concept,
    with_labels,
    with_powers,
    with_standings,
    with_story,
    with_stunt,
    with_traits,
)
from rules.errors import RulesError

NOT_A_CHOICE = "That is not one of the choices."


class Turn(NamedTuple):
    """What a change leads to: the new draft, the step to show, a notice, and whether to open
    that step's form at once (a click that leads to an empty form saves one more click)."""

    draft: HeroDraft
    step: Step
    notice: str = ""
    form: bool = False
    create: bool = False
    """Make the Hero at once (the story form's checkbox), when nothing is missing."""


Change = Callable[[HeroDraft], Turn]


def moved(draft: HeroDraft, step: Step) -> Turn:
    """Go to ``step``, opening its form at once when it is a form nobody filled in yet."""
    return Turn(draft, step, form=step in FORM_STEPS and not step_done(draft, step))


def onward(draft: HeroDraft, after: Step, otherwise: Step) -> Turn:
    """On to the first step after ``after`` still to fill in (its form opened when it is one);
    ``otherwise`` when every one is filled in already."""
    steps = list(Step)[after.number : Step.REVIEW.number - 1]
    todo = next((step for step in steps if not step_done(draft, step)), None)
    return moved(draft, todo) if todo is not None else Turn(draft, otherwise)


def next_step(clicked: Step) -> Change:
    """The Next button: on to the following step, once this one is filled in."""

    def change(draft: HeroDraft) -> Turn:
        if not step_done(draft, clicked):
            raise RulesError("Finish this step first.")
        return moved(draft, clicked.following)

    return change


def labels_from(value: str) -> BuildLabels:
    try:
        attributes, standings, powers = (Emphasis(word) for word in value.split("."))
    except ValueError:
        raise RulesError(NOT_A_CHOICE) from None
    return BuildLabels(attributes=attributes, standings=standings, powers=powers)


def split_from(value: str) -> tuple[int, int, int]:
    parts = value.split("-")
    if len(parts) != 3 or not all(p.isdecimal() and len(p) <= 2 for p in parts):
        raise RulesError(NOT_A_CHOICE)
    return int(parts[0]), int(parts[1]), int(parts[2])


def chose(part: str, value: str, shown: Step = Step.POWERS) -> Change:
    """The change a menu's choice makes, and the step it leads to: a Misting's Stunt stays on
    the step ``shown`` where it was picked (§9.7)."""

    def change(draft: HeroDraft) -> Turn:
        if part == "stunt":
            return Turn(with_stunt(draft, None if value == NO_STUNT else value), shown)
        if part == "labels":
            return Turn(with_labels(draft, labels_from(value)), Step.RATINGS)
        if part in ("attributes", "standings"):
            pick = with_attributes if part == "attributes" else with_standings
            new = pick(draft, split_from(value))
            return (
                onward(new, Step.RATINGS, Step.POWERS)
                if step_done(new, Step.RATINGS)
                else Turn(new, Step.RATINGS)
            )
        if part == "powers":
            template, _, metal = value.partition("-")
            return moved(
                with_powers(draft, power_choice(template_from(template), metal or None)), Step.TRAITS
            )
        raise RulesError(NOT_A_CHOICE)

    return change


def template_from(value: str) -> PowerTemplate:
    try:
        return PowerTemplate(value)
    except ValueError:
        raise RulesError(NOT_A_CHOICE) from None


def concept_from(draft: HeroDraft, values: dict[str, str]) -> HeroDraft:
    """The first form: the name and concept, and the labels and Powers when picked there. A
    Misting needs its metal; the metal is read only for a Misting (docs/rulings.md §6.10)."""
    new = with_concept(draft, values.get("name", draft.name), values.get("concept", ""))
    if values.get("labels"):
        new = with_labels(new, labels_from(values["labels"]))
    if values.get("powers"):
        template = template_from(values["powers"])
        metal = values.get("metal") or None
        if template is PowerTemplate.MISTING and metal is None:
            raise RulesError("A Misting burns one metal: pick it under “A Misting's metal”.")
        new = with_powers(new, power_choice(template, metal if template is PowerTemplate.MISTING else None))
    return new


def extras_from(text: str) -> tuple[str, ...]:
    """A Hero without Powers' two more Traits, one per line (§6.10)."""
    lines = tuple(line.strip() for line in text.splitlines() if line.strip())
    if len(lines) > TRAITS_WITHOUT_POWERS:
        raise RulesError(
            f"That is {len(lines)} Traits; a Hero without Powers takes "
            f"{TRAITS_WITHOUT_POWERS} more, one per line."
        )
    return lines


def wrote(step: Step, values: dict[str, str], name_taken: bool) -> Change:
    """The change a form makes: the concept, the Traits, or Destiny, Tragedy and Props."""

    def change(draft: HeroDraft) -> Turn:
        if step is Step.CONCEPT:
            if name_taken:
                name = values.get("name", draft.name)
                raise RulesError(f"There is already a character named {name.strip()} in this server.")
            new = concept_from(draft, values)
            return onward(new, Step.CONCEPT, Step.LABELS) if new.labels else Turn(new, Step.LABELS)
        if step is Step.TRAITS:
            named = {slot: values.get(slot, "") for slot in TRAIT_SLOTS}
            return Turn(with_traits(draft, **named), Step.STORY)
        props = read_props(values.get("props", ""), draft.props_allowed)
        extras = extras_from(values.get("extras", "")) if draft.without_powers else None
        return Turn(
            with_story(draft, values.get("destiny", ""), values.get("tragedy", ""), props, extras),
            Step.REVIEW,
            create=values.get("create") == YES,
        )

    return change
