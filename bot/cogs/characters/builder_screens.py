"""The guided Hero builder's screens (docs/rulings.md §6.10): what each step shows (the typed
steps' forms are ``builder_forms``).

Every component's custom id carries what a click needs — the draft's id, the step it was shown
on, and what it does — so a click works on any message, even one sent before a restart: views
and forms are sent stopped (discord.py keeps no callback for them), and every click reaches the
handlers of ``builder``, which read the ids back with the templates here. A step's choices come from
``rules.character.creation``: only valid splits are offered, so none can be chosen wrong.
Discord's limits hold by construction: at most 25 options a select (the 33 strong Standings
take two), at most 5 rows, at most 5 parts a form, each in a Label (a text input, a menu, the
Powers' radio group of 4, the story form's checkbox).
"""

from dataclasses import dataclass
from itertools import permutations

import discord

from bot.render.draft import draft_embed, heading
from rules.character import Attribute, BuildLabels, Emphasis, Standing
from rules.character.creation import (
    BLESSING_GIVES,
    KEEPER_RATING,
    MIMICRY_RATING,
    MISTBORN_RATING,
    MISTING_METALS,
    MISTING_RATING,
    TRAITS_WITHOUT_POWERS,
    PowerTemplate,
    Split,
    attribute_splits,
    misting_stunts,
    standing_splits,
)
from rules.character.draft import TRAIT_SLOTS, HeroDraft, PowerChoice, Step, step_done, still_to_do
from rules.character.stunts import BY_KEY
from rules.naming import name_key

STEP_NAMES = "|".join(step.value for step in Step)
BUTTON = rf"mab:hero:(?P<draft>\d{{1,19}}):(?P<step>{STEP_NAMES}):(?P<action>back|next|write|cancel|create)"
SELECT = rf"mab:herosel:(?P<draft>\d{{1,19}}):(?P<step>{STEP_NAMES}):(?P<part>[a-z]{{1,12}})(?P<chunk>\d?)"
MODAL = r"mab:heromodal:(?P<draft>\d{1,19}):(?P<step>concept|traits|story)"
"""The custom ids of the builder's buttons, menus and forms, as their handlers match them."""
FORM_STEPS = (Step.CONCEPT, Step.TRAITS, Step.STORY)
"""The steps filled in a form (a modal) rather than with menus."""
CREATE = "Create "
"""The Create button's label, before the Hero's name."""
OPTIONS = 25
FORM_FIELDS = {
    Step.CONCEPT: ("name", "concept", "labels", "powers", "metal"),
    Step.TRAITS: TRAIT_SLOTS,
    Step.STORY: ("destiny", "tragedy", "props", "extras", "create"),
}
"""The fields of each form, by the custom ids of their parts."""


@dataclass(frozen=True)
class Screen:
    """One step as a message: its text, the preview, and its components."""

    content: str
    embed: discord.Embed
    view: discord.ui.View


def button_id(draft_id: int, step: Step, action: str) -> str:
    return f"mab:hero:{draft_id}:{step.value}:{action}"


def select_id(draft_id: int, step: Step, part: str, chunk: int | None = None) -> str:
    return f"mab:herosel:{draft_id}:{step.value}:{part}{'' if chunk is None else chunk}"


def modal_id(draft_id: int, step: Step) -> str:
    return f"mab:heromodal:{draft_id}:{step.value}"


def labels_value(labels: BuildLabels) -> str:
    return f"{labels.attributes.value}.{labels.standings.value}.{labels.powers.value}"


def labels_label(labels: BuildLabels) -> str:
    a, s, p = labels.attributes.label, labels.standings.value, labels.powers.value
    return f"{a} Attributes, {s} Standings, {p} Powers"


def split_value(split: Split) -> str:
    return "-".join(str(v) for v in split)


def power_value(choice: PowerChoice) -> str:
    detail = choice.metal or (choice.blessing.value if choice.blessing else "")
    return f"{choice.template.value}-{detail.lower()}" if detail else choice.template.value


ALL_LABELS = [BuildLabels(attributes=a, standings=s, powers=p) for a, s, p in permutations(list(Emphasis))]


def _labels_select(draft_id: int, draft: HeroDraft) -> discord.ui.Select[discord.ui.View]:
    options = [
        discord.SelectOption(label=labels_label(b), value=labels_value(b), default=draft.labels == b)
        for b in ALL_LABELS
    ]
    placeholder = "Strong, average and weak: one each"
    return discord.ui.Select(
        custom_id=select_id(draft_id, Step.LABELS, "labels"), placeholder=placeholder, options=options
    )


def _chunks(splits: list[Split]) -> list[list[Split]]:
    """Splits in selects of at most 25, never parting splits that start with the same rating."""
    chunks: list[list[Split]] = [[]]
    for first in dict.fromkeys(s[0] for s in splits):
        group = [s for s in splits if s[0] == first]
        if len(chunks[-1]) + len(group) > OPTIONS:
            chunks.append([])
        chunks[-1].extend(group)
    return chunks


