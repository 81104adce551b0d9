"""Upkeep in the background: what would otherwise grow without bound is pruned.

* The roll log keeps the rolls of the last ``MISTBORN_ROLL_LOG_DAYS`` days (0 keeps them all):
  ``/history rolls`` lists what is kept, while the fairness report reads totals that count
  every roll ever made (``storage.rolls``), so pruning changes neither its figures nor its verdict.
* The outbox keeps delivered messages for :data:`OUTBOX_DAYS`, and the prompts of a running
  Conflict as long as it runs (a restarted bot checks them).
* The Narrator's requests for rolls are kept as long (their message comes from the outbox).
* A session left open closes by itself after ``MISTBORN_SESSION_QUIET_HOURS`` without anything
  happening in its channel, at its last event, and its recap card is queued for the channel in
  the same transaction (``bot.workers.session_end``); sessions and their journal are kept as
  long as the roll log (``storage.journal``).

It runs once the bot is connected, then every :data:`EVERY` seconds, a few hundred rows per
statement, so a roll or a move waiting for the database barely notices.
"""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.workers.repeating import Repeating
from bot.workers.session_end import close_session
from storage import Storage
from storage.errors import StorageError
from storage.sql import utc_now

log = logging.getLogger(__name__)

EVERY = 6 * 3600.0
OUTBOX_DAYS = 7


HANDLED_DAYS = 1
"""Days a handled interaction's id is kept: Discord's interaction tokens live 15 minutes."""


class Upkeep(Repeating):
    name = "upkeep"

    def __init__(
        self,
        storage: Storage,
        roll_log_days: int,
        session_quiet_hours: float = 12.0,
        clock: Callable[[], datetime] = utc_now,
        wake: Callable[[int, int], None] | None = None,
    ) -> None:
        """``wake(guild, channel)``: the outbox has a row to post there now (a quiet session's
        recap); without it the row waits for the next start's catch-up."""
        self.storage = storage
        self.roll_log_days = roll_log_days
        self.session_quiet = timedelta(hours=session_quiet_hours)
        self.clock = clock
        self.wake = wake
        super().__init__(EVERY)

    async def once(self) -> None:
        """Prune (now, then every :attr:`every` seconds once started)."""
        try:
            rolls, messages = await self.prune()
            if rolls or messages:
                log.info("Pruned %d old roll(s) and %d delivered message(s)", rolls, messages)
        except StorageError as error:
            log.warning("Could not prune old rows now: %s", error)

    async def prune(self) -> tuple[int, int]:
        """One pass: (rolls, outbox rows) deleted."""
        now = self.clock()
        await self.close_quiet(now)
        rolls = 0
        if self.roll_log_days > 0:
            rolls = await self.storage.rolls.prune(now - timedelta(days=self.roll_log_days))
            await self.storage.journal.prune(now - timedelta(days=self.roll_log_days))
        before = now - timedelta(days=OUTBOX_DAYS)
        await self.storage.requests.prune(before)
        messages = await self.storage.outbox.prune(before)
        await self.storage.handled.prune(now - timedelta(days=HANDLED_DAYS))
        return rolls, messages

    async def close_quiet(self, now: datetime) -> int:
        """Close each session left open in a quiet channel, with its recap card; how many."""
        hours = self.session_quiet.total_seconds() / 3600
        closed = 0
        for stored, last in await self.storage.journal.quiet(now - self.session_quiet):
            done = await close_session(self.storage, stored, last, "quiet", quiet_hours=hours)
            if done is None:
                continue  # its Narrator ended it meanwhile
            closed += 1
            if self.wake is not None:
                self.wake(stored.guild_id, stored.channel_id)
        if closed:
            log.info("Closed %d session(s) left open in a quiet channel", closed)
        return closed
