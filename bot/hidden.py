"""A Narrator's hidden Villain or Extra outside a Conflict: what the table is told of its sheet
and its rolls, and where its figures go (docs/rulings.md §7.1).

The table is told what a Conflict would tell it: that the character is hit, recovers or has its
sheet changed, and its plain state after (``bot.secrecy.plain_state``); of a roll, the dice thrown
but not the ratings behind them (``bot.render.dice.pool_shown``). The figures travel as a
``/gmroll``'s do, by one rule (:func:`tell_narrators`): to the Narrator who asked, privately, and
a copy to the GM channel. Asked in the GM channel itself, the answer is the full one, in the
open there: only Narrators read that channel.
"""

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

import discord

from bot import replies
from bot.render.cards import Card, card_view
from bot.render.common import FAILURE, NEUTRAL, SUCCESS, plain
from bot.render.sheet import change_embed
from bot.secrecy import is_secret, plain_state
from bot.served import guild_id_of
from rules.character import Character, Resilience, resilience_lost
from rules.words import is_group, says
from storage import Storage, StoredCharacter

Draw = Callable[[], Card | discord.Embed]
"""Draws one answer: a card is drawn afresh for each message that shows it."""
GM_COPY_FAILED = "I could not post a copy in the GM channel; check my permissions there."
Change = Literal["hit", "recovers", "changes"]
COLOURS = {"hit": FAILURE, "recovers": SUCCESS, "changes": NEUTRAL}


def is_hidden(stored: StoredCharacter | None) -> bool:
    """Whether ``stored`` is a sheet only the Narrators read (``bot.secrecy.is_secret``)."""
    return stored is not None and is_secret(stored.character.kind, stored.revealed)


def _lost(character: Character) -> tuple[int, ...]:
    if character.is_extra:
        return (character.members_down,)
    return tuple(resilience_lost(character, r) for r in Resilience)


class TableLine(NamedTuple):
    """What the table is told of a change to a hidden sheet: what it did, and the line."""

    change: Change
    text: str


def table_line(before: Character, after: Character) -> TableLine | None:
    """What the table is told of a change to a hidden sheet, "**Vess** is hit: now wounded":
    a hit (a Resilience lost, a member down), a recovery or another change, with the plain
    state after; None when nothing changed, so there is nothing to tell."""
    if before == after:
        return None
    lost = list(zip(_lost(before), _lost(after), strict=True))
    worse, better = any(a > b for b, a in lost), any(a < b for b, a in lost)
    change: Change = "hit" if worse else "recovers" if better else "changes"
    name, many = f"**{plain(after.name)}**", is_group(after.size)
    was, now = plain_state(before).value, plain_state(after).value
    state = f"now {now}" if now != was else f"still {now}"
    if change == "hit":
        return TableLine(change, f"{says(name, 'is', many)} hit: {state}.")
    if change == "recovers":
        return TableLine(change, f"{says(name, 'recovers', many)}: {state}.")
    return TableLine(change, f"{name}'s sheet changes: {state}.")


def _message(draw: Draw) -> dict[str, Any]:
    shown = draw()
    return {"embed": shown} if isinstance(shown, discord.Embed) else {"view": card_view(shown)}


async def tell_narrators(interaction: discord.Interaction[Any], full: Draw, gm: int | None = None) -> None:
    """THE way a secret's figures travel (docs/rulings.md §7.1): privately to the Narrator who
    asked, and a copy to the GM channel (``gm``, as read) unless it was asked there."""
    await replies.send(interaction, ephemeral=True, **_message(full))
    channel = interaction.client.get_channel(gm) if gm and gm != interaction.channel_id else None
    if isinstance(channel, discord.abc.Messageable):
        try:
            await channel.send(allowed_mentions=replies.NO_PINGS, **_message(full))
        except discord.HTTPException:
            await replies.send_private(interaction, GM_COPY_FAILED)


async def answer(
    interaction: discord.Interaction[Any], storage: Storage, public: Draw | None, full: Draw
) -> None:
    """Answer about a hidden sheet: the table sees ``public`` (nothing when None), the figures
    go by :func:`tell_narrators`; in the GM channel, ``full`` in the open."""
    gm = (await storage.settings.get(guild_id_of(interaction))).gm_channel_id
    if gm is not None and gm == interaction.channel_id:
        await replies.send(interaction, **_message(full))
        return
    if public is not None:
        await replies.send(interaction, **_message(public))
    await tell_narrators(interaction, full, gm)


def sheet_hidden(stored: StoredCharacter, after: Character) -> bool:
    """A change the table must not read in full: the sheet was hidden, or is now."""
    return is_hidden(stored) or is_secret(after.kind, stored.revealed)


async def tell_change(
    interaction: discord.Interaction[Any],
    storage: Storage,
    stored: StoredCharacter,
    after: Character,
    full: discord.Embed,
) -> None:
    """Answer a change to ``stored``'s sheet: ``full`` in the open for a sheet the table reads;
    for a hidden one, the table gets :func:`table_line` and the Narrator the figures."""
    if not sheet_hidden(stored, after):
        await replies.send(interaction, embed=full)
        return
    said = table_line(stored.character, after)

    def public() -> discord.Embed:
        assert said is not None
        return change_embed(after, said.text, colour=COLOURS[said.change])

    await answer(interaction, storage, public if said is not None else None, lambda: full)


class Drawn(NamedTuple):
    """How to draw a roll's card: ``full``, and ``table`` for a hidden roller's, which the table
    sees instead (None: the full card is the table's). A card is drawn afresh for each message."""

    full: Callable[[], Card]
    table: Callable[[], Card] | None = None


async def show_roll(interaction: discord.Interaction[Any], storage: Storage, drawn: Drawn) -> None:
    """Answer with a roll: in the open, or for a hidden roller by :func:`answer`."""
    if drawn.table is None:
        await replies.send(interaction, view=card_view(drawn.full()))
    else:
        await answer(interaction, storage, drawn.table, drawn.full)
