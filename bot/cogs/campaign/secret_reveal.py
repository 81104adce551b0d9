"""Revealing a Secret (docs/rulings.md §10.3): the one flow ``/secret reveal`` and the Narrator's
Reveal button (``bot.cogs.campaign.secret_panel``) both go through.

Each entry parses what it was given, checks the caller is a Narrator and loads the Secret and
the Hero; :func:`reveal_secret` then checks the telling (a Hero, not told it before; room on
the sheet), changes the sheet, and saves the reveal, the sheet's Secrets known and the journal
entry in ONE transaction, which first holds the Secret's row so that two clicks at once tell it
once. Then the same card for the channel (the title and whom it was told, never the words, with
**Read it**) and the same private offer of an award.
"""

import discord

from bot import replies
from bot.client import Interaction
from bot.errors import BotError
from bot.reach import origin_of
from bot.render.common import plain
from bot.served import guild_id_of
from rules.campaign.secrets import already_told, unlock_line
from rules.character import CharacterKind
from rules.character.story import learn
from rules.journal import TEXT_MAX, EntryKind, JournalEntry
from storage import StoredCharacter
from storage.secrets import StoredSecret
from storage.sql import utc_now

READ_ID = "mab:secret:{secret}"
NOT_A_HERO = "A Secret is revealed to a Hero, or to the table."
AWARD_OFFER = "A revealed Secret can earn Advancements: `/advancement award`, or tonight's awards."


def read_button(secret_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Read it", custom_id=READ_ID.format(secret=secret_id)))
    view.stop()
    return view


def secret_text(stored: StoredSecret) -> str:
    """A Secret's title, kind and words: only ever sent privately, to whoever may read it."""
    unlock = unlock_line(stored.secret)
    extra = f"\n-# {unlock}" if unlock else ""
    return f"**{plain(stored.title)}** ({stored.secret.kind.label})\n{plain(stored.secret.text)}{extra}"


def told_before(stored: StoredSecret, hero: StoredCharacter | None) -> str:
    whom = plain(hero.name) if hero is not None else "The table"
    return f"{whom} was told **{plain(stored.title)}** already: a Secret is told to each once."


def journal_line(stored: StoredSecret, hero: StoredCharacter | None) -> str:
    if hero is not None:
        return f"{hero.name} learns a Secret: {stored.title}."[:TEXT_MAX]
    return f"The table learns a Secret: {stored.title}."[:TEXT_MAX]


async def reveal_secret(
    interaction: Interaction, stored: StoredSecret, hero: StoredCharacter | None, *, panel: bool = False
) -> None:
    """Check → change → save once → render a telling of ``stored`` to ``hero`` (None: the table),
    for a Narrator (the caller checked it before loading). ``panel``: asked from the Narrator's
    private panel, which is closed ("Revealed …") before the card goes to the channel."""
    if hero is not None and hero.character.kind is not CharacterKind.HERO:
        raise BotError(NOT_A_HERO)
    after = None
    if hero is not None:  # refused here, before anything is written, when the sheet is full
        after = hero.character.model_copy(update={"story": learn(hero.character.story, stored.title)})
    guild_id, now, line = guild_id_of(interaction), utc_now(), journal_line(stored, hero)
    hero_id = hero.id if hero is not None else None
    async with interaction.client.storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        await tx.secrets.hold(guild_id, stored.id)
        told = {r.character_id for r in await tx.secrets.reveals(guild_id, stored.id)}
        if already_told(told, hero_id):
            raise BotError(told_before(stored, hero))
        await tx.secrets.reveal(
            guild_id, stored.id, hero_id, interaction.channel_id or 0, interaction.user.id, now
        )
        if hero is not None and after is not None:
            await tx.characters.update(guild_id, hero, after)
        entry = JournalEntry(
            at=now,
            kind=EntryKind.SECRET,
            text=line,
            public=line,
            character_id=hero_id,
            hero=hero.name if hero else "",
            character_kind=CharacterKind.HERO if hero else None,
        )
        await tx.journal.add(guild_id, origin_of(interaction), [entry])
    await render_reveal(interaction, stored, hero, panel)


async def render_reveal(
    interaction: Interaction, stored: StoredSecret, hero: StoredCharacter | None, panel: bool
) -> None:
    whom = (
        f"<@{hero.character.owner_id}>, {plain(hero.name)}" if hero is not None else "everyone at the table"
    )
    if panel:
        done = f"Revealed **{plain(stored.title)}** to {plain(hero.name) if hero else 'the table'}."
        await replies.edit(interaction, content=done, view=None)
    await replies.send(
        interaction,
        f"🔒 A Secret revealed to {whom}: **{plain(stored.title)}**. Press Read it for its words.",
        view=read_button(stored.id),
    )
    await replies.send(interaction, AWARD_OFFER, ephemeral=True)
