"""Forms: a submitted form (a modal submit) handed to the cog that opened it, by its custom id.

Every form the bot opens carries in its custom id what its submission needs (which sheet,
which draft, which attack), and is sent stopped, so discord.py keeps none of them and a form
opened before a restart still works. A cog registers each of its forms here (``client.forms``,
in its ``cog_load``) with the handler of its submission, which gets the form as
:class:`SentForm`: the custom id's match and what was typed and picked, however Discord nests
the parts (rows of text inputs, or labels around a text input, a menu, a radio group, a
checkbox group, a checkbox or a file upload).

The handler runs through the door every click and form comes through (``bot.door``): past
capacity the member is told "busy", whatever it raises is answered as a command's error is, and
the answered interaction is released. No cog listens to every interaction any more: discord.py
made a task per listener per interaction, for forms nearly all of them returned at once.
"""

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot.door import Door, check_numbers

YES = "yes"
"""A ticked checkbox, as :func:`form_values` reads it."""


@dataclass(frozen=True)
class SentForm:
    """A submitted form whose custom id matched: the match (its named groups) and its values."""

    found: re.Match[str]
    values: dict[str, str]


FormHandler = Callable[[Any, SentForm], Awaitable[None]]
"""A form's submission handler: ``handler(interaction, sent)``."""


class Forms:
    """The registered forms, matched against a submission's custom id in the order added."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self._forms: dict[re.Pattern[str], FormHandler] = {}

    def add(self, form_id: re.Pattern[str], handler: FormHandler) -> None:
        self._forms[form_id] = handler

    def remove(self, form_id: re.Pattern[str]) -> None:
        self._forms.pop(form_id, None)

    @property
    def ids(self) -> tuple[re.Pattern[str], ...]:
        return tuple(self._forms)

    def dispatch(self, interaction: discord.Interaction[Any]) -> None:
        """Start the handler of a submitted form, if one is registered for its custom id (a form
        of a cog since unloaded gets the deadline's answer, ``bot.replies.guard``)."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        for form_id, handler in self._forms.items():
            found = form_id.fullmatch(custom_id)
            if found is not None:
                name = f"discord-ui-modal-dispatch-{custom_id}"
                self.door.start(interaction, name, partial(_submitted, handler, interaction, found, data))
                return


async def _submitted(
    handler: FormHandler, interaction: discord.Interaction[Any], found: re.Match[str], data: dict[str, Any]
) -> None:
    """The form read (inside the door: what it holds is the member's input) and handed over."""
    check_numbers(found)
    components = data.get("components")
    parts = [c for c in components if isinstance(c, dict)] if isinstance(components, list) else []
    await handler(interaction, SentForm(found, form_values(parts)))


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
