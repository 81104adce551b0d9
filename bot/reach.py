"""Where things are said, and who may read there: the rule of docs/rulings.md §7.6, beside
``bot.access`` (docs/architecture.md, "Access").

Every journal entry and every roll keeps where it was said (:func:`origin_of`: the table's
channel, a thread's parent, and the private thread if it was one), and whoever reads the past
(``/session journal`` and ``recap``, ``/sheet history``, ``/history rolls``, the web view's
Sessions pages) reads it through one rule:

* a **Narrator** reads everything (their reach is None);
* a **player** reads what was said in a channel they may view (Discord's View Channel, with the
  channel's overwrites), and in a public thread of one; what was said in a **private thread**
  only if they took part in it: an entry of theirs was said there, or they are asking from
  inside it. The bot has no members intent, so it cannot list a private thread's members;
  taking part is what it can know;
* the **table's recap card** reads what anyone reading the session's channel saw: that channel,
  no private thread (:func:`table_reach`);
* a roll logged before channels were kept has none, and stays listed as it was.

:func:`reads` is the rule on plain data; storage takes its SQL form, the
:class:`~storage.places.Reach` itself (``storage.places.reach_clause``), and
``tests/bot/test_access.py`` holds the two to the same rows. The bot process learns which
channels a member views from discord.py's guild cache and the member the interaction carries
(:func:`reach_of`); the web view, which may run without a gateway, asks Discord
(``bot.web.reach``).
"""

from typing import Protocol

import discord

from bot.access import Caller
from bot.served import table_channel_of
from storage import Storage
from storage.places import Origin, Reach


class Said(Protocol):
    """What the rule reads of a journal entry's or a roll's row: where it was said."""

    @property
    def channel_id(self) -> int | None: ...
    @property
    def private_thread_id(self) -> int | None: ...


def reads(reach: Reach | None, said: Said) -> bool:
    """Whether a member with ``reach`` (None: a Narrator) reads what was said at ``said``."""
    if reach is None:
        return True
    in_channel = said.channel_id is None or said.channel_id in reach.channels
    thread = said.private_thread_id
    return in_channel and (thread is None or thread in reach.threads)


def reads_channel(reach: Reach | None, channel_id: int) -> bool:
    """Whether ``reach`` reads a channel's table (a session played there)."""
    return reads(reach, Origin(channel_id=channel_id))


def table_reach(channel_id: int) -> Reach:
    """What anyone who reads ``channel_id`` reads: the table's own recap card (no private thread)."""
    return Reach(channels=frozenset({channel_id}))


def private_thread_of(interaction: discord.Interaction[discord.Client]) -> int | None:
    """The private thread the interaction came from, if it came from one."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.type is discord.ChannelType.private_thread:
        return channel.id
    return None


def origin_of(interaction: discord.Interaction[discord.Client]) -> Origin:
    """Where the interaction's member said what it tells: the table (a thread's parent), the
    private thread if it came from one, and the member."""
    return Origin(
        channel_id=table_channel_of(interaction),
        private_thread_id=private_thread_of(interaction),
        actor_id=interaction.user.id,
    )


def viewable_channels(interaction: discord.Interaction[discord.Client]) -> frozenset[int]:
    """The server's channels (threads aside) the interaction's member may view, by discord.py's
    ``permissions_for`` over the guild cache (channels, overwrites and roles come with the
    ``guilds`` intent) and the roles the interaction carries; the table asked from always."""
    found = {table_channel_of(interaction)}
    guild, member = interaction.guild, interaction.user
    if guild is not None and isinstance(member, discord.Member):
        found |= {c.id for c in guild.channels if c.permissions_for(member).view_channel}
    return frozenset(found)


async def reach_of(
    interaction: discord.Interaction[discord.Client], storage: Storage, caller: Caller
) -> Reach | None:
    """Where the caller reads (None: everywhere, a Narrator): the channels they may view, and
    the private threads they took part in or are asking from."""
    if caller.narrator:
        return None
    threads = await storage.journal.threads_of(caller.guild_id, caller.user_id)
    asking_from = private_thread_of(interaction)
    if asking_from is not None:
        threads |= {asking_from}
    return Reach(channels=viewable_channels(interaction), threads=threads)
