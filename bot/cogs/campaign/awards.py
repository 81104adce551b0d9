"""Tonight's awards (docs/rulings.md §10.1): the Narrator's panel for each Hero present in the
open session, the Burden trigger filled in from the night's journal, and one click that gives
them all.

The panel is private to the Narrator. Each Hero has a menu of 0 to :data:`MENU_MAX` (any
number is allowed through ``/advancement award``), set at first to what the Burden trigger
earns; a choice is kept (``storage.advancements``, so a restart keeps the panel's choices). The
button gives every award, each Hero's ledger and its journal entry saved in ONE transaction that
also drops the choices, so a crash keeps all or nothing and the session's recap lists the awards.
The same transaction marks each Hero's award of the night given (``session_awards``, a key per
session and Hero): a second click, or two at once, gives nothing more.

``/session end`` offers the same panel to the Narrator, privately, after the recap card
(``bot.night_awards`` draws it for both): awards given from it are journaled at the session's
close, so they belong to that session, and the table's recap card is edited to list them. Only
the channel's latest session takes them: once another has started, the old panel is closed.
"""

import logging
import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.clicks import picked_id
from bot.client import Interaction
from bot.cogs.campaign.ledger import ledger_entry
from bot.errors import BotError
from bot.night_awards import MENU_MAX, amount_of, heroes_present, panel_text, send_panel
from bot.reach import origin_of, table_reach
from bot.render.common import plain
from bot.render.recap import recap_card
from bot.replies import NO_PINGS
from bot.served import guild_id_of, table_channel_of
from bot.workers.session_end import recap_of
from rules.character.advancement import HOLD_MAX, award
from rules.words import count_of
from storage.journal import TableSession

CHOOSE = r"mab:awsel:(?P<session>\d+):(?P<hero>\d+)"
GIVE = r"mab:awgive:(?P<session>\d+)(?::(?P<recap>\d+))?"
NO_SESSION = "No session is open in this channel: awards are given before `/session end`."
NO_HEROES = "No Hero has taken part in this session yet: nothing to award."
CLOSED = "That session has ended: its awards are closed."
GIVEN = "Tonight's award for that Hero has been given already; `/advancement award` gives more."
NOT_PRESENT = "That character is no Hero who took part tonight; `/advancement award` gives any Hero more."
ALL_GIVEN = "Tonight's awards have been given already; `/advancement award` gives more."
log = logging.getLogger(__name__)


async def open_session(interaction: Interaction, expected: int | None = None) -> TableSession:
    (await caller(interaction)).require_narrator("give tonight's awards")
    journal = interaction.client.storage.journal
    guild_id, channel_id = guild_id_of(interaction), table_channel_of(interaction)
    session = await journal.open_in(guild_id, channel_id)
    if expected is None:
        if session is None:
            raise BotError(NO_SESSION)
        return session
    if session is None:  # just ended: the panel /session end offered
        session = next(iter(await journal.sessions(guild_id, channel_id, limit=1)), None)
    if session is None or session.id != expected:
        raise BotError(CLOSED)
    return session


async def show_panel(interaction: Interaction) -> None:
    """``/advancement night``: the panel, privately."""
    session = await open_session(interaction)
    proposals, _ = await heroes_present(interaction, session)
    if not proposals:
        given = await interaction.client.storage.advancements.awarded(session.id)
        raise BotError(ALL_GIVEN if given else NO_HEROES)
    await send_panel(interaction, session, proposals)


async def choose(interaction: Interaction, session_id: int, hero: int, amount: int) -> None:
    session = await open_session(interaction, session_id)
    if not 0 <= amount <= MENU_MAX:
        raise BotError(f"An award on this panel is 0 to {MENU_MAX}; `/advancement award` gives more.")
    proposals, _ = await heroes_present(interaction, session)
    if hero not in {p.character_id for p in proposals}:
        given = await interaction.client.storage.advancements.awarded(session.id)
        raise BotError(GIVEN if hero in given else NOT_PRESENT)
    await interaction.client.storage.advancements.propose(session.guild_id, session.id, hero, amount)
    chosen = await interaction.client.storage.advancements.proposed(session.id)
    await replies.edit(interaction, content=panel_text(proposals, chosen))


