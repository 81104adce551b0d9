"""Clicks: a button or menu used on a message, handed to its ``DynamicItem`` by the custom id alone.

Every button and menu the bot sends is a ``DynamicItem`` whose custom id carries what the click
needs (which Conflict, which attack, how many dice), and every view is sent stopped, so
discord.py keeps none of them (docs/architecture.md, "Clicks"). discord.py's own routing of a
``DynamicItem`` first rebuilds the whole clicked message as a view, to find the clicked item in it
and swap in the one the custom id makes; our handlers read nothing of that view, and the rebuild
was the largest single cost of a click in the bot (about 0.1 ms of a defence click,
``bench.dispatch_bench``). :class:`Clicks` routes by the custom id alone: the cogs register their
items through ``MistbornClient.add_dynamic_items`` as before, and the client hands each click here.

The handler runs through the door every click and form comes through (``bot.door``): past
capacity the member is told "busy", whatever it raises is answered as a command's error is, and
the answered interaction is released, as the command tree does for a command.

A menu's chosen values are read from the interaction (:func:`picked`), the one place they are;
a value the menu never offered (only a forged click sends one) is the user's error
(:func:`picked_id`, :func:`picked_as`).
"""

import re
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import discord

from bot.door import Door, check_numbers
from bot.errors import BotError

Factory = type[discord.ui.DynamicItem[Any]]
T = TypeVar("T")
NOT_OFFERED = "Choose from the menu."
"""The answer to a value no menu of ours offered: only a forged click sends one (Discord sends
only a menu's own options)."""
ID_DIGITS = 18
"""The most digits a chosen id may have: every id fits a 64-bit integer, as the database keeps it."""


class Clicks:
    """The registered ``DynamicItem`` classes, matched against a click's custom id in the order
    they were added (tests/bot/test_custom_ids.py holds every prefix to one owner)."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self._items: dict[Factory, re.Pattern[str]] = {}

    def add(self, *items: Factory) -> None:
        for item in items:
            if not issubclass(item, discord.ui.DynamicItem):
                raise TypeError(f"expected a DynamicItem class, not {item.__name__}")
            # discord.py keeps a DynamicItem's template on its class only under this name.
            self._items[item] = item.__discord_ui_compiled_template__

    def remove(self, *items: Factory) -> None:
        for item in items:
            self._items.pop(item, None)

    @property
    def items(self) -> tuple[Factory, ...]:
        return tuple(self._items)

    def dispatch(self, interaction: discord.Interaction[Any]) -> None:
        """Start the handler of a clicked button or picked menu option, if one is registered for
        its custom id (a form's submission is ``bot.forms``')."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        for item, template in self._items.items():
            match = template.fullmatch(custom_id)
            if match is not None:
                self.door.start(
                    interaction,
                    f"discord-ui-dynamic-item-{item.__name__}-{custom_id}",
                    partial(_click, item, interaction, match),
                )
                return


async def _click(factory: Factory, interaction: discord.Interaction[Any], match: re.Match[str]) -> None:
    """What discord.py does with a matched ``DynamicItem``, less the message's rebuild: make the
    item from the custom id, ask its ``interaction_check``, run its callback. A number in the
    custom id past what the database holds is refused first (``bot.door.check_numbers``)."""
    check_numbers(match)
    data: Any = interaction.data or {}
    clicked = _clicked(data.get("component_type"), match.string)
    item = await factory.from_custom_id(interaction, clicked, match)
    if await item.interaction_check(interaction):
        await item.callback(interaction)


def _clicked(component_type: object, custom_id: str) -> discord.ui.Item[Any]:
    """The clicked component as far as the click says it: its kind and custom id (what
    ``from_custom_id`` is given; ours read everything from the custom id's match)."""
    if component_type == discord.ComponentType.button.value:
        return discord.ui.Button(custom_id=custom_id)
    return discord.ui.Select(custom_id=custom_id)


def picked(interaction: discord.Interaction[Any]) -> list[str]:
    """The values chosen in the menu that was used (none for a button)."""
    data: Any = interaction.data or {}
    return [str(value) for value in data.get("values") or ()]


def first_picked(interaction: discord.Interaction[Any], default: str) -> str:
    """The one value chosen in a single-choice menu, or ``default`` when none came."""
    values = picked(interaction)
    return values[0] if values else default


def picked_id(interaction: discord.Interaction[Any]) -> int:
    """The one id chosen in a single-choice menu of ids; anything else was never offered."""
    values = picked(interaction)
    if len(values) != 1:
        raise BotError(NOT_OFFERED)
    return offered_id(values[0])


def offered_id(value: str) -> int:
    """An id a menu offered, as its value (or part of it) carries it: ASCII digits that fit the
    database; anything else was never offered."""
    if not (value.isascii() and value.isdigit()) or len(value) > ID_DIGITS:
        raise BotError(NOT_OFFERED)
    return int(value)


def picked_as(interaction: discord.Interaction[Any], parse: Callable[[str], T], default: str) -> T:
    """The one value chosen in a single-choice menu (``default`` when none came), read by
    ``parse`` (an enum's own constructor, say); a value it cannot read was never offered."""
    chosen = first_picked(interaction, default)
    try:
        return parse(chosen)
    except ValueError:
        raise BotError(NOT_OFFERED) from None
