"""Tonight's award panel (docs/rulings.md §10.1): a proposal for each Hero who took part in the
night (``rules.campaign.presence``: a roll, a request, a Conflict joined, a wound, a Breather…),
the Burden trigger filled in, drawn as menus and a button, privately for the Narrator.

Shared by ``/advancement night`` (``bot.cogs.campaign.awards``, which answers the menus and the
button) and by ``/session end``, which offers it for the night just closed (:func:`offer`). The
custom ids are the campaign cog's dynamic items', so a restart keeps the panel working.
"""

from collections.abc import Sequence
from typing import Any

import discord

from bot import replies
from bot.client import Interaction
from bot.render.common import plain
from rules.campaign.awards import REASONS, Proposal, propose
from rules.campaign.presence import present
from rules.character import CharacterKind
from rules.words import count_of
from storage import StoredCharacter
from storage.errors import NotFoundError
from storage.journal import TableSession

MENU_MAX = 6
HEROES_A_PANEL = 4
"""Menus one message holds beside its button row (Discord's five rows)."""


async def heroes_present(
    interaction: Interaction, session: TableSession
) -> tuple[list[Proposal], dict[int, StoredCharacter]]:
    """A proposal per Hero who took part in the night (who still exists), in name order: those
    the journal shows taking part, and those the panel already has an award set for (so a
    click reads the same Heroes the Narrator chose from); not those whose award of the night
    was given already."""
    storage = interaction.client.storage
    entries = await storage.journal.all_entries(session)
    chosen = await storage.advancements.proposed(session.id)
    given = await storage.advancements.awarded(session.id)
    sheets: dict[int, StoredCharacter] = {}
    for character_id in sorted((present(entries) | set(chosen)) - set(given)):
        try:
            stored = await storage.characters.get(session.guild_id, character_id)
        except NotFoundError:
            continue
        if stored.character.kind is CharacterKind.HERO:
            sheets[stored.id] = stored
    proposals = propose(entries, {i: s.name for i, s in sheets.items()})
    return proposals, sheets


def amount_of(proposal: Proposal, chosen: dict[int, int]) -> int:
    return chosen.get(proposal.character_id, proposal.burden_points)


def panel_text(proposals: Sequence[Proposal], chosen: dict[int, int]) -> str:
    lines = ["**Tonight's awards** (1–3 is usual; `/advancement award` gives any number)"]
    for p in proposals:
        burdens = (
            f" · Burden trigger {len(p.burdens)}: {', '.join(map(plain, p.burdens))}" if p.burdens else ""
        )
        noted = f" · noted: {'; '.join(map(plain, p.noted))}" if p.noted else ""
        lines.append(f"• **{plain(p.name)}**: {amount_of(p, chosen)}{burdens}{noted}"[:300])
    lines.append("-# Given for: " + ", ".join(REASONS) + ".")
    return "\n".join(lines)


def choose_menu(session: int, proposal: Proposal, amount: int) -> discord.ui.Select[Any]:
    options = [
        discord.SelectOption(label=f"{proposal.name[:60]}: {count_of(n, 'Advancement')}", value=str(n))
        for n in range(MENU_MAX + 1)
    ]
    options[min(amount, MENU_MAX)].default = True
    return discord.ui.Select(custom_id=f"mab:awsel:{session}:{proposal.character_id}", options=options)


def panel_views(
    session: int, proposals: Sequence[Proposal], chosen: dict[int, int], recap: int | None = None
) -> list[discord.ui.View]:
    """A message's worth of menus per :data:`HEROES_A_PANEL` Heroes; the last holds the button
    (which names the table's recap card, its outbox row, when the session has ended)."""
    views: list[discord.ui.View] = []
    for start in range(0, len(proposals), HEROES_A_PANEL):
        view = discord.ui.View(timeout=None)
        for p in proposals[start : start + HEROES_A_PANEL]:
            view.add_item(choose_menu(session, p, amount_of(p, chosen)))
        views.append(view)
    views[-1].add_item(
        discord.ui.Button(
            label="Give these awards",
            style=discord.ButtonStyle.success,
            custom_id=f"mab:awgive:{session}" + ("" if recap is None else f":{recap}"),
        )
    )
    for view in views:
        view.stop()
    return views


async def offer(interaction: Interaction, session: TableSession, recap: int) -> None:
    """``/session end``'s private follow-up: the panel for the session just closed, when a Hero
    took part; ``recap``: the outbox row of the table's recap card, edited once awards are given."""
    proposals, _ = await heroes_present(interaction, session)
    if proposals:
        await send_panel(interaction, session, proposals, recap)


async def send_panel(
    interaction: Interaction, session: TableSession, proposals: Sequence[Proposal], recap: int | None = None
) -> None:
    chosen = await interaction.client.storage.advancements.proposed(session.id)
    views = panel_views(session.id, proposals, chosen, recap)
    for index, view in enumerate(views):
        text = panel_text(proposals, chosen) if index == 0 else "More Heroes:"
        await replies.send(interaction, text, view=view, ephemeral=True)
