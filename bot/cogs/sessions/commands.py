"""``/session``: a Narrator's night at one channel's table, its recap and its journal.

A Narrator (the rule of ``bot.access``, as for ``/conflict start``) starts a session in a channel
and ends it; everything logged there in between is its story (``storage.journal``; design in
docs/architecture.md, "Sessions"). Ending it posts the recap card for the table (what the table
saw, docs/rulings.md §7.1), queued with the end in one transaction (``bot.workers.session_end``),
and gives the Narrator the full one privately. ``/session journal`` gives the whole night in
order as a Markdown file, the Narrator's full version or the asker's own. A session left open
closes by itself, with its card, after ``MISTBORN_SESSION_QUIET_HOURS`` of quiet.

A player reads only what was said where they can read (``bot.reach``, docs/rulings.md §7.6): a
session played in a channel they cannot view is no session for them, and of a session they may
read, a private thread's entries only where they took part.
"""

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.sessions.ending import NO_SESSION, ConfirmEnd, live_fights
from bot.cogs.sessions.ending import end as end_session
from bot.cogs.sessions.polls import HOURS_MAX, ClosePoll, PickTime, PollWatch, post_poll
from bot.cogs.sessions.schedule import FORM, ScheduleNext, schedule, schedule_button
from bot.errors import BotError
from bot.forms import SentForm
from bot.inputs.times import WHEN_MAX
from bot.reach import reach_of, reads_channel
from bot.render.common import plain
from bot.render.recap import journal_markdown, recap_card
from bot.served import guild_id_of, table_channel_of
from bot.workers.session_end import recap_of
from rules.campaign.presence import carried_entries
from rules.journal import NARRATOR, Viewer
from storage.errors import AlreadyExistsError
from storage.journal import TITLE_MAX, TableSession
from storage.places import Origin, Reach
from storage.sql import utc_now

Title = app_commands.Range[str, 1, TITLE_MAX]
When = app_commands.Range[str, 1, WHEN_MAX]
NO_SESSIONS = "No session has been played in this channel yet (or it is older than the roll log keeps)."


def when_text(session: TableSession) -> str:
    start = session.started_at.strftime("%Y-%m-%d %H:%M UTC")
    if session.ended_at is None:
        return f"Started {start}, still open"
    how = " (closed by itself after a long quiet)" if session.ended_how == "quiet" else ""
    return f"{start} to {session.ended_at.strftime('%H:%M UTC')}{how}"


def in_memory(text: str) -> io.BytesIO:
    """``text`` as a file to send, made in a worker thread: a long night's journal is megabytes
    to encode, and copied into a buffer of its own here, so aiohttp's look at its size (which
    copies a buffer shared with ``bytes``) copies nothing on the loop (tests/bot/test_loop_stalls.py)."""
    buffer = io.BytesIO()
    buffer.write(text.encode("utf-8"))
    buffer.seek(0)
    return buffer


def viewer_of(narrator: bool, user_id: int) -> Viewer:
    return NARRATOR if narrator else Viewer(user_id=user_id)


