"""What a Conflict's board shows, and how it is read from what is saved.

:class:`Shown` is one picture of the board: a Conflict at a version with its sheets, or that it is
over. The board worker (``bot.workers.board``) draws it; the catch-up, the web view and the
Conflict cog read the channel's as last committed (:func:`stored_board`); the move flow adds the
turn's buttons to the board's own (:func:`own_buttons`). Kept apart from the worker so each
reads on its own.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import discord

from bot.render.buttons import board_items
from bot.render.conflict import FULL, Visibility
from bot.render.conflict_card import CardButtons, board_card
from bot.render.portraits import portrait_urls
from bot.secrecy import visibility_of
from rules.character import Character
from rules.conflict import Conflict, Phase, Status, Step, waiting
from storage import Storage
from storage.conflict_documents import load_stored
from storage.conflict_moves import Applied
from storage.conflicts import StoredConflict


@dataclass(frozen=True)
class Shown:
    """What a board must show: a Conflict at a version with its sheets, or (``conflict`` None)
    that the Conflict ``conflict_id`` is over."""

    conflict_id: int
    version: int
    conflict: Conflict | None
    sheets: Mapping[int, Character] = field(default_factory=dict)
    revealed: frozenset[int] = frozenset()
    """The sheets a Narrator opened to the players (docs/rulings.md §7.1)."""

    def supersedes(self, held: "Shown | None") -> bool:
        """Whether this is newer news than ``held`` (moves of one channel may finish out of order)."""
        if held is None or self.conflict is None or held.conflict_id != self.conflict_id:
            return True
        return held.conflict is not None and self.version > held.version

    @classmethod
    def of(cls, applied: Applied) -> "Shown":
        """The board after a move, from what the move has in hand."""
        if applied.stored is None:
            return cls(applied.conflict_id, 0, None)
        return cls(
            applied.conflict_id,
            applied.stored.version,
            applied.conflict,
            applied.characters,
            applied.revealed,
        )

    def visibility(self) -> Visibility:
        """Whose numbers the public board shows (docs/rulings.md §7.1)."""
        assert self.conflict is not None
        return visibility_of(self.conflict, self.sheets, self.revealed)

    def card(
        self,
        buttons: CardButtons,
        *,
        full: bool = False,
        note: str = "",
        portraits: Mapping[int, str] | None = None,
    ) -> discord.ui.LayoutView:
        """The board as a card with ``buttons``: public, or with every number when ``full`` (a
        Narrator's view, answered privately, with ``note`` under its header); ``portraits`` are
        the thumbnails' addresses by character (:func:`board_portraits`)."""
        assert self.conflict is not None
        view = FULL if full else self.visibility()
        return board_card(self.conflict, self.sheets, view, buttons, portraits, note)


Buttons = Callable[[Shown], CardButtons]
"""The buttons on the board of ``Shown``: the turn's under whoever is up, the board's own at its foot."""


def own_buttons(shown: Shown) -> CardButtons:
    """The board's own buttons only (the move flow adds the turn's): Begin round 1 while the cast
    gathers, Next round when the round is over, the menu to take a fighter out between rounds,
    and Narrator view."""
    conflict = shown.conflict
    if conflict is None:
        return CardButtons(bottom=board_items(shown.conflict_id))
    gathering = conflict.phase is Phase.GATHER
    over = waiting(conflict).step is Step.NEXT_ROUND
    fighters = tuple((p.id, p.name) for p in conflict.participants) if between_rounds(conflict) else ()
    return CardButtons(bottom=board_items(shown.conflict_id, gathering, over, fighters))


def between_rounds(conflict: Conflict) -> bool:
    """From the end of a round until the next round's first declaration: when the cast changes
    without anyone having chosen hearing the old one (docs/rulings.md §4.18), whether the
    Narrator presses Next round or the rounds roll on by themselves (§4.17)."""
    if waiting(conflict).step is Step.NEXT_ROUND:
        return True
    fresh = all(p.round.status is Status.UNDECLARED for p in conflict.participants)
    return conflict.phase is Phase.DECLARE and fresh


async def board_portraits(storage: Storage, public_url: str | None, guild_id: int) -> dict[int, str]:
    """The addresses of the server's portraits, for the board's thumbnails: only when Discord can
    fetch them (a web view with a public address, ``MISTBORN_WEB_PUBLIC_URL``), else none."""
    if not public_url:
        return {}
    return portrait_urls(public_url, guild_id, await storage.portraits.tokens(guild_id))


async def stored_board(
    storage: Storage, guild_id: int, channel_id: int
) -> tuple[StoredConflict, Shown] | None:
    """The channel's Conflict as last committed and what its board shows (None: no Conflict)."""
    stored, loaded = await storage.conflicts.get_with_sheets(guild_id, channel_id)
    if stored is None:
        return None
    sheets = {cid: s.character for cid, s in loaded.items()}  # a deleted one shows as missing
    revealed = frozenset(cid for cid, s in loaded.items() if s.revealed)
    state = load_stored(stored).with_sheets(sheets)
    return stored, Shown(stored.id, stored.version, state, sheets, revealed)
