"""Where a Narrator can be answered privately: their latest interaction in each channel.

Discord lets the bot send followups on an interaction for 15 minutes after it was made, and an
ephemeral followup shows in that channel to that member alone. A Narrator at a Conflict keeps
interacting (their characters' moves, the board), so their latest interaction there is the way
to put a hidden character's exact choices on their own private prompt when a player's move asks
that character something (``bot.cogs.conflict.narrator_prompt``, docs/rulings.md §7.1).

Kept in this process's memory only: after a restart, or on another process of a cluster, there
is none, and the public prompt's **Its dice (Narrator)** still answers in two clicks.
"""

import time
from typing import Any

import discord

TOKEN_LIFE = 14 * 60.0
"""Seconds an interaction is used for followups: Discord keeps its token 15 minutes; one is kept
in hand for the time the followup takes to arrive."""


class NarratorReach:
    """Each Narrator's latest interaction per channel, while its token lives."""

    def __init__(self, life: float = TOKEN_LIFE) -> None:
        self.life = life
        self._latest: dict[tuple[int, int], tuple[float, discord.Interaction[Any]]] = {}

    def note(self, channel_id: int, interaction: discord.Interaction[Any]) -> None:
        """A Narrator's interaction in ``channel_id`` (the caller checked they are one)."""
        now = time.monotonic()
        self._latest = {k: v for k, v in self._latest.items() if now - v[0] < self.life}
        self._latest[(channel_id, interaction.user.id)] = (now, interaction)

    def latest(self, channel_id: int, user_id: int) -> discord.Interaction[Any] | None:
        """``user_id``'s latest interaction in ``channel_id`` whose token still lives."""
        found = self._latest.get((channel_id, user_id))
        if found is None or time.monotonic() - found[0] >= self.life:
            return None
        return found[1]

    def forget(self, channel_id: int, user_id: int) -> None:
        """Discord refused a followup on it: it is not tried again."""
        self._latest.pop((channel_id, user_id), None)