def _split_selects(
    draft_id: int,
    part: str,
    splits: list[Split],
    chosen: Split | None,
    names: tuple[str, ...],
    emphasis: Emphasis,
) -> list[discord.ui.Select[discord.ui.View]]:
    chunks = _chunks(splits)
    selects: list[discord.ui.Select[discord.ui.View]] = []
    for number, chunk in enumerate(chunks):
        span = f"{names[0]} {chunk[0][0]}" + (f"–{chunk[-1][0]}" if chunk[-1][0] != chunk[0][0] else "")
        which = f" ({span})" if len(chunks) > 1 else ""
        options = [
            discord.SelectOption(
                label=" · ".join(f"{n} {v}" for n, v in zip(names, split, strict=True)),
                value=split_value(split),
                default=split == chosen,
            )
            for split in chunk
        ]
        placeholder = f"{part.capitalize()}: {emphasis.value}, {sum(splits[0])} points{which}"
        custom_id = select_id(draft_id, Step.RATINGS, part, number if len(chunks) > 1 else None)
        selects.append(discord.ui.Select(custom_id=custom_id, placeholder=placeholder, options=options))
    return selects


def power_options(draft: HeroDraft) -> list[discord.SelectOption]:
    chosen = power_value(draft.powers) if draft.powers else None
    described = [
        (PowerTemplate.MISTBORN.value, "Mistborn", f"Every basic metal at {MISTBORN_RATING} (Allomancy)"),
        (PowerTemplate.KEEPER.value, "Keeper", f"Every basic metal at {KEEPER_RATING} (Feruchemy)"),
        *(
            (f"misting-{m.lower()}", f"Misting: {m}", f"{m} at {MISTING_RATING} (Allomancy)")
            for m in MISTING_METALS
        ),
        *(
            (f"kandra-{b}", f"Kandra: {b.capitalize()}", f"Mimicry {MIMICRY_RATING}; {g}")
            for b, g in BLESSING_GIVES.items()
        ),
        (PowerTemplate.NONE.value, "No Powers", f"{TRAITS_WITHOUT_POWERS} more Traits instead"),
    ]
    return [
        discord.SelectOption(label=label, value=value, description=text, default=value == chosen)
        for value, label, text in described
    ]


NO_STUNT = "none"


def stunt_select(draft_id: int, draft: HeroDraft, step: Step) -> discord.ui.Select[discord.ui.View] | None:
    """A Misting's one starting Stunt, from its metal's catalogue, or none yet (optional,
    docs/rulings.md §9.7): on the Powers step, and on the story step every way passes through."""
    choice = draft.powers
    names = misting_stunts(choice.metal) if choice is not None and choice.metal else ()
    if choice is None or not names:
        return None
    options = [discord.SelectOption(label="No Stunt for now", value=NO_STUNT, default=choice.stunt is None)]
    options += [
        discord.SelectOption(
            label=n, value=n, description=BY_KEY[name_key(n)].does, default=n == choice.stunt
        )
        for n in names
    ]
    placeholder = "A Misting's starting Stunt (optional)"
    return discord.ui.Select(
        custom_id=select_id(draft_id, step, "stunt"), placeholder=placeholder, options=options
    )


def _nav(view: discord.ui.View, draft_id: int, draft: HeroDraft, step: Step) -> None:
    if step in FORM_STEPS:
        label = {Step.CONCEPT: "Write the concept", Step.TRAITS: "Write the Traits"}.get(
            step, "Write Destiny, Tragedy and Props"
        )
        view.add_item(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.primary, custom_id=button_id(draft_id, step, "write")
            )
        )
    if step is Step.REVIEW:
        view.add_item(
            discord.ui.Button(
                label=f"{CREATE}{draft.name}"[:80],
                style=discord.ButtonStyle.success,
                custom_id=button_id(draft_id, step, "create"),
                disabled=bool(still_to_do(draft)),
            )
        )
    view.add_item(
        discord.ui.Button(
            label="Back", custom_id=button_id(draft_id, step, "back"), disabled=step is Step.CONCEPT
        )
    )
    if step is not Step.REVIEW and step_done(draft, step):
        view.add_item(discord.ui.Button(label="Next", custom_id=button_id(draft_id, step, "next")))
    view.add_item(
        discord.ui.Button(
            label="Cancel", style=discord.ButtonStyle.danger, custom_id=button_id(draft_id, step, "cancel")
        )
    )


def screen(draft_id: int, draft: HeroDraft, step: Step, notice: str = "") -> Screen:
    """The message for ``step``: what it asks, the preview, its menus or form button, and the
    Back / Next / Cancel row."""
    view = discord.ui.View(timeout=None)
    if step is Step.LABELS:
        view.add_item(_labels_select(draft_id, draft))
    elif step is Step.RATINGS and draft.labels is not None:
        names = tuple(a.label for a in Attribute), tuple(s.label for s in Standing)
        for select in _split_selects(
            draft_id, "attributes", attribute_splits(draft.labels.attributes), draft.attributes, names[0],
            draft.labels.attributes,
        ) + _split_selects(
            draft_id, "standings", standing_splits(draft.labels.standings), draft.standings, names[1],
            draft.labels.standings,
        ):  # fmt: skip
            view.add_item(select)
    elif step is Step.POWERS:
        view.add_item(
            discord.ui.Select(
                custom_id=select_id(draft_id, Step.POWERS, "powers"),
                placeholder="Choose the Powers",
                options=power_options(draft),
            )
        )
    if step in (Step.POWERS, Step.STORY) and (stunts := stunt_select(draft_id, draft, step)) is not None:
        view.add_item(stunts)
    _nav(view, draft_id, draft, step)
    view.stop()  # sent stopped: discord.py keeps nothing; clicks reach the builder's DynamicItems
    return Screen(content=heading(draft, step, notice), embed=draft_embed(draft), view=view)
