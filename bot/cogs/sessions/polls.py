"""Choosing the next night by a Discord poll (docs/rulings.md §6.15): ``/session poll`` posts
two to five times as a poll of the table; when it closes, the bot schedules the winner as the
same server event the recap's button makes (``bot.cogs.sessions.schedule``), and a tie is the
Narrator's to break with a button per time tied.

The bot asks Discord for no message events (``bot.client.INTENTS``), so it never hears the poll
close: it keeps when it closes (``storage.time_polls``) and, from then on, reads the poll's
final counts from the message (:meth:`PollWatch.sweep`, every :data:`EVERY` seconds and once on
every start, so a bot that was offline at the close schedules the winner when it is back). A
poll's state moves once (``TimePollRepository.claim``), so of several processes or a restarted
one, one acts. The Narrator may close it early ("Close the poll now": Discord's ``expire``).
"""

import logging
import re
from datetime import datetime, timedelta
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.cogs.sessions.schedule import NO_PERMISSION, clip, create_next_event
from bot.errors import BotError
from bot.inputs.times import parse_start, parse_zone
from bot.render.cards import INFO, SUCCESS, Layout, button_rows, card, card_view
from bot.render.common import plain
from bot.served import guild_id_of
from bot.workers.repeating import Repeating
from rules.time_poll import leaders
from storage import Storage
from storage.sql import utc_now
from storage.time_polls import TimePoll

log = logging.getLogger(__name__)
EVERY = 30.0
"""Seconds between looks for polls Discord has closed; a winner is scheduled this long after."""
QUESTION_MAX, ANSWER_MAX = 300, 55
"""Discord's limits on a poll's question and each answer's text."""
HOURS_MAX = 168
"""A poll stays open at most a week (Discord allows 32 days; a table decides sooner)."""
PICK = "mab:pollpick:{poll}:{place}"
CLOSE = "mab:pollend:{poll}"
NONE = discord.AllowedMentions.none()


def local_text(at: datetime, zone: str) -> str:
    """A time as the answer shows it, in the zone the Narrator gave: "Fri 4 Dec, 19:30 (UTC)"."""
    place, name = parse_zone(zone)
    local = at.astimezone(place)
    return clip(f"{local.strftime('%a')} {local.day} {local.strftime('%b, %H:%M')} ({name})", ANSWER_MAX)


def stamp(at: datetime, style: str = "F") -> str:
    """Discord shows ``<t:…>`` to each member in their own zone."""
    return f"<t:{int(at.timestamp())}:{style}>"


