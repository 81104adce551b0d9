"""What a person in the console or a test sees and points at on the bot's messages.

Ephemeral messages are seen only by whoever caused them; a button or a select is found by
custom_id, by its label as the console shows it, or by its number; a select's choices are
option labels or values, or member, role and channel names for those selects.
"""

from __future__ import annotations

from typing import Any

from fake_discord.commandline import CommandLineError
from fake_discord.payloads import EPHEMERAL, Actor, Resolved
from fake_discord.typed import fold
from fake_discord.world import FakeMember

JSON = dict[str, Any]
SELECTS_BY_ID = {5: "member", 6: "role", 7: "mentionable", 8: "channel"}


def find_component(
    messages: list[JSON], target: str, viewer: FakeMember, kinds: set[int] | None = None
) -> tuple[JSON, JSON]:
    """The first of ``messages`` (newest first) ``viewer`` sees with a component that is
    ``target``, and that component (``Harness.find_component`` says how it is named)."""
    visible = [c for c in messages if visible_to(c, viewer)]
    wanted = label_key(target)
    for candidate in visible:
        for component in _usable(candidate, kinds):
            names = {label_key(str(component.get(key) or "")) for key in ("label", "placeholder")}
            if target == component["custom_id"] or (wanted and wanted in names):
                return candidate, component
    if target.strip().isdigit():
        for candidate in visible:
            found = _usable(candidate, kinds)
            if found:
                index = int(target) - 1
                if 0 <= index < len(found):
                    return candidate, found[index]
                raise CommandLineError(f"the newest message has {len(found)} of those, not {target}")
    raise CommandLineError(f"no component {target!r} on any message {viewer.user.name} can see")


def select_values(component: JSON, values: list[str], actor: Actor) -> tuple[list[str], Resolved]:
    """What a select sends for ``values`` as a person names them, and what those resolve to."""
    resolved = Resolved()
    if component["type"] == 3:
        options = component.get("options") or []
        chosen = []
        for value in values:
            option = next(
                (
                    o
                    for o in options
                    if value in (o["value"], o["label"]) or value.lower() == o["label"].lower()
                ),
                None,
            )
            if option is None:
                raise CommandLineError(
                    f"{value!r} is not an option ({', '.join(o['label'] for o in options)})"
                )
            chosen.append(option["value"])
        return chosen, resolved
    guild, ids = actor.guild, []
    for value in values:
        if component["type"] in (5, 7) and (member := guild.member(value)) is not None:
            ids.append(resolved.add_member(guild, member))
        elif component["type"] in (6, 7) and (role := guild.role(value)) is not None:
            ids.append(resolved.add_role(role))
        elif component["type"] == 8 and (channel := guild.channel(value)) is not None:
            ids.append(resolved.add_channel(guild, channel, guild.permissions_of(actor.member)))
        else:
            raise CommandLineError(f"no {SELECTS_BY_ID[component['type']]} {value!r}")
    return ids, resolved


def visible_to(message: JSON, viewer: FakeMember) -> bool:
    """Ephemeral messages are seen only by the member whose interaction produced them (the
    console shows each member only what Discord would show them)."""
    if not int(message.get("flags") or 0) & EPHEMERAL:
        return True
    return str((message.get("interaction_metadata") or {}).get("user", {}).get("id")) == str(viewer.user.id)


def label_key(label: str) -> str:
    """A label as :meth:`Harness.find_component` compares it: folded, without leading marks."""
    folded = fold(label)
    start = next((i for i, char in enumerate(folded) if char.isalnum()), len(folded))
    return folded[start:]


def _usable(message: JSON, kinds: set[int] | None) -> list[JSON]:
    """The components of `message` a person can press or choose in, in the order shown."""
    return [
        component
        for component in _walk(message.get("components") or [])
        if (kinds is None or component.get("type") in kinds) and "custom_id" in component
    ]


def _walk(components: list[JSON]) -> list[JSON]:
    found: list[JSON] = []
    for component in components:
        found.append(component)
        found += _walk(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                found += _walk([component[key]])
    return found
