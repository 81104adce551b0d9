"""``/say``: a line spoken in character, posted under the character's name.

The line goes through a channel webhook named :data:`HOOK_NAME`, made once per channel and
reused: this process remembers it, and after a restart finds it again by listing the channel's
webhooks (``GET /channels/{id}/webhooks``) before it would make another. In a thread the
webhook is the parent channel's, told the thread. Only a character's controller speaks as it
(``Caller.require_control``, docs/rulings.md §6.9 and §7.5); the text goes out as typed, but
never pings anyone. The webhook shows the character's portrait as its avatar when the web view
has a public address (``MISTBORN_WEB_PUBLIC_URL``) Discord can fetch it from. Without Manage
Webhooks the bot posts the line itself under the character's name and tells the speaker,
privately, how to turn the webhook on.

A line goes only where its speaker may write (:func:`require_voice`, from the interaction's own
permissions there): Send Messages in a channel, Send Messages in Threads in a thread, and Manage
Threads in a thread a moderator locked. A remembered webhook is read again before each line
(by its token): one a moderator moved to another channel is let go, and this channel's is found
or made, so a line never lands where it was not said.
"""

import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller, cooldown
from bot.client import Interaction, MistbornClient
from bot.errors import BotError, NotAllowed
from bot.forms import SentForm
from bot.inputs.characters import OwnCharacter, named_or_active
from bot.render.portraits import portrait_url
from bot.served import guild_id_of
from bot.text import inert
from bot.workers.bounded import KeyedLocks, Recent
from storage import StoredCharacter

log = logging.getLogger(__name__)

HOOK_NAME = "Mistborn Bot voices"
TEXT_MAX = 2000
"""Discord's limit on a message's text, and so on a line."""
REMEMBERED = 4096
"""Channels whose webhook this process keeps in memory (the list call finds the others)."""
DOING = "speak as them"
NO_WEBHOOKS = (
    "I posted that line myself because I lack **Manage Webhooks** here. To have characters speak "
    "under their own name, a server admin can give my role Manage Webhooks (Server Settings → "
    "Roles, or this channel's permissions)."
)
NOT_HERE = "Speaking in character works in a server's text channel or one of its threads."
CANNOT_WRITE = (
    "You cannot send messages in this {place}, so your characters cannot speak here either: use "
    "`/say` where you can write."
)
LOCKED = "This thread is locked: only a moderator (Manage Threads) can speak in it now."
SAID = "Said as {name}."
NO_PINGS = discord.AllowedMentions.none()
REFUSED_NAMES = ("clyde", "discord")
"""Words Discord refuses in a webhook's username: such a character's line is posted by the bot."""

Line = app_commands.Range[str, 1, TEXT_MAX]
Hooked = discord.TextChannel | discord.ForumChannel
"""A channel that holds webhooks: a text channel, or a forum whose threads the lines go to."""
Place = tuple[Hooked, discord.Thread | None]
"""Where a line goes: the channel holding the webhook, and the thread within it, if any."""


class Voices:
    """Our webhook per channel: found or made once, then reused (bounded, ``bot.workers.bounded``)."""

    def __init__(self) -> None:
        self._hooks: Recent[int, discord.Webhook] = Recent(REMEMBERED)
        self._locks: KeyedLocks[int] = KeyedLocks()

    def forget(self, channel_id: int, hook: discord.Webhook | None = None) -> None:
        """Let the channel's webhook go (only ``hook``, when given: not one found since)."""
        if hook is None or self._hooks.get(channel_id) is hook:
            self._hooks.pop(channel_id, None)

    async def hook(self, channel: Hooked, bot_id: int) -> discord.Webhook:
        """The channel's webhook of ours (made by ``bot_id``): remembered and still there, else
        listed, else made (one at a time per channel, so two lines at once never make two).
        Raises ``discord.Forbidden`` without Manage Webhooks."""
        if (known := self._hooks.get(channel.id)) is not None:
            if await still_in(known, channel.id):
                return known
            self.forget(channel.id, known)
        async with self._locks.hold(channel.id):
            if (known := self._hooks.get(channel.id)) is not None:
                return known
            found = next(
                (
                    hook
                    for hook in await channel.webhooks()
                    if hook.token and hook.user is not None and hook.user.id == bot_id
                ),
                None,
            )
            if found is None:
                found = await channel.create_webhook(name=HOOK_NAME, reason="/say: characters speak")
            self._hooks[channel.id] = found
            return found


async def still_in(hook: discord.Webhook, channel_id: int) -> bool:
    """Whether ``hook`` still posts into ``channel_id``: read again by its token, since a
    moderator may have moved it to another channel, or deleted it, since it was remembered."""
    try:
        now = await hook.fetch(prefer_auth=False)
    except discord.NotFound:
        return False
    return now.channel_id == channel_id


def require_voice(interaction: Interaction) -> None:
    """Refuse a line where its speaker may not write (docs/rulings.md §7.5): Send Messages in a
    channel, Send Messages in Threads in a thread, and Manage Threads in a locked thread. The
    interaction's own permissions say it, overwrites counted, so nothing is asked of Discord.
    An archived thread that is not locked takes the line: posting opens it again, as the
    member's own message would."""
    held, channel = interaction.permissions, interaction.channel
    if isinstance(channel, discord.Thread):
        if not held.send_messages_in_threads:
            raise NotAllowed(CANNOT_WRITE.format(place="thread"))
        if channel.locked and not held.manage_threads:
            raise NotAllowed(LOCKED)
    elif not held.send_messages:
        news = isinstance(channel, discord.TextChannel) and channel.is_news()
        raise NotAllowed(CANNOT_WRITE.format(place="announcement channel" if news else "channel"))