async def post_poll(interaction: Interaction, typed: list[str], zone: str, hours: int, title: str) -> None:
    """Check → post the poll → keep it → tell the Narrator (privately, with the early close)."""
    (await caller(interaction)).require_narrator("poll the table for the next session")
    if not 1 <= hours <= HOURS_MAX:  # Discord's client keeps to the range; a raw payload may not
        raise BotError(f"A poll stays open 1 to {HOURS_MAX} hours.")
    now = utc_now()
    closes = now + timedelta(hours=hours)
    starts = [parse_start(when, zone, now) for when in typed]
    if len({s.at for s in starts}) < len(starts):
        raise BotError("The same time is given twice: give each time once.")
    if early := [s for s in starts if s.at <= closes]:
        raise BotError(
            f"{local_text(early[0].at, early[0].zone)} is before the poll closes ({hours} h from now): "
            "give later times, or a shorter `hours`."
        )
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable) or interaction.guild is None:
        raise BotError("Post the poll in a channel of the server.")
    poll = discord.Poll(
        question=clip(f"When do we play next? {title}", QUESTION_MAX),
        duration=timedelta(hours=hours),
        multiple=True,
    )
    for start in starts:
        poll.add_answer(text=local_text(start.at, start.zone))
    told = "\n".join(f"{n}. {stamp(s.at)}" for n, s in enumerate(starts, start=1))
    content = (
        f"**When do we play next?** {plain(title)}\nIn your own time:\n{told}\n"
        f"Vote for every time you can make. The poll closes {stamp(closes, 'R')}; the time with "
        "the most votes becomes the server's event (a tie is the Narrator's to break)."
    )
    try:
        message = await channel.send(content, poll=poll, allowed_mentions=NONE)
    except discord.Forbidden as error:
        raise BotError("I can't post a poll here: I need **Send Messages** and **Send Polls**.") from error
    kept = await interaction.client.storage.time_polls.add(
        guild_id_of(interaction),
        message.channel.id,
        message.id,
        title=title,
        starts=tuple(s.at for s in starts),
        zone=starts[0].zone,
        closes_at=message.poll.expires_at if message.poll and message.poll.expires_at else closes,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(close_button(kept.id))
    await replies.send(
        interaction,
        f"Poll posted: {message.jump_url}. When it closes {stamp(closes, 'R')} I schedule the winner; "
        "close it sooner with the button.",
        view=view,
        ephemeral=True,
    )


def close_button(poll_id: int) -> "ClosePoll":
    return ClosePoll(poll_id)


def pick_card(poll: TimePoll, places: tuple[int, ...], counts: list[int], why: str) -> Layout:
    """The tie (or a winner Discord would not schedule): a button per time for the Narrator."""
    buttons: list[discord.ui.Button[Layout]] = [
        discord.ui.Button(
            custom_id=PICK.format(poll=poll.id, place=place),
            label=local_text(poll.starts[place], poll.zone),
            style=discord.ButtonStyle.primary,
        )
        for place in places
    ]
    times = "\n".join(f"- {stamp(poll.starts[p])}: {counts[p]} vote(s)" for p in places)
    return card_view(
        card(
            "The next night: the Narrator picks",
            accent=INFO,
            lead=f"{why}\n{times}\nOnly a Narrator's pick counts.",
            rows=button_rows(buttons),
        )
    )


class PollWatch(Repeating):
    """Reads the polls Discord has closed and settles each once (the cog starts it when ready)."""

    name = "time-polls"

    def __init__(self, client: discord.Client, storage: Storage) -> None:
        super().__init__(EVERY)
        self.client = client
        self.storage = storage

    async def once(self) -> None:
        try:
            await self.sweep()
        except Exception:
            log.exception("Could not look at the polls for the next night now")

    async def sweep(self) -> None:
        """Settle every poll of this process's servers that Discord has closed."""
        for poll in await self.storage.time_polls.due(utc_now()):
            if self.client.get_guild(poll.guild_id) is not None:
                await self.settle(poll)

    async def settle(self, poll: TimePoll) -> None:
        """Read the final counts; schedule the one winner, or ask the Narrator to pick."""
        guild = self.client.get_guild(poll.guild_id)
        channel = guild.get_channel_or_thread(poll.channel_id) if guild is not None else None
        if guild is None or not isinstance(channel, discord.abc.Messageable):
            await self.storage.time_polls.claim(poll.guild_id, poll.id, "open", "done")
            return
        try:
            message = await channel.fetch_message(poll.message_id)
        except discord.NotFound:
            await self.storage.time_polls.claim(poll.guild_id, poll.id, "open", "done")
            return
        if message.poll is None:
            return
        if not message.poll.is_finalised():
            return  # Discord counts a moment after the close: the next sweep reads it
        counts = [answer.vote_count for answer in message.poll.answers]
        if not await self.storage.time_polls.claim(poll.guild_id, poll.id, "open", "closing"):
            return
        won = leaders(counts)
        reference = message.to_reference(fail_if_not_exists=False)
        if not won:
            await channel.send(
                "Nobody voted in the poll for the next night, so nothing was scheduled. "
                "`/session poll` asks again.",
                reference=reference,
                allowed_mentions=NONE,
            )
            await self.storage.time_polls.claim(poll.guild_id, poll.id, "closing", "done")
            return
        if len(won) > 1:
            view = pick_card(poll, won, counts, "The poll for the next night tied:")
            await channel.send(view=view, reference=reference, allowed_mentions=NONE)
            await self.storage.time_polls.claim(poll.guild_id, poll.id, "closing", "tied")
            return
        try:
            if not guild.me.guild_permissions.manage_events:
                raise BotError(NO_PERMISSION)
            event = await create_next_event(guild, channel_of(channel), poll.title, poll.starts[won[0]], "")
        except BotError as error:
            why = f"The poll chose a time, but {error} Pick it again once that is fixed:"
            await channel.send(view=pick_card(poll, won, counts, why), allowed_mentions=NONE)
            await self.storage.time_polls.claim(poll.guild_id, poll.id, "closing", "tied")
            return
        await channel.send(
            chosen_text(poll, won[0], event, f"{counts[won[0]]} vote(s)"),
            reference=reference,
            allowed_mentions=NONE,
        )
        await self.storage.time_polls.claim(poll.guild_id, poll.id, "closing", "done")


def channel_of(channel: Any) -> discord.abc.GuildChannel | discord.Thread | None:
    return channel if isinstance(channel, discord.abc.GuildChannel | discord.Thread) else None


def chosen_text(poll: TimePoll, place: int, event: discord.ScheduledEvent, by: str) -> str:
    return (
        f"The next night is {stamp(poll.starts[place])} ({by}): scheduled as **{plain(event.name)}**. "
        f"Mark it Interested for Discord's reminder. {event.url}"
    )


async def pick(interaction: Interaction, poll_id: int, place: int) -> None:
    """The Narrator's pick: scheduled once, however many click (the state moves once)."""
    (await caller(interaction)).require_narrator("pick the next session's time")
    storage = interaction.client.storage
    guild_id = guild_id_of(interaction)
    poll = await storage.time_polls.get(guild_id, poll_id)
    if poll is None or place >= len(poll.starts):
        raise BotError("That poll is no longer kept; schedule the next night from the recap's button.")
    if not await storage.time_polls.claim(guild_id, poll.id, "tied", "closing"):
        raise BotError("The next night is already picked (look just above), or being picked right now.")
    guild = interaction.guild
    assert guild is not None
    channel = guild.get_channel(poll.channel_id)
    try:
        if not interaction.app_permissions.manage_events:
            raise BotError(NO_PERMISSION)
        event = await create_next_event(guild, channel, poll.title, poll.starts[place], "")
    except BaseException:
        await storage.time_polls.claim(guild_id, poll.id, "closing", "tied")
        raise
    await storage.time_polls.claim(guild_id, poll.id, "closing", "done")
    done = card(
        "The next night: picked",
        accent=SUCCESS,
        lead=chosen_text(poll, place, event, f"picked by {interaction.user.mention}"),
    )
    await replies.edit(interaction, view=card_view(done))


class PickTime(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mab:pollpick:(?P<poll>\d+):(?P<place>\d)",
):
    """A time tied at the top of the poll: the Narrator's click schedules it."""

    def __init__(self, poll: int, place: int) -> None:
        super().__init__(discord.ui.Button(custom_id=PICK.format(poll=poll, place=place), label="Pick"))
        self.poll, self.place = poll, place

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "PickTime":
        return cls(int(match["poll"]), int(match["place"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await pick(interaction, self.poll, self.place)


class ClosePoll(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mab:pollend:(?P<poll>\d+)"):
    """The Narrator closes the poll now (Discord's ``expire``); the winner is then scheduled."""

    def __init__(self, poll: int) -> None:
        super().__init__(discord.ui.Button(custom_id=CLOSE.format(poll=poll), label="Close the poll now"))
        self.poll = poll

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ClosePoll":
        return cls(int(match["poll"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await close_now(interaction, self.poll)


async def close_now(interaction: Interaction, poll_id: int) -> None:
    (await caller(interaction)).require_narrator("close the poll")
    storage = interaction.client.storage
    poll = await storage.time_polls.get(guild_id_of(interaction), poll_id)
    if poll is None or poll.state != "open":
        raise BotError("That poll has closed already.")
    channel = interaction.guild.get_channel_or_thread(poll.channel_id) if interaction.guild else None
    if not isinstance(channel, discord.abc.Messageable):
        raise BotError("The poll's channel is gone.")
    message = await channel.fetch_message(poll.message_id)
    try:
        await message.end_poll()
    except discord.HTTPException as error:
        if error.code != 520001:  # it had closed by itself meanwhile
            raise
    await replies.send(
        interaction,
        "Closed. The winner is scheduled in a moment (a tie comes to you to pick).",
        ephemeral=True,
    )
    await storage.time_polls.close_early(poll.guild_id, poll.id, utc_now())
    await PollWatch(interaction.client, storage).settle(poll)
