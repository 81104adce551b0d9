"""Where a member acts besides the bot's servers, as Discord has it for an app a member installed
for themselves: a server the bot is not in, a DM with the bot, a group DM.

Discord tells these apart by the interaction's ``context`` (0 in any server, 1 in the bot's DM, 2
in a group DM or another DM) and by who installed the app for it (``authorizing_integration_owners``:
"0" a server, "1" the member). In a server the bot is not in the interaction still names the
server, but the bot was never sent it (no GUILD_CREATE) and may not post in its channels; in a DM
or a group DM there is a ``user`` and no guild at all. The objects are made on first use and kept
on the :class:`~fake_discord.world.World`, so a member finds the same channel each time.
"""

from __future__ import annotations

from typing import Any

from fake_discord.permissions import EVERYONE_PERMISSIONS
from fake_discord.world import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, World
from fake_discord.world_json import user_json

JSON = dict[str, Any]
SERVER, ELSEWHERE, DM, GROUP = "server", "elsewhere", "dm", "group"
PLACES = {
    SERVER: "a channel of the bot's server",
    ELSEWHERE: "a server the bot is not in (the app installed by the member)",
    DM: "a direct message with the bot",
    GROUP: "a group DM (the app installed by the member)",
}
"""Where a member may act (``payloads.Actor.place``), as the console's ``!where`` names them."""
CONTEXTS = {SERVER: 0, ELSEWHERE: 0, DM: 1, GROUP: 2}
"""The interaction ``context`` Discord sends from each place."""
DM_CHANNEL, GROUP_DM_CHANNEL = 1, 3


def server_without_bot(world: World) -> FakeGuild:
    """The server the bot is not in, where members use the app they installed themselves."""
    if world.elsewhere is None:
        guild_id = world.ids.next()
        world.elsewhere = FakeGuild(
            id=guild_id,
            name="Another Server",
            owner_id=world.ids.next(),
            roles=[FakeRole(guild_id, "@everyone", EVERYONE_PERMISSIONS)],
            channels=[FakeChannel(world.ids.next(), "general")],
            members=[],
        )
    return world.elsewhere


def member_elsewhere(world: World, member: FakeMember) -> FakeMember:
    """``member``'s user as a member of :func:`server_without_bot` (joined on first use)."""
    guild = server_without_bot(world)
    found = guild.member(member.user.id)
    if found is None:
        found = FakeMember(member.user)
        guild.members.append(found)
    return found


def private_channel(world: World, place: str, user: FakeUser, dm_id: int | None = None) -> FakeChannel:
    """The user's DM with the bot (``dm_id``: the one the bot opened, if it did) or a group DM
    the user is in; the same channel each time."""
    key = (place, user.id)
    if key not in world.private:
        kind = DM_CHANNEL if place == DM else GROUP_DM_CHANNEL
        name = f"@{user.name}" if place == DM else f"{user.name}'s group"
        world.private[key] = FakeChannel(dm_id or world.ids.next(), name, type=kind)
    return world.private[key]


def seat(
    world: World, member: FakeMember, place: str, dm_channels: dict[int, int]
) -> tuple[FakeGuild, FakeChannel, FakeMember]:
    """Where ``member`` acts in ``place`` (not the bot's server): the guild, channel and member an
    interaction there carries. In a DM or a group DM the guild is the bot's, only to look up
    typed names; the bot's DM with them is the one it opened (``dm_channels``), or becomes it."""
    if place == ELSEWHERE:
        guild = server_without_bot(world)
        return guild, guild.channels[0], member_elsewhere(world, member)
    opened = dm_channels.get(member.user.id) if place == DM else None
    channel = private_channel(world, place, member.user, opened)
    if place == DM:
        dm_channels.setdefault(member.user.id, channel.id)  # the bot may post there
    return world.guild, channel, member


def unreachable(world: World, channel_id: int, bot_dms: set[int]) -> bool:
    """A channel the bot may not post in: one of a server it is not in, or a DM or group DM that
    is not its own DM with someone (``bot_dms``)."""
    elsewhere = world.elsewhere is not None and world.elsewhere.channel(channel_id) is not None
    private = any(c.id == channel_id for c in world.private.values()) and channel_id not in bot_dms
    return elsewhere or private


def private_channel_json(channel: FakeChannel, user: FakeUser) -> JSON:
    """A DM or group DM as an interaction carries it: no guild, its recipients."""
    data: JSON = {
        "id": str(channel.id),
        "type": channel.type,
        "last_message_id": None,
        "flags": 0,
        "recipients": [user_json(user)],
    }
    if channel.type == GROUP_DM_CHANNEL:
        data |= {"name": channel.name, "icon": None, "owner_id": str(user.id)}
    return data
