"""Every persistent button and menu (a ``DynamicItem``) owns its custom_id's prefix: discord.py
hands a click to the first template that matches, so two features sharing ``mab:next:`` once
sent the recap's "Schedule the next session" to the Conflict's "Next round"."""

import re

import discord

import bot.app  # noqa: F401  (every cog, so every persistent component, is imported)


def dynamic_items() -> list[type[discord.ui.DynamicItem]]:  # type: ignore[type-arg]
    found, todo = [], list(discord.ui.DynamicItem.__subclasses__())
    while todo:
        item = todo.pop()
        found.append(item)
        todo += item.__subclasses__()
    return [item for item in found if getattr(item, "__discord_ui_compiled_template__", None) is not None]


def prefix(template: re.Pattern[str]) -> str:
    """The literal start of a template, up to its first group or pattern sign."""
    return re.split(r"[(\[\\.?*+]", template.pattern, maxsplit=1)[0]


def test_no_two_persistent_components_share_a_custom_id_prefix() -> None:
    owners = {item.__qualname__: prefix(item.__discord_ui_compiled_template__) for item in dynamic_items()}
    assert len(owners) > 30
    for name, start in owners.items():
        assert start.startswith("mab:"), (name, start)
        for other, theirs in owners.items():
            assert other == name or not theirs.startswith(start), f"{name} ({start!r}) takes {other}'s clicks"