async def give(interaction: Interaction, session_id: int, recap: int | None = None) -> None:
    """Every Hero's award, saved with its journal entry in one transaction; the table told (and,
    for a session already ended, its recap card ``recap`` shown again with them)."""
    session = await open_session(interaction, session_id)
    storage = interaction.client.storage
    proposals, sheets = await heroes_present(interaction, session)
    if not proposals:
        await replies.edit(interaction, view=None)
        raise BotError(ALL_GIVEN)
    chosen = await storage.advancements.proposed(session.id)
    if all(amount_of(p, chosen) <= 0 for p in proposals):
        raise BotError("Every award on the panel is 0: choose at least one, or end the session without.")
    told: list[str] = []
    lost: list[str] = []
    async with storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        for p in proposals:
            amount = amount_of(p, chosen)
            # The key per session and Hero: a second click (even at the same moment) gives nothing.
            if amount <= 0 or not await tx.advancements.claim_award(
                session.guild_id, session.id, p.character_id, amount
            ):
                continue
            stored = sheets[p.character_id]
            given = award(stored.character.advancements, amount)
            after = stored.character.model_copy(update={"advancements": given.ledger})
            saved = await tx.characters.update(session.guild_id, stored, after)
            line = f"{stored.name} earns {count_of(amount, 'Advancement')} tonight ({p.reasons(amount)})."
            entry = ledger_entry(saved, after, line, amount)
            if session.ended_at is not None:
                entry = entry.model_copy(update={"at": session.ended_at})
            await tx.journal.add(session.guild_id, origin_of(interaction), [entry])
            told.append(plain(line))
            if given.lost:
                lost.append(f"{plain(stored.name)} lost {given.lost} over the {HOLD_MAX} a Hero holds.")
        if not told:
            raise BotError(ALL_GIVEN)  # another click gave them just now
        await tx.advancements.drop_proposals(session.id)
    await replies.edit(interaction, view=None)
    await replies.send(interaction, "\n".join(told))
    if lost:
        await replies.send(interaction, "\n".join(lost), ephemeral=True)
    if session.ended_at is not None and recap is not None:
        await show_recap_again(interaction, session, recap)


async def show_recap_again(interaction: Interaction, session: TableSession, recap: int) -> None:
    """The table's recap card of an ended session, edited to read as it does now (its awards)."""
    storage = interaction.client.storage
    row = await storage.outbox.get(recap)
    if row is None or row.message_id is None or row.channel_id != session.channel_id:
        return  # never shown (or pruned): /session recap reads the awards anyway
    blocks, _ = await recap_of(storage, session, table_reach(session.channel_id))
    channel = interaction.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
    try:
        await channel.get_partial_message(row.message_id).edit(
            view=recap_card(blocks), allowed_mentions=NO_PINGS
        )
    except discord.HTTPException as error:
        log.warning("Could not show the awards on the recap card %s: %s", row.message_id, error)


class ChooseAward(discord.ui.DynamicItem[discord.ui.Select[Any]], template=CHOOSE):
    """One Hero's award on the panel."""

    def __init__(self, session: int, hero: int) -> None:
        super().__init__(discord.ui.Select(custom_id=f"mab:awsel:{session}:{hero}"))
        self.session, self.hero = session, hero

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ChooseAward":
        return cls(int(match["session"]), int(match["hero"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await choose(interaction, self.session, self.hero, picked_id(interaction))


class GiveAwards(discord.ui.DynamicItem[discord.ui.Button[Any]], template=GIVE):
    """The panel's button: give every award now."""

    def __init__(self, session: int, recap: int | None = None) -> None:
        suffix = "" if recap is None else f":{recap}"
        super().__init__(discord.ui.Button(custom_id=f"mab:awgive:{session}{suffix}"))
        self.session, self.recap = session, recap

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "GiveAwards":
        return cls(int(match["session"]), int(match["recap"]) if match["recap"] else None)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await give(interaction, self.session, self.recap)
