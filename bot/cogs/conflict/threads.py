"""A Conflict in a thread of its own (``/setup conflict-threads on``).

A Conflict lives in one channel, found by its id (``storage.conflicts``); a thread *is* a channel
to Discord, so a Conflict run in a thread is simply stored under the thread's id. Everything
that follows the Conflict's channel then goes to the thread with no more said: the board, the
prompts and their pings, the outbox and the catch-up after a crash, and the commands typed in
the thread act on its Conflict. Only two things here know the thread has a parent: ``/conflict
start`` (the thread is made, the channel gets one line linking to it) and the move that ends it,
which queues the thread's closing in its own transaction (``bot.cogs.conflict.answers.own_thread_parent``):
the outbox then posts the summary in the channel and archives the thread, once, even across a
crash (``bot.workers.outbox``).

Without Create Public Threads or Send Messages in Threads the Conflict runs in the channel as
before, and whoever started it is told privately, once, which permission the bot lacks.

The thread is archived, not locked: locking needs Manage Threads, which the bot does not ask
for, and an archived thread stays open to players who want to talk the fight over (a message
there reopens it). A thread archived in mid-fight (by a moderator, or by Discord after a quiet
day) is opened again by the bot's next post, as Discord does for any unlocked thread, or by the
bot itself before it edits the board there (``bot.workers.threads``); one a moderator locks
stays shut, and its Conflict waits until they unlock it. A deleted thread takes its
Conflict's messages with it, as a deleted channel does (``bot.workers.outbox`` settles them as
gone), and the Narrator can start the next fight from the channel.
"""

import logging
from typing import Literal

import discord

from bot import replies
from bot.checks import THREAD_PERMISSIONS, missing_thread_permissions, permission_names
from bot.client import Interaction
from bot.cogs.conflict.answers import Reply
from bot.served import guild_id_of

log = logging.getLogger(__name__)

ARCHIVE_AFTER: Literal[1440] = 1440
"""Minutes of quiet before Discord archives the thread by itself (a day: a fight paused overnight
drops out of the thread list; any post brings it back)."""
NAME_LIMIT = 100
"""Characters in a thread's name, Discord's limit."""
SHOWN_THREADS = 5


def thread_name(stakes: str) -> str:
    """ "Conflict: <stakes>" on one line, cut to Discord's 100 characters."""
    name = " ".join(f"Conflict: {stakes}".split())
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"


def missing_note(missing: list[str]) -> str:
    """What the Narrator is told, privately, when the fight cannot have its thread."""
    listed = permission_names(missing)
    return (
        f"This server runs each Conflict in a thread, but the bot lacks {listed} here, so this "
        "one runs in the channel. Give the bot's role that permission (server or channel "
        "settings), or turn threads off with `/setup conflict-threads setting:off`."
    )


async def thread_for(interaction: Interaction, stakes: str) -> tuple[int | None, str | None]:
    """The new thread a Conflict started here runs in (its id), or None to run it in the channel,
    with the note for the Narrator when a permission is missing."""
    settings = await interaction.client.storage.settings.get(guild_id_of(interaction))
    channel = interaction.channel
    if not settings.conflict_threads or not isinstance(channel, discord.TextChannel):
        return None, None  # threads off, or already in a thread (or a channel without threads)
    if missing := missing_thread_permissions(interaction):
        return None, missing_note(missing)
    try:
        thread = await channel.create_thread(
            name=thread_name(stakes),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=ARCHIVE_AFTER,
            reason="A Conflict runs in a thread of its own (/setup conflict-threads)",
        )
    except discord.Forbidden:  # a channel's own overwrites can take the permission away
        return None, missing_note([THREAD_PERMISSIONS[0][1]])
    return thread.id, None


async def drop_thread(interaction: Interaction, thread_id: int) -> None:
    """A thread made for a Conflict that then could not be saved goes away again: deleted, when
    the bot may (Discord asks Manage Threads even of a thread's maker), else archived, so no empty
    thread is left in the channel's list. Refusals are checked before the thread is made
    (``/conflict start``), so only an error saving comes here."""
    http = interaction.client.http
    try:
        if interaction.app_permissions.manage_threads:
            await http.delete_channel(thread_id, reason="The Conflict could not be started")
        else:
            await http.edit_channel(thread_id, archived=True, reason="The Conflict could not be started")
    except (discord.HTTPException, TimeoutError) as error:
        log.warning("Could not remove the thread %s of a Conflict that did not start: %s", thread_id, error)


async def send_to_thread(interaction: Interaction, reply: Reply) -> None:
    """The Conflict began in its thread: the channel gets one line linking to it, and the
    outbox posts the opening message in the thread (it answers no interaction there), before
    the board, as a fight in a channel shows them."""
    flow = interaction.client.conflicts
    link = f"⚔️ A Conflict begins in <#{reply.channel_id}>: join the fight there."
    try:
        await replies.send(interaction, link)
    except (discord.HTTPException, TimeoutError) as error:
        log.warning("Could not link the Conflict thread %s: %s", reply.channel_id, error)
    if reply.outcome is not None:
        flow.outbox.unanswered(reply.outcome, refused=True)
        await flow.outbox.settle(reply.guild_id, reply.channel_id)
    flow.boards.refresh(reply.guild_id, reply.channel_id, reply.applied)


async def fights_in_threads(interaction: Interaction) -> str | None:
    """Told to whoever types a Conflict command in a channel whose fights run in threads of it:
    which threads (their live Conflicts, at most five), so they can go there."""
    channel, me = interaction.channel, interaction.client.user
    if not isinstance(channel, discord.TextChannel) or me is None:
        return None
    conflicts = interaction.client.storage.conflicts
    found: list[int] = []
    for thread in channel.threads:  # discord.py's cache: the active threads of the channel
        if thread.owner_id == me.id and await conflicts.get(thread.guild.id, thread.id) is not None:
            found.append(thread.id)
        if len(found) == SHOWN_THREADS:
            break
    if not found:
        return None
    listed = ", ".join(f"<#{thread_id}>" for thread_id in found)
    return (
        "There is no Conflict running in this channel: its fights run in their own threads "
        f"({listed}). Use the command there."
    )
