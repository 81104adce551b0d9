"""A member's permissions in a channel, as the fake computes them for an interaction (Discord's
order: the server's, then @everyone's overwrite, the member's roles' together, the member's own;
a thread takes its parent's; nothing without View Channel; an administrator holds all)."""

import pytest

from fake_discord.payloads import Actor, interaction
from fake_discord.permissions import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    MANAGE_THREADS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)
from fake_discord.world import PUBLIC_THREAD, FakeChannel, FakeOverwrite, World, default_world


def sends(world: World, channel: FakeChannel, who: str) -> int:
    member = world.guild.member(who)
    assert member is not None
    return world.guild.channel_permissions_of(member, channel)


@pytest.fixture
def world() -> World:
    return default_world()


def test_without_overwrites_a_channel_gives_the_servers_permissions(world: World) -> None:
    table = world.guild.channels[0]
    assert sends(world, table, "player1") == EVERYONE_PERMISSIONS


def test_overwrites_apply_everyone_then_roles_then_the_member(world: World) -> None:
    guild = world.guild
    role, player2 = guild.role("Narrator"), guild.member("player2")
    assert role is not None and player2 is not None
    channel = FakeChannel(
        world.ids.next(),
        "rules",
        overwrites=[
            FakeOverwrite(guild.id, deny=SEND_MESSAGES),
            FakeOverwrite(role.id, allow=SEND_MESSAGES | MANAGE_THREADS),
            FakeOverwrite(player2.user.id, type=1, allow=SEND_MESSAGES),
        ],
    )
    guild.channels.append(channel)
    assert not sends(world, channel, "player1") & SEND_MESSAGES
    assert (
        sends(world, channel, "narrator") & (SEND_MESSAGES | MANAGE_THREADS) == SEND_MESSAGES | MANAGE_THREADS
    )
    assert sends(world, channel, "player2") & SEND_MESSAGES
    thread = FakeChannel(world.ids.next(), "aside", type=PUBLIC_THREAD, parent_id=channel.id)
    guild.channels.append(thread)
    assert not sends(world, thread, "player1") & SEND_MESSAGES  # the parent's overwrites
    hidden = FakeChannel(world.ids.next(), "gm", overwrites=[FakeOverwrite(guild.id, deny=VIEW_CHANNEL)])
    guild.channels.append(hidden)
    assert sends(world, hidden, "player1") == 0


def test_an_administrator_holds_everything_whatever_the_channel_says(world: World) -> None:
    guild = world.guild
    role = guild.role("Narrator")
    assert role is not None
    role.permissions |= ADMINISTRATOR
    channel = FakeChannel(
        world.ids.next(), "locked", overwrites=[FakeOverwrite(guild.id, deny=ALL_PERMISSIONS)]
    )
    assert sends(world, channel, "narrator") == ALL_PERMISSIONS


def test_an_interaction_carries_the_members_permissions_in_its_channel(world: World) -> None:
    guild = world.guild
    channel = FakeChannel(world.ids.next(), "rules", overwrites=[FakeOverwrite(guild.id, deny=SEND_MESSAGES)])
    guild.channels.append(channel)
    member = guild.member("player1")
    assert member is not None
    payload = interaction(world, Actor(guild, channel, member), 2, None)
    held = EVERYONE_PERMISSIONS & ~SEND_MESSAGES
    assert payload["member"]["permissions"] == payload["channel"]["permissions"] == str(held)
