"""Where ``/say`` may speak, through the real dispatch (docs/rulings.md §7.5): only where the
speaker may write (a read-only channel, an announcement channel and a locked thread refuse a
player, privately, and post nothing), and never through a webhook a moderator moved to another
channel."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fake_discord.payloads import JSON
from fake_discord.permissions import MANAGE_THREADS, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS
from fake_discord.world import ANNOUNCEMENT, PUBLIC_THREAD, FakeChannel, FakeOverwrite
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, running_bot_env, table_world


@pytest.fixture
async def places(tmp_path: Path) -> AsyncIterator[BotEnv]:
    """#table and #ooc as usual, and: #rules, read-only but for the Narrator; #news, an
    announcement channel only the Narrator role writes in; a thread of #table a moderator
    locked, where the Narrator holds Manage Threads. player1 plays Vin; the Narrator, Straff."""
    world = table_world()
    guild = world.guild
    table = guild.channels[0]
    narrator, role = guild.member("narrator"), guild.role("Narrator")
    assert narrator is not None and role is not None
    read_only = FakeOverwrite(guild.id, deny=SEND_MESSAGES | SEND_MESSAGES_IN_THREADS)
    guild.channels += [
        FakeChannel(
            world.ids.next(),
            "rules",
            overwrites=[read_only, FakeOverwrite(narrator.user.id, type=1, allow=SEND_MESSAGES)],
        ),
        FakeChannel(
            world.ids.next(),
            "news",
            type=ANNOUNCEMENT,
            overwrites=[read_only, FakeOverwrite(role.id, allow=SEND_MESSAGES)],
        ),
        FakeChannel(world.ids.next(), "the-vault", type=PUBLIC_THREAD, parent_id=table.id, locked=True),
    ]
    table.overwrites.append(FakeOverwrite(narrator.user.id, type=1, allow=MANAGE_THREADS))
    async with running_bot_env(tmp_path / "say.sqlite", world) as env:
        for name, kind, user in (
            ("Vin", CharacterKind.HERO, "player1"),
            ("Straff", CharacterKind.VILLAIN, "narrator"),
        ):
            made = make_character(name=name, kind=kind, owner_id=env.user_id(user))
            stored = await env.storage.characters.create(env.guild_id, made)
            await env.storage.active.set(env.guild_id, env.user_id(user), stored.id)
        yield env


def lines_in(env: BotEnv, channel: str) -> list[str]:
    """What the channel (by name) was told, through a webhook or by the bot (no private answer)."""
    found = env.world.guild.channel(channel)
    assert found is not None
    messages = env.harness.fake.messages.values()
    return [m["content"] for m in messages if m["channel_id"] == str(found.id) and not m["flags"] & 64]


def go(env: BotEnv, channel: str) -> None:
    found = env.world.guild.channel(channel)
    assert found is not None
    env.harness.channel = found


@pytest.mark.parametrize(
    ("channel", "why"),
    [
        ("rules", "You cannot send messages in this channel"),
        ("news", "You cannot send messages in this announcement channel"),
        ("the-vault", "This thread is locked"),
    ],
)
async def test_a_player_speaks_only_where_they_may_write(places: BotEnv, channel: str, why: str) -> None:
    env = places
    go(env, channel)
    refused = await env.slash("/say text:Hear me.", user="player1")
    assert refused.ephemeral and why in refused.content
    form = await env.slash("/say", user="player1")  # no form to type a line that cannot go
    assert form.modal is None and form.ephemeral and why in form.content
    assert lines_in(env, channel) == [] and env.harness.fake.webhooks == {}


@pytest.mark.parametrize("channel", ["rules", "news", "the-vault"])
async def test_whoever_may_write_there_speaks(places: BotEnv, channel: str) -> None:
    env = places
    go(env, channel)
    said = await env.slash("/say text:Kneel.", user="narrator")
    assert said.ephemeral and "Said as Straff." in said.content
    assert lines_in(env, channel) == ["Kneel."]


def hook_of(env: BotEnv) -> JSON:
    [hook] = env.harness.fake.webhooks.values()
    return hook


async def test_a_webhook_moved_to_another_channel_carries_no_line_there(places: BotEnv) -> None:
    env = places
    await env.slash("/say text:One.", user="player1")
    ooc = env.world.guild.channel("ooc")
    assert ooc is not None
    moved = hook_of(env)
    moved["channel_id"] = str(ooc.id)  # a moderator moved it, in Discord's client
    reply = await env.slash("/say text:Two.", user="player1")
    assert "Said as Vin." in reply.content
    assert lines_in(env, "table") == ["One.", "Two."] and lines_in(env, "ooc") == []
    assert len(env.harness.fake.webhooks) == 2  # #table has a webhook of its own again
    go(env, "ooc")
    await env.slash("/say text:Three.", user="player1")  # the moved one serves #ooc now
    assert lines_in(env, "ooc") == ["Three."] and len(env.harness.fake.webhooks) == 2
    assert env.harness.violations == []
