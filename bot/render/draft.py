"""The guided Hero builder as text: each step's heading and what it asks, and the live preview
of the sheet with what is still to do (docs/rulings.md §6.10).

The preview shows only what was chosen ("not chosen yet" elsewhere), so a rating a player has
not picked never looks like a choice. Everything a player typed goes through ``plain``.
"""

import discord

from bot.render.common import DESCRIPTION_LIMIT, INFO, TITLE_LIMIT, fit, plain
from bot.render.sheet import (
    add_lines,
    attribute_lines,
    fit_embed,
    prop_line,
    resilience_lines,
    standing_lines,
    trait_lines,
)
from rules.character.creation import KEEPER_RATING, MISTBORN_RATING, MISTING_RATING, TRAITS_WITHOUT_POWERS
from rules.character.draft import HeroDraft, Step, still_to_do, to_character

STEPS = len(Step)
TITLES = {
    Step.CONCEPT: "Concept",
    Step.LABELS: "Strong, average, weak",
    Step.RATINGS: "Attributes and Standings",
    Step.POWERS: "Powers",
    Step.TRAITS: "Traits",
    Step.STORY: "Destiny, Tragedy and Props",
    Step.REVIEW: "Review",
}
NOT_YET = "Not chosen yet"


def asks(draft: HeroDraft, step: Step) -> str:
    """What a step asks of the player, in one or two sentences."""
    if step is Step.CONCEPT:
        return "Name your Hero and say who they are in a few words."
    if step is Step.LABELS:
        return "Which of Attributes, Standings and Powers is your Hero strong in, average in, and weak in?"
    if step is Step.RATINGS:
        return (
            "Share the points: strong 13, average 11, weak 9, within the most each rating may have. "
            "Only the splits a new Hero may have are offered."
        )
    if step is Step.POWERS:
        return (
            f"A Mistborn burns every basic metal at {MISTBORN_RATING}; a Misting one metal at "
            f"{MISTING_RATING}; a Keeper stores every basic metal at {KEEPER_RATING}; a Hero without "
            f"Powers takes {TRAITS_WITHOUT_POWERS} more Traits. A Misting may start with one Stunt."
        )
    if step is Step.TRAITS:
        return "Drive, Profession, Specialty, Feature and Personality, a few words each."
    if step is Step.STORY:
        extra = f", and the {TRAITS_WITHOUT_POWERS} more Traits" if draft.without_powers else ""
        return f"Destiny and Tragedy, then up to {draft.props_allowed} Props (your Resources){extra}."
    todo = still_to_do(draft)
    if todo:
        return "Still to do before creating: " + "; ".join(todo) + "."
    return f"Check the sheet, then create {plain(draft.name)}."


def heading(draft: HeroDraft, step: Step, notice: str = "") -> str:
    """The message's text: the Hero, the step, what it asks, and a notice (already inert)."""
    lines = [
        f"**Making {plain(draft.name)}** · step {step.number} of {STEPS}: {TITLES[step]}",
        asks(draft, step),
    ]
    if notice:
        lines.append(f"> {notice}")
    return fit("\n".join(lines), 2000)


def _powers(draft: HeroDraft) -> list[str]:
    if draft.powers is None:
        return [NOT_YET]
    powers = draft.powers.powers
    if not powers:
        return [f"{draft.powers.label}: {TRAITS_WITHOUT_POWERS} more Traits instead"]
    names = ", ".join(p.name for p in powers)  # "Misting: Tin", never "Tin Misting: Tin"
    stunt = f"; Stunt: {draft.powers.stunt}" if draft.powers.stunt else ""  # a Misting's (§9.7)
    if draft.powers.blessing is not None:  # a kandra's (§9.6)
        stunt = f"; Blessing of {draft.powers.blessing.label}"
    return [f"{draft.powers.template.label}: {names} at {powers[0].rating} ({powers[0].type.label}){stunt}"]


def draft_embed(draft: HeroDraft) -> discord.Embed:
    """The sheet so far, and what is still to do."""
    sheet = to_character(draft)
    lines = [f"*{plain(draft.concept)}*" if draft.concept else "*No concept yet*"]
    if draft.labels is not None:
        labels = draft.labels
        lines.append(
            f"{labels.attributes.label} Attributes · {labels.standings.label} Standings · "
            f"{labels.powers.label} Powers"
        )
    embed = discord.Embed(
        title=fit(f"{plain(draft.name)} — Hero in the making", TITLE_LIMIT),
        description=fit("\n".join(lines), DESCRIPTION_LIMIT),
        colour=INFO,
    )
    add_lines(embed, "Attributes", attribute_lines(sheet) if draft.attributes else [NOT_YET], inline=True)
    add_lines(embed, "Standings", standing_lines(sheet) if draft.standings else [NOT_YET], inline=True)
    ready = draft.attributes is not None and draft.standings is not None
    add_lines(embed, "Resiliences", resilience_lines(sheet) if ready else ["From the ratings"], inline=True)
    add_lines(embed, "Powers", _powers(draft))
    add_lines(embed, "Traits", trait_lines(sheet) or ["None yet"])
    if draft.destiny:
        add_lines(embed, "Destiny", [plain(draft.destiny)])
    if draft.tragedy:
        add_lines(embed, "Tragedy", [plain(draft.tragedy)])
    if draft.props:
        add_lines(embed, "Props", [prop_line(p.name, p.weapon, p.armour) for p in draft.props])
    todo = still_to_do(draft)
    add_lines(embed, "Still to do", [f"• {item}" for item in todo] if todo else ["Nothing: ready to create."])
    return fit_embed(embed)