class SessionCommands(
    commands.GroupCog,
    group_name="session",
    group_description="A night at this table: start, end (with a recap), its journal, a poll for the next",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        self.polls = PollWatch(bot, bot.storage)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ScheduleNext, ConfirmEnd, PickTime, ClosePoll)
        self.bot.forms.add(FORM, self.form_sent)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ScheduleNext, ConfirmEnd, PickTime, ClosePoll)
        self.bot.forms.remove(FORM)
        self.polls.close()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Look for polls that closed while the bot was away, then keep looking."""
        self.polls.start()

    async def form_sent(self, interaction: Interaction, sent: SentForm) -> None:
        """The next session's form, submitted (``bot.cogs.sessions.schedule``)."""
        found = sent.found
        await schedule(interaction, int(found["session"]), sent.values)

    @app_commands.command(name="start", description="Narrator: start a session in this channel")
    @app_commands.describe(title="What to call the night (default: the date)")
    @app_commands.guild_only()
    async def start(self, interaction: Interaction, title: Title | None = None) -> None:
        (await caller(interaction)).require_narrator("start a session")
        now = utc_now()
        name = " ".join((title or "").split()) or f"Session of {now.strftime('%Y-%m-%d')}"
        if len(name) > TITLE_MAX:
            raise BotError(f"A session's title is at most {TITLE_MAX} characters; give a shorter one.")
        guild_id, table = guild_id_of(interaction), table_channel_of(interaction)
        # A fight still running from the last night: its Heroes are present tonight (§10.1).
        carried = [entry for fight in await live_fights(interaction) for entry in carried_entries(now, fight)]
        try:
            async with self.bot.storage.transaction() as tx:
                session = await tx.journal.start(guild_id, table, name, interaction.user.id, now)
                await tx.journal.add(guild_id, Origin(channel_id=table), carried)
        except AlreadyExistsError as error:
            raise BotError(str(error)) from error
        await replies.send(
            interaction,
            f"Session #{session.id} started: **{plain(name)}**. Everything here until `/session end` "
            "belongs to it: rolls, Contests, requests, Conflicts and changes to sheets.",
        )

    @app_commands.command(
        name="poll", description="Narrator: poll the table on 2-5 times for the next session"
    )
    @app_commands.describe(
        first="A time: YYYY-MM-DD HH:MM (a zone after it, or in `zone`)",
        second="Another time",
        third="Another time",
        fourth="Another time",
        fifth="Another time",
        zone="Your time zone for them all: +02:00 or Europe/Paris (default UTC)",
        hours="How long the poll stays open, in hours (default 24)",
        title="What to call the night (default: this channel's session, else the channel)",
    )
    @app_commands.guild_only()
    async def poll(
        self,
        interaction: Interaction,
        first: When,
        second: When,
        third: When | None = None,
        fourth: When | None = None,
        fifth: When | None = None,
        zone: app_commands.Range[str, 1, 40] = "",
        hours: app_commands.Range[int, 1, HOURS_MAX] = 24,
        title: Title | None = None,
    ) -> None:
        """A Discord poll of the times; its winner becomes the event (``bot.cogs.sessions.polls``)."""
        typed = [t for t in (first, second, third, fourth, fifth) if t is not None]
        name = " ".join((title or "").split())
        if not name:
            guild_id, channel_id = guild_id_of(interaction), table_channel_of(interaction)
            session = await self.bot.storage.journal.open_in(guild_id, channel_id)
            channel = interaction.channel
            name = session.title if session is not None else getattr(channel, "name", None) or "our table"
        await post_poll(interaction, typed, zone, hours, name)

    @app_commands.command(name="end", description="Narrator: end this channel's session and post its recap")
    @app_commands.guild_only()
    async def end(self, interaction: Interaction) -> None:
        """Warn first while a Conflict runs at this table, else end it (``bot.cogs.sessions.ending``)."""
        await end_session(interaction)

    @app_commands.command(name="status", description="Whether a session is open in this channel")
    @app_commands.guild_only()
    async def status(self, interaction: Interaction) -> None:
        journal = self.bot.storage.journal
        session = await journal.open_in(guild_id_of(interaction), table_channel_of(interaction))
        if session is None:
            await replies.send(interaction, NO_SESSION, ephemeral=True)
            return
        await replies.send(
            interaction,
            f"Session #{session.id}, **{plain(session.title)}**: {when_text(session)}.",
            ephemeral=True,
        )

    async def _session(
        self, interaction: Interaction, session: int | None, reach: Reach | None
    ) -> TableSession:
        """The session asked for by number, or this channel's latest; one played where
        ``reach`` cannot read is told as no such session (nothing of it is confirmed)."""
        storage = self.bot.storage.journal
        guild_id = guild_id_of(interaction)
        if session is None:
            latest = await storage.sessions(guild_id, table_channel_of(interaction), limit=1)
            if not latest:
                raise BotError(NO_SESSIONS)
            return latest[0]
        found = await storage.get(guild_id, session)
        if found is None or not reads_channel(reach, found.channel_id):
            raise BotError(
                f"There is no session #{session} in this server. `/session journal` gives the latest."
            )
        return found

    @app_commands.command(
        name="recap", description="A session's recap again, privately (default: the latest)"
    )
    @app_commands.describe(session="The session's number (default: this channel's latest)")
    @app_commands.guild_only()
    async def recap(
        self, interaction: Interaction, session: app_commands.Range[int, 1] | None = None
    ) -> None:
        """The recap of a session ended earlier (or by the quiet): the Narrator's full one with the
        button for the next session, a player's as the table saw what they may read; privately
        either way."""
        who = await caller(interaction)
        reach = await reach_of(interaction, self.bot.storage, who)
        found = await self._session(interaction, session, reach)
        quiet = self.bot.settings.session_quiet_hours if found.ended_how == "quiet" else None
        blocks, _ = await recap_of(self.bot.storage, found, reach, quiet)
        button = schedule_button(found.id) if who.narrator else None
        await replies.send(interaction, view=recap_card(blocks, button), ephemeral=True)

    @app_commands.command(name="journal", description="A session's log in order, as a Markdown file")
    @app_commands.describe(session="The session's number (default: this channel's latest)")
    @app_commands.guild_only()
    async def journal(
        self, interaction: Interaction, session: app_commands.Range[int, 1] | None = None
    ) -> None:
        who = await caller(interaction)
        reach = await reach_of(interaction, self.bot.storage, who)
        found = await self._session(interaction, session, reach)
        entries = await self.bot.storage.journal.all_entries(found, reach=reach)
        viewer = viewer_of(who.narrator, interaction.user.id)
        when = when_text(found)
        data = await asyncio.to_thread(
            lambda: in_memory(journal_markdown(found.title, when, entries, viewer))
        )
        file = discord.File(data, filename=f"session-{found.id}.md")
        await replies.send(
            interaction,
            f"The journal of session #{found.id}, **{plain(found.title)}**.",
            file=file,
            ephemeral=True,
        )
