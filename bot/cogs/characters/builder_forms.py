"""The builder's typed steps as forms (docs/rulings.md §6.10): who the Hero is (with the labels,
the Power template and a Misting's metal chosen at once), the five Traits, and the Destiny,
Tragedy and Props. Each form is sent stopped and names its draft and step in its custom id
(``builder_screens.modal_id``), so a submission after a restart reaches the builder's listener.
"""

import discord

from bot.cogs.characters.builder_screens import ALL_LABELS, labels_label, labels_value, modal_id
from bot.forms import YES
from rules.character import limits as lim
from rules.character.creation import (
    KEEPER_RATING,
    MISTBORN_RATING,
    MISTING_METALS,
    MISTING_RATING,
    PROPS_HELP,
    TRAITS_WITHOUT_POWERS,
    PowerTemplate,
    prop_line,
)
from rules.character.draft import TRAIT_SLOTS, HeroDraft, Step

PROPS_TEXT_MAX = 1000
EXTRAS_TEXT_MAX = TRAITS_WITHOUT_POWERS * (lim.TRAIT_MAX + 1)
PLACEHOLDERS = {
    "drive": "What pushes them on: Avenge my brother",
    "profession": "What they do: Thief, Noble, Soldier",
    "specialty": "What they do best: Lockpicking",
    "feature": "What people notice: Scarred hands",
    "personality": "How they act: Sharp-tongued",
}


def _input(
    custom_id: str,
    label: str,
    limit: int,
    default: str,
    *,
    placeholder: str | None = None,
    required: bool = True,
) -> discord.ui.TextInput[discord.ui.Modal]:
    return discord.ui.TextInput(
        custom_id=custom_id,
        label=label,
        max_length=limit,
        default=default[:limit] or None,
        placeholder=placeholder,
        required=required,
    )


def form(draft_id: int, draft: HeroDraft, step: Step) -> discord.ui.Modal:
    """The form of a step filled by typing. It is sent stopped: discord.py keeps no callback for
    it, and every submission, before or after a restart, reaches the builder's one listener."""
    titles = {Step.CONCEPT: "Who they are", Step.TRAITS: "Traits", Step.STORY: "Destiny, Tragedy and Props"}
    modal = discord.ui.Modal(title=titles[step], custom_id=modal_id(draft_id, step), timeout=None)

    def written(field: str, saved: str) -> str:
        """What the field opens with: the text of a refused form, else what is saved."""
        return draft.typed.get(field, saved)

    if step is Step.CONCEPT:
        modal.add_item(_input("name", "Name", lim.NAME_MAX, written("name", draft.name)))
        modal.add_item(
            _input(
                "concept",
                "Concept",
                lim.CONCEPT_MAX,
                written("concept", draft.concept),
                placeholder="Street urchin with a gift",
            )
        )
        for part in concept_choices(draft):
            modal.add_item(part)
    elif step is Step.TRAITS:
        for slot in TRAIT_SLOTS:
            default = written(slot, str(getattr(draft.traits, slot)))
            modal.add_item(
                _input(slot, slot.capitalize(), lim.TRAIT_MAX, default, placeholder=PLACEHOLDERS[slot])
            )
    else:
        modal.add_item(_input("destiny", "Destiny", lim.DESTINY_MAX, written("destiny", draft.destiny)))
        modal.add_item(_input("tragedy", "Tragedy", lim.TRAGEDY_MAX, written("tragedy", draft.tragedy)))
        props = written("props", "\n".join(prop_line(p) for p in draft.props))
        modal.add_item(
            discord.ui.TextInput(
                custom_id="props",
                label=f"Props, one per line (at most {draft.props_allowed})",
                style=discord.TextStyle.paragraph,
                max_length=PROPS_TEXT_MAX,
                default=props[:PROPS_TEXT_MAX] or None,
                placeholder=PROPS_HELP[:100],
                required=False,
            )
        )
        if draft.without_powers:
            extras = written("extras", "\n".join(draft.traits.extras))
            modal.add_item(
                discord.ui.Label(
                    text=f"{TRAITS_WITHOUT_POWERS} more Traits, one per line",
                    description="A Hero without Powers takes them instead",
                    component=discord.ui.TextInput(
                        custom_id="extras",
                        style=discord.TextStyle.paragraph,
                        max_length=EXTRAS_TEXT_MAX,
                        default=extras[:EXTRAS_TEXT_MAX] or None,
                        placeholder="Lucky\nQuiet",
                    ),
                )
            )
        modal.add_item(
            discord.ui.Label(
                text="Create the Hero when this is sent",
                description="Leave it unticked to see the review first",
                component=discord.ui.Checkbox(custom_id="create", default=written("create", "") == YES),
            )
        )
    modal.stop()
    return modal


TEMPLATES = (
    (PowerTemplate.MISTBORN, f"Every basic metal at {MISTBORN_RATING} (Allomancy)"),
    (PowerTemplate.MISTING, f"One metal at {MISTING_RATING}: pick it below"),
    (PowerTemplate.KEEPER, f"Every basic metal at {KEEPER_RATING} (Feruchemy)"),
    (PowerTemplate.NONE, f"{TRAITS_WITHOUT_POWERS} more Traits instead"),
)


def concept_choices(draft: HeroDraft) -> list[discord.ui.Label[discord.ui.Modal]]:
    """The choices the first form may make at once (docs/rulings.md §6.10): the labels, the
    Power template as a radio group and a Misting's metal. None is required, so the form still
    works as the concept alone; each opens with what was picked (a refused form's picks first)."""
    labels = draft.typed.get("labels", labels_value(draft.labels) if draft.labels else "")
    template = draft.powers.template.value if draft.powers else ""
    template = draft.typed.get("powers", template)
    metal = draft.typed.get("metal", (draft.powers.metal or "") if draft.powers else "")
    labelled = discord.ui.Select[discord.ui.Modal](
        custom_id="labels",
        required=False,
        options=[
            discord.SelectOption(
                label=labels_label(b), value=labels_value(b), default=labels_value(b) == labels
            )
            for b in ALL_LABELS
        ],
    )
    powers = discord.ui.RadioGroup[discord.ui.Modal](
        custom_id="powers",
        required=False,
        options=[
            discord.RadioGroupOption(
                label=t.label, value=t.value, description=text, default=t.value == template
            )
            for t, text in TEMPLATES
        ],
    )
    metals = discord.ui.Select[discord.ui.Modal](
        custom_id="metal",
        required=False,
        placeholder="Only for a Misting",
        options=[discord.SelectOption(label=m, value=m, default=m == metal) for m in MISTING_METALS],
    )
    return [
        discord.ui.Label(
            text="Strong, average and weak",
            description="Optional here: or on the next screen",
            component=labelled,
        ),
        discord.ui.Label(text="Powers", description="Optional here: or after the ratings", component=powers),
        discord.ui.Label(text="A Misting's metal", component=metals),
    ]
