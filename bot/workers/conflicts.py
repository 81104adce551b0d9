"""The workers every Conflict of this process shares, built once with their collaborators.

A move (``bot.cogs.conflict.service``) saves and composes; what reaches Discord afterwards is
these workers' job: the boards, the outbox of replies and prompts, the channels that refused the
bot, the threads, and the defence grace's timers. They sit below the Conflict's package, so what
they need of it — the buttons a board offers, the question a catch-up posts anew — is handed to
this constructor by the composition root (``bot.app``), never set on them afterwards.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.workers.board import Boards
from bot.workers.board_state import Buttons
from bot.workers.grace import DefenceGrace
from bot.workers.narrator_reach import NarratorReach
from bot.workers.outbox import Outbox
from bot.workers.pacing import Pacer
from bot.workers.refusals import Refusals
from bot.workers.threads import Threads
from rules.character import Character
from rules.conflict import Conflict
from storage import NewMessage, Storage


class AskAgain(Protocol):
    """The pending question of a Conflict posted anew (``bot.cogs.conflict.questions.asked_again``),
    or None when nothing waits."""

    def __call__(
        self, conflict_id: int, conflict: Conflict, sheets: Mapping[int, Character], revealed: frozenset[int]
    ) -> NewMessage | None: ...


@dataclass(frozen=True)
class ConflictPrompts:
    """What the workers need of the Conflict's package, handed down by ``bot.app``: the buttons
    a board offers under whoever must answer (``questions.board_buttons``) and the pending
    question a catch-up posts anew (``questions.asked_again``)."""

    buttons: Buttons
    asked_again: AskAgain


class ConflictWorkers:
    """The boards, the outbox, the refusals, the threads, the defence grace and where each Narrator
    is answered privately, for every channel."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        pacer: Pacer,
        *,
        buttons: Buttons,
        public_url: str | None = None,
    ) -> None:
        self.storage = storage
        self.pacer = pacer
        self.threads = Threads(client, pacer)
        self.refusals = Refusals(storage)
        self.boards = Boards(
            client, storage, pacer, self.threads, self.refusals, buttons=buttons, public_url=public_url
        )
        self.outbox = Outbox(client, storage, pacer, self.threads, self.refusals, closing=self.boards.ended)
        self.grace = DefenceGrace(storage)
        self.narrators = NarratorReach()
        """Each Narrator's latest interaction per channel: their private prompts go there."""

    async def idle(self) -> None:
        """Wait until every board refresh and queued delivery has run (tests and benchmarks)."""
        await self.outbox.idle()
        await self.boards.idle()

    def close(self) -> None:
        self.boards.close()
        self.outbox.close()
