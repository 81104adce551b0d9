"""Ending a session while a Conflict still runs at its table (docs/architecture.md, "Sessions").

``/session end`` looks for a live Conflict in the channel or in one of its threads first. With
one running, the Narrator is warned privately, with a button to end the session anyway; the
fight itself goes on. Ended with a fight running (by the button), the recap says so: a line per
Conflict is journaled with the close (``bot.workers.session_end.close_session``), so the card
posted now and every later ``/session recap`` agree. The button carries the session's id, so
it works after a restart and never ends a later session.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.cogs.sessions.schedule import schedule_button
from bot.errors import BotError
from bot.night_awards import offer
from bot.render.common import plain
from bot.render.recap import recap_card
from bot.served import guild_id_of, table_channel_of
from bot.workers.session_end import close_session
from rules.conflict import Conflict, Phase
from rules.errors import RulesError
from rules.journal import EntryKind, JournalEntry
from storage.conflict_documents import load_stored
from storage.journal import TableSession
from storage.sql import utc_now

NO_SESSION = "No session is open in this channel. A Narrator starts one with `/session start`."
CONFIRM = r"mab:sessend:(?P<session>\d+)"


async def live_fights(interaction: Interaction) -> list[Conflict]:
    """The live Conflicts at this table: in its channel, or in a thread of it (a fight in a thread
    of its own, ``/setup conflict-threads``)."""
    client, guild_id = interaction.client, guild_id_of(interaction)
    table = table_channel_of(interaction)
    fights = []
    for channel_id in await client.storage.conflicts.channels_in(guild_id):
        if channel_id != table and await parent_of(interaction, channel_id) != table:
            continue
        stored = await client.storage.conflicts.get(guild_id, channel_id)
        try:
            state = load_stored(stored) if stored is not None else None
        except RulesError:
            continue  # unreadable: /conflict end is the way out, and it says so
        if state is not None and state.phase is not Phase.ENDED:
            fights.append(state)
    return fights


async def parent_of(interaction: Interaction, channel_id: int) -> int | None:
    """The channel a thread belongs to (None for a channel, or one the bot cannot see)."""
    guild = interaction.guild
    found: object = guild.get_channel_or_thread(channel_id) if guild is not None else None
    if found is None:
        try:
            found = await interaction.client.fetch_channel(channel_id)  # an archived thread
        except discord.HTTPException:
            return None
    return found.parent_id if isinstance(found, discord.Thread) else None


def running_line(state: Conflict) -> str:
    """ "The physical Conflict for The alley was still running when the session ended (round 2)."."""
    return (
        f"The {state.type.value} Conflict for {plain(state.stakes)} was still running when the "
        f"session ended (round {state.round})"
    )


def warning(fights: list[Conflict]) -> str:
    where = ", ".join(f"<#{state.channel_id}>" for state in fights)
    return (
        f"A Conflict is still running at this table ({where}). End the session anyway? The recap will "
        "say the fight is still running, and the fight goes on (`/conflict end` ends it)."
    )


class ConfirmEnd(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CONFIRM):
    """End the session anyway, the fight left running."""

    def __init__(self, session: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="End the session anyway",
                style=discord.ButtonStyle.danger,
                custom_id=f"mab:sessend:{session}",
            )
        )
        self.session = session

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ConfirmEnd":
        return cls(int(match["session"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await end(interaction, confirmed=self.session)


async def end(interaction: Interaction, confirmed: int | None = None) -> None:
    """``/session end`` and its confirmation: warn first while a fight runs at the table, else
    close the session and queue the table's card in one transaction (``close_session``), then
    answer with that very card (as a request is shown): if the answer never lands, the outbox
    posts it; then, privately, tonight's awards for each Hero present (docs/rulings.md §10.1) and
    the Narrator's full recap. ``confirmed``: the session the Narrator chose to end anyway."""
    (await caller(interaction)).require_narrator("end a session")
    storage = interaction.client.storage
    session = await storage.journal.open_in(guild_id_of(interaction), table_channel_of(interaction))
    if session is None or (confirmed is not None and session.id != confirmed):
        raise BotError(NO_SESSION if confirmed is None else "That session has already ended.")
    fights = await live_fights(interaction)
    if fights and confirmed is None:
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmEnd(session.id))
        view.stop()
        await replies.send(interaction, warning(fights), view=view, ephemeral=True)
        return
    if confirmed is not None:
        await replies.edit(interaction, view=None)
    await close(interaction, session, fights)


async def close(interaction: Interaction, session: TableSession, fights: list[Conflict]) -> None:
    now = utc_now()
    running = [
        JournalEntry(at=now, kind=EntryKind.CONFLICT_RUNNING, text=line, public=line)
        for line in map(running_line, fights)
    ]
    storage = interaction.client.storage
    closed = await close_session(
        storage, session, now, "narrator", interaction_id=interaction.id, running=running
    )
    if closed is None:
        raise BotError("That session has just been ended.")
    outbox = interaction.client.conflicts.outbox
    outbox.replying([closed.row])
    try:
        message_id = await replies.send(interaction, view=recap_card(closed.recaps.public))
    except discord.HTTPException as error:
        outbox.unanswered(closed.row, refused=error.status < 500)
    else:
        if message_id is not None:
            outbox.answered(closed.row, message_id)
        else:
            outbox.unanswered(closed.row, refused=False)
    await offer(interaction, closed.session, closed.row.id)
    view = recap_card(closed.recaps.full, schedule_button(closed.session.id))
    await replies.send(interaction, view=view, ephemeral=True)
