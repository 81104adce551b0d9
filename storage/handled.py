"""Interactions whose change is saved: the same interaction never applies twice.

Discord may deliver an interaction again (a gateway resume replays it), and a user who saw no
answer retries. A change records its interaction's id in the same transaction as the change
itself; a second attempt with that id finds it and changes nothing. Discord's interaction
tokens live 15 minutes, so a day's rows are more than enough (``bot.workers.upkeep`` prunes).
"""

from datetime import datetime

from storage.errors import AlreadyHandledError
from storage.pruning import PRUNE_BATCH, prune_in_batches, snowflake_before
from storage.session import Session
from storage.sql import Connection, IntegrityError, execute, to_text, utc_now

ALREADY = "That request was already carried out; nothing changed this time."


async def claim_on(conn: Connection, interaction_id: int) -> None:
    """Record ``interaction_id`` as handled on ``conn``; :class:`AlreadyHandledError` if it
    already was (for a repository that claims inside its own write, ``RollLog.append_once``)."""
    try:
        await execute(
            conn,
            "INSERT INTO handled_interactions (interaction_id, handled_at) VALUES (?, ?)",
            (interaction_id, to_text(utc_now())),
        )
    except IntegrityError as error:
        raise AlreadyHandledError(ALREADY) from error


class HandledRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    async def claim(self, interaction_id: int) -> None:
        """Record `interaction_id` as handled; :class:`AlreadyHandledError` if it already was.

        Use it inside the transaction that makes the change, so both stand or fall together.
        """
        async with self._session.writing() as conn:
            await claim_on(conn, interaction_id)

    async def prune(self, before: datetime, batch: int = PRUNE_BATCH) -> int:
        """Forget interactions handled before `before`, ``batch`` per statement
        (``storage.pruning``); return how many.

        An interaction's id is a Discord snowflake that tells when it was made, which is before
        it was handled: so the rows handled before ``before`` all lie in the primary key below
        :func:`~storage.pruning.snowflake_before` of it, read from its oldest, with no index on
        the time for every claim to write."""
        return await prune_in_batches(
            self._session,
            "handled_interactions",
            "interaction_id",
            "interaction_id < ? AND handled_at < ?",
            (snowflake_before(before), to_text(before)),
            order="interaction_id",
            batch=batch,
        )
