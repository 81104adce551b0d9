"""Threads in the fake Discord, through discord.py's own calls (``fake_discord.thread_routes``):
made in a text channel or from a message, posted in by id, archived, locked and deleted, each
change reaching discord.py's cache through the gateway, with Discord's permissions and codes."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from fake_discord.harness import Harness, running_bot
from fake_discord.permissions import CREATE_PUBLIC_THREADS, MANAGE_THREADS, SEND_MESSAGES_IN_THREADS
from fake_discord.thread_routes import archive_by_hand
from fake_discord.world import default_world
from tests.fake_discord.sample_bot import SampleBot


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    async with running_bot(lambda: SampleBot(sync_in_setup=True), world=default_world()) as harness:
        yield harness


def table(h: Harness) -> discord.TextChannel:
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def take_away(h: Harness, permission: int) -> None:
    """Take ``permission`` from everyone (the bot holds it through @everyone, as on Discord)."""
    everyone = h.world.guild.role(h.world.guild.id)
    assert everyone is not None
    everyone.permissions &= ~permission


async def cached(h: Harness, thread_id: int, *, present: bool = True) -> bool:
    """Whether discord.py's cache came to hold the thread (or, ``present`` False, to drop it)."""
    guild = h.bot.get_guild(h.world.guild.id)
    assert guild is not None
    for _ in range(100):
        if (guild.get_thread(thread_id) is not None) == present:
            return True
        await h.fake.wait_for(lambda: False, 0.01)
    return False


async def fight_thread(h: Harness) -> discord.Thread:
    return await table(h).create_thread(
        name="Conflict: the vault", type=discord.ChannelType.public_thread, auto_archive_duration=1440
    )


async def test_a_thread_is_made_cached_and_posted_in_by_its_id(h: Harness) -> None:
    thread = await fight_thread(h)
    assert (thread.parent_id, thread.owner_id, thread.type) == (
        h.channel.id,
        h.world.bot.id,
        discord.ChannelType.public_thread,
    )
    assert await cached(h, thread.id)
    sent = await thread.send("Round 1")
    assert h.fake.messages[sent.id]["channel_id"] == str(thread.id)
    assert h.violations == []


async def test_a_thread_made_from_a_message_takes_its_id(h: Harness) -> None:
    message = await table(h).send("The vault")
    thread = await message.create_thread(name="the vault")
    assert thread.id == message.id and thread.parent_id == h.channel.id
    with pytest.raises(discord.HTTPException) as again:
        await message.create_thread(name="the vault")
    assert again.value.code == 160004
    assert h.violations == []


async def test_without_create_public_threads_discord_refuses(h: Harness) -> None:
    take_away(h, CREATE_PUBLIC_THREADS)
    with pytest.raises(discord.Forbidden) as refused:
        await fight_thread(h)
    assert (refused.value.status, refused.value.code) == (403, 50013)


async def test_without_send_messages_in_threads_the_bot_cannot_post_there(h: Harness) -> None:
    thread = await fight_thread(h)
    take_away(h, SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden):
        await thread.send("Round 1")


async def test_archiving_drops_the_thread_from_the_cache_and_a_post_opens_it_again(h: Harness) -> None:
    thread = await fight_thread(h)
    board = await thread.send("Board")
    await thread.edit(archived=True)
    with pytest.raises(discord.HTTPException) as refused:
        await board.edit(content="Board, later")
    error = refused.value
    assert (error.status, error.code, error.text) == (400, 50083, "Thread is archived")
    fake_thread = h.world.guild.channel(thread.id)
    assert fake_thread is not None and fake_thread.archived
    assert await cached(h, thread.id, present=False)
    await thread.send("Still fighting")
    assert not fake_thread.archived
    assert await cached(h, thread.id)
    await board.edit(content="Board, later")


async def test_a_locked_archived_thread_refuses_posts_unless_the_bot_manages_threads(h: Harness) -> None:
    thread = await fight_thread(h)
    await archive_by_hand(h.fake, thread.id, locked=True)
    with pytest.raises(discord.HTTPException) as refused:
        await thread.send("Still fighting")
    assert (refused.value.status, refused.value.code) == (400, 50083)
    with pytest.raises(discord.Forbidden):
        await thread.edit(archived=False)
    role = h.world.guild.role("Mistborn Bot")
    assert role is not None
    role.permissions |= MANAGE_THREADS
    await thread.edit(archived=False, locked=False)
    await thread.send("Still fighting")
    assert h.violations == []


async def test_the_bot_archives_and_locks_its_own_thread_only_with_manage_threads(h: Harness) -> None:
    thread = await fight_thread(h)
    with pytest.raises(discord.Forbidden):
        await thread.edit(archived=True, locked=True)
    await thread.edit(archived=True)
    fake_thread = h.world.guild.channel(thread.id)
    assert fake_thread is not None and fake_thread.archived and not fake_thread.locked


async def test_a_command_typed_in_a_thread_comes_from_the_thread(h: Harness) -> None:
    thread = await fight_thread(h)
    fake_thread = h.world.guild.channel(thread.id)
    assert fake_thread is not None
    h.channel = fake_thread
    record = await h.slash("/ping")
    channel = record.payload["channel"]
    assert (record.payload["channel_id"], channel["type"], channel["parent_id"]) == (
        str(thread.id),
        11,
        str(h.world.guild.channels[0].id),
    )
    assert record.messages[0]["channel_id"] == str(thread.id)
    assert h.violations == []


async def test_a_deleted_thread_leaves_the_cache(h: Harness) -> None:
    thread = await fight_thread(h)
    assert await cached(h, thread.id)
    await h.fake.delete_channel(thread.id)
    assert await cached(h, thread.id, present=False)
    with pytest.raises(discord.NotFound):
        await thread.send("Anyone?")


async def test_the_bot_deletes_even_its_own_thread_only_with_manage_threads(h: Harness) -> None:
    thread = await fight_thread(h)
    with pytest.raises(discord.Forbidden):
        await thread.delete()
    assert h.world.guild.channel(thread.id) is not None
    role = h.world.guild.role("Mistborn Bot")
    assert role is not None
    role.permissions |= MANAGE_THREADS
    await thread.delete()
    assert h.world.guild.channel(thread.id) is None
    assert await cached(h, thread.id, present=False)
    with pytest.raises(discord.NotFound):
        await thread.delete()
    assert h.violations == []
