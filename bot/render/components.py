"""Buttons and menus as the JSON a message body carries, and the discord.py view of them.

A Conflict move's reply is queued in the outbox as its create-message body *before* it is sent
(``bot.cogs.conflict.service``), so its buttons are needed as JSON first; a discord.py item costs
several microseconds to build, a dict a fraction of that, and a prompt has up to a dozen. So the
look (``bot.render.buttons``) is drawn here as dicts, laid out in rows as discord.py lays out a
view's items (each in the first row with room, a menu alone in its row), and sent as those very
dicts (:func:`view_of`), so what is sent and what the outbox holds are one body;
tests/bot/render/test_components.py holds it equal to discord.py's own serialisation of the items.
"""

from collections.abc import Callable, Sequence
from typing import Any, ParamSpec

import discord
from discord.ui.view import BaseView

JSON = dict[str, Any]
P = ParamSpec("P")

BUTTON, SELECT = 2, 3
ROWS, ROW_WIDTH = 5, 5

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]


def button(label: str, style: discord.ButtonStyle, custom_id: str) -> JSON:
    return {"type": BUTTON, "style": style.value, "disabled": False, "label": label, "custom_id": custom_id}


def option(label: str, value: str, description: str = "") -> JSON:
    chosen: JSON = {"label": label, "value": value, "default": False}
    return {**chosen, "description": description} if description else chosen


def select(
    custom_id: str, placeholder: str, options: list[JSON], *, min_values: int = 1, max_values: int = 1
) -> JSON:
    return {
        "type": SELECT,
        "custom_id": custom_id,
        "min_values": min_values,
        "max_values": max_values,
        "disabled": False,
        "required": True,
        "placeholder": placeholder,
        "options": options,
    }


def placed(components: Sequence[JSON]) -> tuple[list[int], list[int]] | None:
    """The row of each component, as discord.py places a view's items (each in the first row
    with room, a menu alone in its row), and the width each row has used; None when one would
    not fit."""
    used = [0] * ROWS
    rows: list[int] = []
    for component in components:
        width = ROW_WIDTH if component["type"] == SELECT else 1
        for row in range(ROWS):
            if used[row] + width <= ROW_WIDTH:
                used[row] += width
                rows.append(row)
                break
        else:
            return None
    return rows, used


def room(components: Sequence[JSON]) -> int:
    """How many more buttons fit after ``components``."""
    laid = placed(components)
    return 0 if laid is None else sum(ROW_WIDTH - width for width in laid[1])


def action_rows(components: Sequence[JSON]) -> list[JSON]:
    """The ``components`` of a message body: its action rows, in order."""
    rows = _rows(components)
    return [
        {"type": 1, "components": [c for c, r in zip(components, rows, strict=True) if r == row]}
        for row in sorted(set(rows))
    ]


def _rows(components: Sequence[JSON]) -> list[int]:
    laid = placed(components)
    if laid is None:  # as discord.py refuses an item with no room
        raise ValueError("more components than a message holds")
    return laid[0]


def item_of(component: JSON) -> discord.ui.Item[Any]:
    """The discord.py item that sends ``component`` (a button or a menu of text options)."""
    if component["type"] == SELECT:
        return select_item(component)
    return button_item(component)


def button_item(component: JSON) -> Button:
    style = discord.ButtonStyle(component["style"])
    return discord.ui.Button(label=component["label"], style=style, custom_id=component["custom_id"])


def select_item(component: JSON) -> Select:
    options = [
        discord.SelectOption(label=o["label"], value=o["value"], description=o.get("description"))
        for o in component["options"]
    ]
    return discord.ui.Select(
        custom_id=component["custom_id"],
        placeholder=component["placeholder"],
        min_values=component["min_values"],
        max_values=component["max_values"],
        options=options,
    )


class SentOnly(BaseView):
    """A view that is only sent: its body is the components it was given, as is.

    discord.py serialises every view it sends by calling its ``to_components``; this one returns
    the JSON drawn for it, instead of a discord.py item built per button (or text) only to be
    serialised back (about 100 µs of a Conflict prompt's answer, most of a roll's card,
    ``bench.dispatch_bench``). It is sent stopped and has no items, so discord.py keeps nothing
    of it: a click reaches the cog's ``DynamicItem`` by its custom id (docs/architecture.md,
    "discord.py hooks"). Mixed into the view class it sends as (:class:`SentView` here, a card's
    ``SentLayout`` in ``bot.render.cards``)."""

    def __init__(self, components: list[JSON]) -> None:
        super().__init__(timeout=None)
        self.components = components
        self.stop()

    def to_components(self) -> list[JSON]:
        return self.components


class SentView(SentOnly, discord.ui.View):
    """A message's buttons and menus, in the action rows drawn for them."""


def view_of(components: Sequence[JSON]) -> discord.ui.View | None:
    """The view that sends ``components``, laid out in the rows :func:`action_rows` gives them
    (as discord.py lays out a view's items); None when empty."""
    if not components:
        return None
    return SentView(action_rows(components))


def as_button(build: Callable[P, JSON]) -> Callable[P, Button]:
    """The discord.py button of a component's drawing, for a ``DynamicItem`` or a card."""

    def made(*args: P.args, **kwargs: P.kwargs) -> Button:
        return button_item(build(*args, **kwargs))

    return made


def as_select(build: Callable[P, JSON]) -> Callable[P, Select]:
    """The discord.py menu of a component's drawing, for a ``DynamicItem`` or a form."""

    def made(*args: P.args, **kwargs: P.kwargs) -> Select:
        return select_item(build(*args, **kwargs))

    return made