def place_of(interaction: Interaction) -> Place:
    """Where the line goes: the channel that holds the webhook, and the thread within it, if any."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and isinstance(channel.parent, Hooked):
        return channel.parent, channel
    if isinstance(channel, discord.TextChannel):
        return channel, None
    raise BotError(NOT_HERE)


async def through_webhook(
    interaction: Interaction,
    voices: Voices,
    place: Place,
    name: str,
    text: str,
    avatar_url: str | None = None,
) -> None:
    """Post through the channel's webhook (under the character's portrait when Discord can fetch
    it); one deleted meanwhile (by a moderator) is made again."""
    channel, thread = place
    bot_id = interaction.client.user.id if interaction.client.user else 0
    for attempt in (1, 2):
        hook = await voices.hook(channel, bot_id)
        try:
            await hook.send(
                text,
                username=name,
                avatar_url=avatar_url or discord.utils.MISSING,
                allowed_mentions=NO_PINGS,
                thread=thread if thread is not None else discord.utils.MISSING,
                wait=True,
            )
            return
        except discord.NotFound:
            voices.forget(channel.id)
            if attempt == 2:
                raise


async def avatar_of(interaction: Interaction, speaker: StoredCharacter) -> str | None:
    """The speaker's portrait on the web view, when it has a public address Discord can fetch."""
    public = interaction.client.settings.web_public_url
    if not public:
        return None
    token = await interaction.client.storage.portraits.token(guild_id_of(interaction), speaker.id)
    return portrait_url(public, guild_id_of(interaction), speaker.id, token)


async def speak(interaction: Interaction, voices: Voices, speaker: StoredCharacter, text: str) -> None:
    """Post ``text`` as ``speaker``: through the webhook, or by the bot itself without it (or
    when Discord refuses the name as a webhook's, e.g. one containing "Discord")."""
    if len(text) > TEXT_MAX:
        raise BotError(f"A line takes at most {TEXT_MAX:,} characters ({len(text):,} given): say it in two.")
    place = place_of(interaction)
    name = speaker.name
    if any(word in name.casefold() for word in REFUSED_NAMES):
        await replies.send(interaction, f"**{inert(name)}**: {text}", allowed_mentions=NO_PINGS)
        return
    try:
        await through_webhook(interaction, voices, place, name, text, await avatar_of(interaction, speaker))
    except discord.Forbidden:
        await replies.send(interaction, f"**{inert(name)}**: {text}", allowed_mentions=NO_PINGS)
        await replies.send_private(interaction, NO_WEBHOOKS)
        return
    except discord.HTTPException as refused:
        if refused.status != 400:
            raise
        log.info("webhook refused the name %r (%s): posting the line as the bot", name, refused.code)
        await replies.send(interaction, f"**{inert(name)}**: {text}", allowed_mentions=NO_PINGS)
        return
    await replies.send_private(interaction, SAID.format(name=inert(name)))


FORM_ID = re.compile(r"say:(?P<character>\d+)")
LINE = "line"


def line_form(speaker: StoredCharacter) -> discord.ui.Modal:
    """The form for a longer line (up to Discord's 2,000 characters). It is sent stopped:
    discord.py keeps nothing, and its submission reaches :meth:`Say.on_interaction`, before or
    after a restart."""
    modal = discord.ui.Modal(
        title=f"Speak as {speaker.name}"[:45], custom_id=f"say:{speaker.id}", timeout=None
    )
    modal.add_item(
        discord.ui.TextInput(
            custom_id=LINE,
            label="What they say",
            style=discord.TextStyle.paragraph,
            min_length=1,
            max_length=TEXT_MAX,
        )
    )
    modal.stop()
    return modal


async def checked_speaker(interaction: Interaction, speaker: StoredCharacter) -> StoredCharacter:
    """``speaker``, if the caller controls it now and may write here (docs/rulings.md §6.9, §7.5)."""
    (await caller(interaction)).require_control(speaker.character, DOING)
    require_voice(interaction)
    return speaker


class Say(commands.Cog):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        self.voices = Voices()

    @app_commands.command(
        name="say",
        description="Speak as one of your characters, under their name",
        extras={"private": True},  # the line itself goes through the webhook; the answer is a note
    )
    @app_commands.describe(
        text="What they say (leave out for a form, for longer text)",
        character="Who speaks (default: your active character)",
    )
    @cooldown()
    async def say(
        self, interaction: Interaction, text: Line | None = None, character: OwnCharacter | None = None
    ) -> None:
        speaker = await checked_speaker(interaction, await named_or_active(interaction, character))
        if text is None or not text.strip():
            await replies.send_modal(interaction, line_form(speaker))
            return
        await speak(interaction, self.voices, speaker, text)

    async def cog_load(self) -> None:
        self.bot.forms.add(FORM_ID, self.form_sent)

    async def cog_unload(self) -> None:
        self.bot.forms.remove(FORM_ID)

    async def form_sent(self, interaction: Interaction, sent: SentForm) -> None:
        """A submitted form: the character is loaded and its control checked again, since the
        form may have stayed open while a Narrator gave the Hero to someone else."""
        found = sent.found
        stored = await self.bot.storage.characters.get(guild_id_of(interaction), int(found["character"]))
        speaker = await checked_speaker(interaction, stored)
        text = sent.values.get(LINE, "")
        if not text.strip():
            raise BotError("Nothing was said: type the line in the form.")
        await speak(interaction, self.voices, speaker, text)
