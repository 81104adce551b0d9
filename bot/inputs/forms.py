"""A sent form (a modal submit): which of ours it is, and what was typed and picked in it.

Every cog that opens a form hears every modal submit (``on_interaction``), so each needs the same
two answers: is this one of mine (its custom id matches my pattern), and what does it hold. One
reading serves them all, whatever Discord nests the parts in: rows of text inputs, or Labels
around a text input, a menu, a radio group, a checkbox group, a checkbox or a file upload.
"""

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import BotError

YES = "yes"
"""A ticked checkbox, as :func:`form_values` reads it."""


@dataclass(frozen=True)
class SentForm:
    """A modal submit whose custom id matched: the match (its named groups) and its values."""

    found: re.Match[str]
    values: dict[str, str]


def sent_form(interaction: discord.Interaction[Any], custom_id: re.Pattern[str]) -> SentForm | None:
    """The form ``interaction`` sent, when it is a modal submit whose custom id matches
    ``custom_id`` in full; None for anything else (another cog's form, a command, a click)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return None
    data: dict[str, Any] = dict(interaction.data or {})
    found = custom_id.fullmatch(str(data.get("custom_id", "")))
    if found is None:
        return None
    return SentForm(found, form_values([c for c in data.get("components") or [] if isinstance(c, dict)]))


def form_values(components: list[dict[str, Any]]) -> dict[str, str]:
    """A submitted form's values by custom id, from rows or labels as Discord sends them: a
    text input's ``value``; a select's or checkbox group's ``values``, one per line; a radio
    group's ``value`` ("" when none is picked); a ticked checkbox :data:`YES`, else ""."""
    values: dict[str, str] = {}
    for component in components:
        inner = component.get("component")
        nested = component.get("components")
        if isinstance(inner, dict):
            values |= form_values([inner])
        elif isinstance(nested, list):
            values |= form_values([c for c in nested if isinstance(c, dict)])
        elif isinstance(component.get("custom_id"), str):
            picked, value = component.get("values"), component.get("value")
            if isinstance(picked, list):
                text = "\n".join(str(v) for v in picked)
            elif isinstance(value, bool):
                text = YES if value else ""
            else:
                text = str(value or "")
            values[str(component["custom_id"])] = text
    return values


def typed_traits(text: str) -> int:
    """Net Traits typed in a form's text input (empty: 0), bounded as ``/declare traits:``."""
    value = text.strip() or "0"
    try:
        traits = int(value.replace("−", "-").lstrip("+"))
    except ValueError:
        raise BotError("Traits: give a whole number, e.g. 2, or -1 when they hinder.") from None
    if not -10 <= traits <= 10:
        raise BotError("Traits: between -10 and 10.")
    return traits
