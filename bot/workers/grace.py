"""The moment a player gets to answer their own defence before a Narrator may answer for them
(docs/rulings.md §4.20): when each defence prompt was posted, and how long ago.

A button knows its own message's age (``bot.cogs.conflict.buttons.prompt_age``); a typed
``/defend`` is held against the time kept here in memory (told by the reply's delivery once the
prompt is posted, ``bot.cogs.conflict.delivery.send``), or, after a restart, the time the outbox
kept for the prompt (:meth:`DefenceGrace.asked_at`).
"""

import time
from datetime import datetime

import discord

from bot.errors import BotError
from bot.served import channel_id_of, guild_id_of
from rules.conflict import Awaiting
from storage import Storage
from storage.conflict_documents import load_stored

DEFEND_GRACE = 30.0
"""Seconds a player gets to answer a defence before a Narrator may answer for them."""
PROMPTS_KEPT = 4096
"""Defence prompts whose time is remembered at most; an older one is merely not held to the grace."""


class DefenceGrace:
    """The defence prompts in play and their times, for every channel."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.seconds = DEFEND_GRACE
        self._prompted: dict[tuple[int, int, int], float] = {}

    def prompted(self, guild_id: int, channel_id: int, attack_id: int) -> None:
        """Remember when this defence prompt was posted; forget prompts older than the grace,
        which no longer hold anyone back, so the table stays as small as the prompts in play."""
        now = time.monotonic()
        key = (guild_id, channel_id, attack_id)
        self._prompted.pop(key, None)
        self._prompted[key] = now
        while self._prompted:
            oldest = next(iter(self._prompted))
            if now - self._prompted[oldest] <= self.seconds and len(self._prompted) <= PROMPTS_KEPT:
                break
            del self._prompted[oldest]

    async def asked_at(self, guild_id: int, channel_id: int) -> dict[int, datetime]:
        """When the channel's pending defence was asked, by attack id, as the outbox kept it: a
        typed ``/defend`` after a restart still gives the player their moment (§4.20)."""
        stored = await self.storage.conflicts.get(guild_id, channel_id)
        pending = load_stored(stored).pending if stored is not None else None
        if stored is None or pending is None or pending.awaiting is not Awaiting.DEFENCE:
            return {}
        row = await self.storage.outbox.latest_asking(stored.id, f"defend:{pending.id}")
        return {} if row is None else {pending.id: row.created_at}

    async def waits(self, interaction: discord.Interaction[discord.Client]) -> dict[int, float]:
        """Seconds since each of the channel's defence prompts was posted, by attack id, read
        before a typed defence is made (the move keeps them as data, ``DefenceOptions.waited``).

        The prompt times are kept in memory, or, after a restart, the outbox's (:meth:`asked_at`);
        when neither knows, the wait is not enforced.
        """
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        now = time.monotonic()
        known = {a: now - t for (g, c, a), t in self._prompted.items() if (g, c) == (guild_id, channel_id)}
        for attack, asked in (await self.asked_at(guild_id, channel_id)).items():
            known.setdefault(attack, (discord.utils.utcnow() - asked).total_seconds())
        return known


def hold_for_player(waited: float | None, seconds: float) -> None:
    """A Narrator answering a player's defence must first give the player a moment."""
    if waited is None:
        return
    left = seconds - waited
    if left > 0:
        raise BotError(f"Give the player a moment to choose: you can answer for them in {left:.0f} s.")
