"""The next session, from the recap: a Discord scheduled event for the server, so members get
Discord's own reminder and "Interested" list.

The Narrator's private recap carries a button; it opens a form (a time in UTC and a note), and
the form's submission creates the event (``POST /guilds/{id}/scheduled-events``). It is an
**external** event whose location is the channel's name: the table plays in a text channel, and
Discord binds voice and stage events to a voice or stage channel, which a text table does not
have. Creating events needs the bot's Manage Events permission; without it the Narrator is told
so, and nothing is created. The button and the form carry the session's id, so they work the
same after a restart.
"""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot import replies
from bot.access import guild_id_of
from bot.checks import caller
from bot.client import Interaction
from bot.errors import BotError, answer_error
from storage.sql import utc_now

BUTTON = "mab:next:{session}"
FORM = re.compile(r"mab:nextform:(?P<session>\d+)")
WHEN, NOTE = "when", "note"
NOTE_MAX = 1000
LENGTH = timedelta(hours=4)
"""How long the event is said to last (an external event needs an end)."""
NO_PERMISSION = (
    "I can't create events in this server: I need the **Manage Events** permission (Server "
    "Settings → Roles → my role). Nothing was scheduled."
)
BAD_TIME = "Give the time as `YYYY-MM-DD HH:MM` in UTC, in the future, e.g. `2026-12-04 19:30`."


def parse_when(text: str, now: datetime) -> datetime:
    """The form's time (UTC), which must be in the future and within a year."""
    try:
        when = datetime.strptime(" ".join(text.split()), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    except ValueError as error:
        raise BotError(BAD_TIME) from error
    if not now < when < now + timedelta(days=366):
        raise BotError(BAD_TIME)
    return when


def schedule_button(session_id: int) -> "ScheduleNext":
    return ScheduleNext(session_id)


def schedule_form(session_id: int) -> discord.ui.Modal:
    """The form, sent stopped: its submission reaches ``SessionCommands.on_interaction``."""
    modal = discord.ui.Modal(
        title="Schedule the next session", custom_id=f"mab:nextform:{session_id}", timeout=None
    )
    modal.add_item(
        discord.ui.TextInput(
            custom_id=WHEN,
            label="When (UTC): YYYY-MM-DD HH:MM",
            placeholder="2026-12-04 19:30",
            max_length=16,
        )
    )
    modal.add_item(
        discord.ui.TextInput(
            custom_id=NOTE,
            label="A note for the table",
            style=discord.TextStyle.paragraph,
            required=False,
            max_length=NOTE_MAX,
        )
    )
    modal.stop()
    return modal


async def schedule(interaction: Interaction, session_id: int, values: dict[str, str]) -> None:
    """Check → create the event → say where it is."""
    (await caller(interaction)).require_narrator("schedule the next session")
    session = await interaction.client.storage.journal.get(guild_id_of(interaction), session_id)
    if session is None:
        raise BotError("That session is no longer kept; schedule the next one from Discord's Events.")
    start = parse_when(values.get(WHEN, ""), utc_now())
    guild = interaction.guild
    if guild is None or not interaction.app_permissions.manage_events:
        raise BotError(NO_PERMISSION)
    channel = guild.get_channel(session.channel_id)
    where = f"#{channel.name}" if channel is not None else "the usual channel"
    note = " ".join(values.get(NOTE, "").split()) or f"After {session.title}."
    try:
        event = await guild.create_scheduled_event(
            name=f"Next session: {session.title}"[:100],
            start_time=start,
            end_time=start + LENGTH,
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=where,
            description=note[:NOTE_MAX],
        )
    except discord.Forbidden as error:
        raise BotError(NO_PERMISSION) from error
    await replies.send(
        interaction,
        f"Scheduled: **{discord.utils.escape_markdown(event.name)}**, <t:{int(start.timestamp())}:F> "
        f"in {where}. Members who mark it Interested get Discord's reminder. {event.url}",
        ephemeral=True,
    )


class ScheduleNext(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mab:next:(?P<session>\d+)"):
    """The Narrator's button under their recap: opens the form."""

    def __init__(self, session: int) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=BUTTON.format(session=session),
                label="Schedule the next session",
                style=discord.ButtonStyle.primary,
            )
        )
        self.session = session

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ScheduleNext":
        return cls(int(match["session"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        try:
            (await caller(interaction)).require_narrator("schedule the next session")
            await replies.send_modal(interaction, schedule_form(self.session))
        except Exception as error:
            await answer_error(interaction, error)
