"""INTERACTION_CREATE payloads shaped like the ones Discord sends (messages: ``message_payloads``).

discord.py trusts these shapes blindly (a missing `attachment_size_limit` or member `flags` is a
KeyError deep in its parser), so every builder mirrors a payload captured from real Discord.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fake_discord import modal_parts, uploads
from fake_discord.permissions import ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE, USE_EXTERNAL_EMOJIS
from fake_discord.places import CONTEXTS, DM, ELSEWHERE, SERVER, private_channel_json
from fake_discord.world import FakeChannel, FakeGuild, FakeMember, FakeRole, World
from fake_discord.world_json import channel_json, member_json, role_json, user_json

JSON = dict[str, Any]

PING, APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
EPHEMERAL, LOADING = 1 << 6, 1 << 7
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024
GUILD_INSTALL, USER_INSTALL = "0", "1"
APP_ELSEWHERE = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
"""``app_permissions`` where the bot is not a member: what its answers may do (Discord's
interaction docs); in its own DM, also external emojis."""


@dataclass
class Actor:
    """Who is interacting, and where: the three things every interaction payload carries.

    ``place`` (``places.PLACES``) says what kind of channel it is. In a DM or a group DM no
    guild is sent: ``guild`` is then only where typed names are looked up.
    """

    guild: FakeGuild
    channel: FakeChannel
    member: FakeMember
    place: str = SERVER


@dataclass
class Resolved:
    """`data.resolved`: the objects behind user, role, channel and attachment option values."""

    users: dict[str, JSON] = field(default_factory=dict)
    members: dict[str, JSON] = field(default_factory=dict)
    roles: dict[str, JSON] = field(default_factory=dict)
    channels: dict[str, JSON] = field(default_factory=dict)
    attachments: dict[str, JSON] = field(default_factory=dict)
    messages: dict[str, JSON] = field(default_factory=dict)

    def add_member(self, guild: FakeGuild, member: FakeMember) -> str:
        key = str(member.user.id)
        self.users[key] = user_json(member.user)
        held = guild.permissions_of(member)
        self.members[key] = member_json(guild, member, with_user=False, permissions=held)
        return key

    def add_role(self, role: FakeRole) -> str:
        self.roles[str(role.id)] = role_json(role)
        return str(role.id)

    def add_channel(self, guild: FakeGuild, channel: FakeChannel, permissions: int) -> str:
        data = channel_json(guild, channel, permissions=permissions)
        self.channels[str(channel.id)] = data
        return str(channel.id)

    def add_attachment(self, attachment: JSON) -> str:
        self.attachments[str(attachment["id"])] = attachment
        return str(attachment["id"])

    def to_json(self) -> JSON:
        parts = {
            "users": self.users,
            "members": self.members,
            "roles": self.roles,
            "channels": self.channels,
            "attachments": self.attachments,
            "messages": self.messages,
        }
        return {key: value for key, value in parts.items() if value}


def owners(actor: Actor, command: JSON | None = None) -> JSON:
    """``authorizing_integration_owners`` away from the bot's servers, as Discord fills it: the
    member's own install wherever the command may be installed by a member, and in the bot's
    DM the servers' install as "0" where the command may be installed by a server."""
    installs = {str(i) for i in (command or {}).get("integration_types") or [0]}
    found: JSON = {}
    if actor.place == DM and GUILD_INSTALL in installs:
        found[GUILD_INSTALL] = "0"
    if command is None or USER_INSTALL in installs:
        found[USER_INSTALL] = str(actor.member.user.id)
    return found


