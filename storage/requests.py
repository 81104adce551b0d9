"""The Narrator's requests for rolls: who must roll what, and what each has rolled.

A request is stored with its rollers in one transaction, together with the outbox row that shows
it (``storage/schema/sqlite/V011__roll_requests.sql``), so a request is never saved without its
message, nor shown without being saved. Rolling claims the roller's row in ONE conditional
statement (the request still open, the row not yet rolled): of two clicks at once, exactly one
rolls, and the other is told it was already done. Readings are stored as the rules' own model,
so a Contest can be decided from them later without rolling again.
"""

from datetime import datetime

from rules.contest import Side
from rules.request import MAX_ROLLERS, NewRoller, RequestKind, RequestSpec, Roller, RollRequest
from rules.roll import Reading
from storage.pruning import PRUNE_BATCH, prune_in_batches
from storage.session import Session
from storage.sql import Row, execute, execute_many, fetch_all, fetch_one, from_text, insert, to_text, utc_now

GONE = "That request is gone (closed long ago, or never saved); the Narrator can ask again with /request."


def _roller(row: Row) -> Roller:
    return Roller(
        position=row["position"],
        side=Side(row["side"]),
        character_id=row["character_id"],
        user_id=row["user_id"],
        name=row["name"],
        reading=None if row["reading"] is None else Reading.model_validate_json(row["reading"]),
        rolled_by=row["rolled_by"],
    )


class RequestRepository:
    """Creates, reads, claims and closes requests, always within one server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        narrator_id: int,
        kind: RequestKind,
        spec: RequestSpec,
        rollers: list[NewRoller],
    ) -> RollRequest:
        """Store a request and its rollers (use inside ``Storage.transaction()`` with its message)."""
        if not 1 <= len(rollers) <= MAX_ROLLERS:
            raise ValueError(f"A request has 1 to {MAX_ROLLERS} rollers, not {len(rollers)}.")
        now = utc_now()
        async with self._session.writing() as conn:
            request_id = await insert(
                conn,
                "INSERT INTO roll_requests (guild_id, channel_id, narrator_id, kind, spec, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, narrator_id, kind.value, spec.model_dump_json(), to_text(now)),
            )
            await execute_many(
                conn,
                "INSERT INTO roll_request_rollers (request_id, position, side, character_id, user_id, name)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (request_id, i, r.side.value, r.character_id, r.user_id, r.name)
                    for i, r in enumerate(rollers)
                ],
            )
        return RollRequest(
            id=request_id,
            guild_id=guild_id,
            channel_id=channel_id,
            narrator_id=narrator_id,
            kind=kind,
            spec=spec,
            closed=False,
            created_at=now,
            message_id=None,
            rollers=tuple(Roller(position=i, **r.model_dump()) for i, r in enumerate(rollers)),
        )

    async def shown_by(self, guild_id: int, request_id: int, outbox_id: int) -> None:
        """The outbox row that shows the request (written in the request's transaction)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "UPDATE roll_requests SET outbox_id = ? WHERE guild_id = ? AND id = ?",
                (outbox_id, guild_id, request_id),
            )

    async def get(self, guild_id: int, request_id: int) -> RollRequest | None:
        """The request with its rollers as saved (two indexed reads), or None if it is gone."""
        row = await fetch_one(
            self._session.lookup,
            "SELECT r.id, r.guild_id, r.channel_id, r.narrator_id, r.kind, r.spec, r.closed,"
            " r.created_at, o.message_id FROM roll_requests AS r"
            " LEFT JOIN outbox AS o ON o.id = r.outbox_id WHERE r.guild_id = ? AND r.id = ?",
            (guild_id, request_id),
        )
        if row is None:
            return None
        rollers = await fetch_all(
            self._session.lookup,
            "SELECT position, side, character_id, user_id, name, reading, rolled_by"
            " FROM roll_request_rollers WHERE request_id = ? ORDER BY position",
            (request_id,),
        )
        return RollRequest(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            narrator_id=row["narrator_id"],
            kind=RequestKind(row["kind"]),
            spec=RequestSpec.model_validate_json(row["spec"]),
            closed=bool(row["closed"]),
            created_at=from_text(row["created_at"]),
            message_id=row["message_id"],
            rollers=tuple(_roller(r) for r in rollers),
        )

    async def claim(
        self, guild_id: int, request_id: int, position: int, reading: Reading, rolled_by: int
    ) -> bool:
        """Record the roller's reading if the request is open and they have not rolled; False
        when someone was first (or the request closed) and nothing was written."""
        async with self._session.writing() as conn:
            changed = await execute(
                conn,
                "UPDATE roll_request_rollers SET reading = ?, rolled_by = ?"
                " WHERE request_id = ? AND position = ? AND reading IS NULL AND EXISTS ("
                " SELECT 1 FROM roll_requests WHERE id = ? AND guild_id = ? AND closed = 0)",
                (reading.model_dump_json(), rolled_by, request_id, position, request_id, guild_id),
            )
        return changed == 1

    async def close(self, guild_id: int, request_id: int) -> bool:
        """Close the request; False if it was closed already."""
        async with self._session.writing() as conn:
            changed = await execute(
                conn,
                "UPDATE roll_requests SET closed = 1 WHERE guild_id = ? AND id = ? AND closed = 0",
                (guild_id, request_id),
            )
        return changed == 1

    async def touched(self, after: int, limit: int) -> list[tuple[int, int]]:
        """``(guild_id, id)`` of the requests after ``after`` whose message may lag behind what
        is saved: shown, and rolled for or closed since (a crash between saving a roll and
        editing the message leaves it so); in id order, ``limit`` at a time."""
        rows = await fetch_all(
            self._session.lookup,
            "SELECT r.guild_id, r.id FROM roll_requests AS r JOIN outbox AS o ON o.id = r.outbox_id"
            " WHERE r.id > ? AND o.message_id IS NOT NULL AND (r.closed = 1 OR EXISTS ("
            " SELECT 1 FROM roll_request_rollers AS p WHERE p.request_id = r.id AND p.reading IS NOT NULL))"
            " ORDER BY r.id LIMIT ?",
            (after, limit),
        )
        return [(row["guild_id"], row["id"]) for row in rows]

    async def prune(self, before: datetime, batch: int = PRUNE_BATCH) -> int:
        """Delete the requests made before ``before`` (their rollers go with them), ``batch``
        requests per statement (``storage.pruning``)."""
        return await prune_in_batches(
            self._session, "roll_requests", "id", "created_at < ?", (to_text(before),), batch=batch
        )
