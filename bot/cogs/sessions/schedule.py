"""The next session, from the recap: a Discord scheduled event for the server, so members get
Discord's own reminder and "Interested" list.

The Narrator's private recap carries a button; it opens a form (a time in the Narrator's own
zone, ``bot.inputs.times``, and a note), and the form's submission creates the event
(``POST /guilds/{id}/scheduled-events``). It is an **external** event whose location is the
channel's name, clipped to Discord's 100 characters: the table plays in a text channel, and
Discord binds voice and stage events to a voice or stage channel, which a text table does not
have. The answer shows the start as ``<t:…:F>``, which Discord shows each member in their own
zone. Creating events needs the bot's Manage Events permission; without it the Narrator is told
so, and nothing is created; any other refusal of Discord's is said too. The button and the form
carry the session's id, so they work the same after a restart.
"""

import re
from datetime import datetime, timedelta
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.errors import BotError
from bot.inputs.times import WHEN_MAX, parse_start
from bot.served import guild_id_of
from bot.text import inert
from storage.sql import utc_now

BUTTON = "mab:next:{session}"
FORM = re.compile(r"mab:nextform:(?P<session>\d+)")
WHEN, ZONE, NOTE = "when", "zone", "note"
NOTE_MAX = 1000
NAME_MAX = LOCATION_MAX = 100
"""Discord's limits on an event's name and an external event's location (its API description)."""
LENGTH = timedelta(hours=4)
"""How long the event is said to last (an external event needs an end)."""
NO_PERMISSION = (
    "I can't create events in this server: I need the **Manage Events** permission (Server "
    "Settings → Roles → my role). Nothing was scheduled."
)


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
            label="When: YYYY-MM-DD HH:MM",
            placeholder="2026-12-04 19:30",
            max_length=WHEN_MAX,
        )
    )
    modal.add_item(
        discord.ui.TextInput(
            custom_id=ZONE,
            label="Your time zone (UTC if left empty)",
            placeholder="+02:00, or Europe/Paris",
            required=False,
            max_length=40,
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
    start = parse_start(values.get(WHEN, ""), values.get(ZONE, ""), utc_now())
    guild = interaction.guild
    if guild is None or not interaction.app_permissions.manage_events:
        raise BotError(NO_PERMISSION)
    channel = guild.get_channel(session.channel_id)
    note = " ".join(values.get(NOTE, "").split()) or f"After {session.title}."
    event = await create_next_event(guild, channel, session.title, start.at, note)
    where = f"#{channel.name}" if channel is not None else "the usual channel"
    shown = f"<#{channel.id}>" if channel is not None else where
    await replies.send(
        interaction,
        f"Scheduled: **{inert(event.name)}**, <t:{int(start.at.timestamp())}:F> (you gave {start.zone}) "
        f"in {shown}. Members who mark it Interested get Discord's reminder. {event.url}",
        ephemeral=True,
    )


async def create_next_event(
    guild: discord.Guild,
    channel: discord.abc.GuildChannel | discord.Thread | None,
    title: str,
    start: datetime,
    note: str,
) -> discord.ScheduledEvent:
    """The next session as the server's external event at ``channel`` (the form's, and a poll's
    winner, ``bot.cogs.sessions.polls``), once the caller has checked the bot may (Manage
    Events); Discord's refusal said as a :class:`BotError`."""
    where = f"#{channel.name}" if channel is not None else "the usual channel"
    try:
        return await guild.create_scheduled_event(
            name=clip(f"Next session: {title}", NAME_MAX),
            start_time=start,
            end_time=start + LENGTH,
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=clip(where, LOCATION_MAX),
            description=note[:NOTE_MAX],
        )
    except discord.Forbidden as error:
        raise BotError(NO_PERMISSION) from error
    except discord.HTTPException as error:
        if error.status >= 500:
            raise
        raise BotError(
            f"Discord refused the event ({inert(error.text[:200])}); nothing was scheduled."
        ) from error


def clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, an ellipsis ending what was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
        (await caller(interaction)).require_narrator("schedule the next session")
        await replies.send_modal(interaction, schedule_form(self.session))