def interaction(
    world: World,
    actor: Actor,
    kind: int,
    data: JSON | None,
    *,
    message: JSON | None = None,
    command: JSON | None = None,
) -> JSON:
    """The envelope common to every interaction type (``command``: the one used, if any)."""
    if actor.place != SERVER:
        return _interaction_elsewhere(world, actor, kind, data, message, command)
    guild, member = actor.guild, actor.member
    bot_member = guild.member(world.bot.id)
    app_permissions = guild.channel_permissions_of(bot_member, actor.channel) if bot_member else 0
    permissions = guild.channel_permissions_of(member, actor.channel)
    payload: JSON = {
        "id": str(world.ids.next()),
        "application_id": str(world.application_id),
        "type": kind,
        "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
        "version": 1,
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
        "channel_id": str(actor.channel.id),
        "channel": channel_json(guild, actor.channel, permissions=permissions),
        "member": member_json(guild, member, permissions=permissions),
        "app_permissions": str(app_permissions),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if data is not None:
        payload["data"] = data
    if message is not None:
        payload["message"] = message
    return payload


def _interaction_elsewhere(
    world: World, actor: Actor, kind: int, data: JSON | None, message: JSON | None, command: JSON | None
) -> JSON:
    """Where the bot serves no server. In a server it is not in: the guild's id and a partial
    guild, the member, the channel, but no GUILD_CREATE ever told the bot of them. In a DM or a
    group DM: ``user`` instead of ``member``, a channel with recipients, no guild at all."""
    user = actor.member.user
    payload: JSON = {
        "id": str(world.ids.next()),
        "application_id": str(world.application_id),
        "type": kind,
        "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
        "version": 1,
        "channel_id": str(actor.channel.id),
        "app_permissions": str(APP_ELSEWHERE | (USE_EXTERNAL_EMOJIS if actor.place == DM else 0)),
        "locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": owners(actor, command),
        "context": CONTEXTS[actor.place],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if actor.place == ELSEWHERE:
        guild = actor.guild
        permissions = guild.channel_permissions_of(actor.member, actor.channel)
        payload |= {
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "channel": channel_json(guild, actor.channel, permissions=permissions),
            "member": member_json(guild, actor.member, permissions=permissions),
        }
    else:
        payload |= {"channel": private_channel_json(actor.channel, user), "user": user_json(user)}
    if data is not None:
        payload["data"] = data
    if message is not None:
        payload["message"] = message
    return payload


def _command_data(command: JSON, options: list[JSON], resolved: Resolved) -> JSON:
    data: JSON = {"id": str(command["id"]), "name": command["name"], "type": command.get("type", 1)}
    if command.get("guild_id"):
        data["guild_id"] = str(command["guild_id"])
    if options:
        data["options"] = options
    if resolved_json := resolved.to_json():
        data["resolved"] = resolved_json
    return data


def slash_command(world: World, actor: Actor, command: JSON, options: list[JSON], resolved: Resolved) -> JSON:
    """A chat-input command; `options` already nested under subcommand/group options."""
    data = _command_data(command, options, resolved)
    return interaction(world, actor, APPLICATION_COMMAND, data, command=command)


def autocomplete(world: World, actor: Actor, command: JSON, options: list[JSON], resolved: Resolved) -> JSON:
    """Type 4: exactly one option (at the innermost level) carries `focused: true`."""
    data = _command_data(command, options, resolved)
    return interaction(world, actor, AUTOCOMPLETE, data, command=command)


def user_menu(world: World, actor: Actor, command: JSON, target: FakeMember) -> JSON:
    resolved = Resolved()
    target_id = resolved.add_member(actor.guild, target)
    data = _command_data(command, [], resolved) | {"target_id": target_id}
    return interaction(world, actor, APPLICATION_COMMAND, data)


def message_menu(world: World, actor: Actor, command: JSON, message: JSON) -> JSON:
    resolved = Resolved(messages={str(message["id"]): message})
    data = _command_data(command, [], resolved) | {"target_id": str(message["id"])}
    return interaction(world, actor, APPLICATION_COMMAND, data)


def component_click(
    world: World,
    actor: Actor,
    message: JSON,
    component: JSON,
    values: list[str] | None = None,
    resolved: Resolved | None = None,
) -> JSON:
    """Type 3: a button press or select choice on `message` (user/role/channel selects resolve ids)."""
    data: JSON = {"custom_id": component["custom_id"], "component_type": component["type"]}
    if component["type"] != 2:
        data["values"] = values or []
    if resolved is not None and (resolved_json := resolved.to_json()):
        data["resolved"] = resolved_json
    return interaction(world, actor, COMPONENT, data, message=message)


def modal_submit(
    world: World,
    actor: Actor,
    modal: JSON,
    values: Mapping[str, str | list[str] | bool],
    *,
    message: JSON | None = None,
    files: Mapping[str, Sequence[JSON]] | None = None,
) -> JSON:
    """Type 5: echo the modal's layout back with each text input's `value` filled in, each
    picked part (``modal_parts``) with the option values or flag given for its custom_id, and
    each file upload's files (``uploads``) resolved.

    A modal opened from a component carries that component's `message`, as Discord sends it:
    only then may the bot answer by updating it (response types 6 and 7).
    """

    def answer(component: JSON) -> JSON:
        if component.get("type") == uploads.FILE_UPLOAD:
            return uploads.answer_upload(component, files or {})
        if component.get("type") in modal_parts.PICKED:
            given = values.get(component["custom_id"])
            return modal_parts.answer(component, [given] if isinstance(given, str) else given)
        if component.get("type") == 4:
            return {
                "type": 4,
                "custom_id": component["custom_id"],
                "value": str(values.get(component["custom_id"], "")),
            }
        if "component" in component:
            return {"type": component["type"], "component": answer(component["component"])}
        return {"type": component["type"], "components": [answer(c) for c in component.get("components", [])]}

    data = {"custom_id": modal["custom_id"], "components": [answer(c) for c in modal.get("components", [])]}
    uploads.resolve_uploads(data, files or {})
    return interaction(world, actor, MODAL_SUBMIT, data, message=message)


def text_inputs(modal: JSON) -> list[JSON]:
    """A modal's text inputs as {custom_id, label, required, value, paragraph}, in action rows
    or (newer) label wrappers; `value` is what the input opens with ("" when empty)."""
    found: list[JSON] = []

    def walk(components: list[JSON], label: str | None) -> None:
        for component in components:
            if component.get("type") == 4:
                name = component.get("label") or label or component["custom_id"]
                found.append(
                    {
                        "custom_id": component["custom_id"],
                        "label": name,
                        "required": component.get("required", True),
                        "value": str(component.get("value") or ""),
                        "paragraph": component.get("style") == 2,
                    }
                )
            elif component.get("type") == 18 and isinstance(component.get("component"), dict):
                walk([component["component"]], component.get("label"))
            else:
                walk(component.get("components") or [], label)

    walk(modal.get("components") or [], None)
    return found
