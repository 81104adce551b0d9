"""What the Narrator set for a scene: a channel's Circumstances and the Breathers called.

Circumstances are only ever the Narrator's (docs/rulings.md §1.6): a player's roll in a channel
carries the ones stored for it here. A Breather is the Narrator's call (§5.12): calling one
stores a row per Hero, and taking it removes that row in ONE statement (``DELETE … RETURNING``),
so of two clicks at once exactly one recovers, and a Breather is never taken twice. Each call
keeps its id (``call_id``, the calling interaction's), so a button takes only the call it was
posted with: one the Narrator replaced since is refused, never the newer call taken by it.
"""

from pydantic import BaseModel, ConfigDict, Field

from rules.character.recovery import BreatherKind
from storage.session import Session
from storage.sql import Row, execute, execute_many, fetch_all, fetch_one

NOTE_LENGTH = 100


class SceneCircumstances(BaseModel):
    """A channel's Circumstances: the net die (−1, 0 or +1) and the Narrator's note on why."""

    model_config = ConfigDict(frozen=True)

    net: int = Field(default=0, ge=-1, le=1)
    note: str = Field(default="", max_length=NOTE_LENGTH)


NO_CIRCUMSTANCES = SceneCircumstances()
"""A channel whose Narrator set none: most channels, most rolls (one frozen value, shared)."""


def scene_of(row: Row | None) -> SceneCircumstances:
    """The Circumstances a row holds; none (or a LEFT JOIN that found none) are 0."""
    if row is None or row["net"] is None:
        return NO_CIRCUMSTANCES
    return SceneCircumstances(net=row["net"], note=row["note"])


class BreatherCall(BaseModel):
    """A Breather the Narrator called for one Hero, not yet taken."""

    model_config = ConfigDict(frozen=True)

    kind: BreatherKind
    resting: bool = False
    call_id: int = 0
    """The interaction that called it; 0 for a call stored before calls had ids."""


class SceneRepository:
    """Reads and writes a channel's Circumstances and the Breathers waiting to be taken."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def circumstances(self, guild_id: int, channel_id: int) -> SceneCircumstances:
        """The channel's Circumstances; none (0) when the Narrator never set any."""
        row = await fetch_one(
            self._session.lookup,
            "SELECT net, note FROM scene_circumstances WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return scene_of(row)

    async def set_circumstances(
        self, guild_id: int, channel_id: int, circumstances: SceneCircumstances
    ) -> None:
        """Set the channel's Circumstances; 0 with no note clears them."""
        async with self._session.writing() as conn:
            if circumstances == SceneCircumstances():
                await execute(
                    conn,
                    "DELETE FROM scene_circumstances WHERE guild_id = ? AND channel_id = ?",
                    (guild_id, channel_id),
                )
                return
            await execute(
                conn,
                "INSERT INTO scene_circumstances (guild_id, channel_id, net, note) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, channel_id) DO UPDATE SET net = excluded.net, note = excluded.note",
                (guild_id, channel_id, circumstances.net, circumstances.note),
            )

    async def call_breather(
        self, guild_id: int, character_ids: list[int], call: BreatherCall, called_by: int
    ) -> None:
        """Call a Breather for these Heroes; a newer call replaces one not yet taken."""
        async with self._session.writing() as conn:
            await execute_many(
                conn,
                "INSERT INTO breather_calls (guild_id, character_id, kind, resting, called_by, call_id)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, character_id) DO UPDATE SET"
                " kind = excluded.kind, resting = excluded.resting, called_by = excluded.called_by,"
                " call_id = excluded.call_id",
                [
                    (guild_id, c, call.kind.value, int(call.resting), called_by, call.call_id)
                    for c in character_ids
                ],
            )

    async def take_breather(
        self, guild_id: int, character_id: int, call_id: int | None = None
    ) -> BreatherCall | None:
        """Take the Breather called for this Hero, once: None when none is waiting, or when
        ``call_id`` names a call that is no longer the one waiting (replaced by a newer one).
        Use inside ``Storage.transaction()`` with the sheet's change, so a failed save keeps it."""
        named = "" if call_id is None else " AND call_id = ?"
        async with self._session.writing() as conn:
            rows = await fetch_all(
                conn,
                "DELETE FROM breather_calls WHERE guild_id = ? AND character_id = ?"
                + named
                + " RETURNING kind, resting, call_id",
                (guild_id, character_id) if call_id is None else (guild_id, character_id, call_id),
            )
        return _call(rows[0]) if rows else None

    async def breather_waiting(self, guild_id: int, character_id: int) -> BreatherCall | None:
        """The Breather waiting for this Hero, if any (what replaced a stale button's call)."""
        row = await fetch_one(
            self._session.lookup,
            "SELECT kind, resting, call_id FROM breather_calls WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return _call(row) if row is not None else None

    async def breathers_waiting(self, guild_id: int, character_ids: list[int]) -> set[int]:
        """Which of these Heroes still have a Breather to take."""
        if not character_ids:
            return set()
        marks = ", ".join("?" for _ in character_ids)
        rows = await fetch_all(
            self._session.lookup,
            f"SELECT character_id FROM breather_calls WHERE guild_id = ? AND character_id IN ({marks})",
            (guild_id, *character_ids),
        )
        return {int(r["character_id"]) for r in rows}


def _call(row: Row) -> BreatherCall:
    return BreatherCall(kind=BreatherKind(row["kind"]), resting=bool(row["resting"]), call_id=row["call_id"])
