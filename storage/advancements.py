"""What a campaign keeps of Advancements beside the sheets (migration 29; PostgreSQL 17).

The ledger itself is part of each Hero's sheet (``rules.character.advancement``), saved with
the sheet. Kept here:

* **award proposals**: the award a Narrator sets for each Hero on ``/session end``'s panel, read
  back when the session ends (and dropped with it); a panel reopened after a restart shows them;
* **awards given** from the night's panel (migration 33; PostgreSQL 21): one row per session and
  Hero, written in the award's own transaction by ONE ``INSERT … ON CONFLICT DO NOTHING``, so of
  two clicks (at once, or one after the other) exactly one gives each Hero's award;
* **spends waiting**: a player's purchase waiting for a Narrator's approval. Taking one is ONE
  ``DELETE … RETURNING``, so of two clicks at once exactly one approves (or refuses) it, and a
  Hero has at most one waiting (a new request replaces the old).
"""

from datetime import datetime

from pydantic import AwareDatetime, BaseModel, ConfigDict

from rules.character.purchase_table import Purchase
from storage.session import Session
from storage.sql import Row, execute, fetch_all, fetch_one, from_text, insert, to_text

_SPEND = "id, guild_id, character_id, channel_id, requested_by, purchase, created_at"


class WaitingSpend(BaseModel):
    """A purchase asked for, waiting for a Narrator."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    character_id: int
    channel_id: int
    requested_by: int
    purchase: Purchase
    created_at: AwareDatetime


def _spend(row: Row) -> WaitingSpend:
    return WaitingSpend(
        id=row["id"],
        guild_id=row["guild_id"],
        character_id=row["character_id"],
        channel_id=row["channel_id"],
        requested_by=row["requested_by"],
        purchase=Purchase.model_validate_json(row["purchase"]),
        created_at=from_text(row["created_at"]),
    )


class AdvancementRepository:
    """Award proposals by session, and spends waiting for approval."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def propose(self, guild_id: int, session_id: int, character_id: int, amount: int) -> None:
        """Set the award the panel proposes for one Hero (replacing what it proposed before)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO award_proposals (session_id, guild_id, character_id, amount) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (session_id, character_id) DO UPDATE SET amount = excluded.amount",
                (session_id, guild_id, character_id, amount),
            )

    async def proposed(self, session_id: int) -> dict[int, int]:
        """Each Hero's award as the Narrator set it on the session's panel (those never set: absent)."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT character_id, amount FROM award_proposals WHERE session_id = ?",
            (session_id,),
        )
        return {int(row["character_id"]): int(row["amount"]) for row in rows}

    async def drop_proposals(self, session_id: int) -> None:
        async with self._session.writing() as conn:
            await execute(conn, "DELETE FROM award_proposals WHERE session_id = ?", (session_id,))

    async def claim_award(self, guild_id: int, session_id: int, character_id: int, amount: int) -> bool:
        """Mark the Hero's award of the night given, inside the caller's transaction; False when
        it already was (the award must not be given again)."""
        async with self._session.writing() as conn:
            rows = await fetch_all(
                conn,
                "INSERT INTO session_awards (session_id, guild_id, character_id, amount) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (session_id, character_id) DO NOTHING RETURNING character_id",
                (session_id, guild_id, character_id, amount),
            )
        return bool(rows)

    async def awarded(self, session_id: int) -> dict[int, int]:
        """Each Hero's award given from the session's panel (those not given: absent)."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT character_id, amount FROM session_awards WHERE session_id = ?",
            (session_id,),
        )
        return {int(row["character_id"]): int(row["amount"]) for row in rows}

    async def ask(
        self,
        guild_id: int,
        character_id: int,
        channel_id: int,
        requested_by: int,
        purchase: Purchase,
        at: datetime,
    ) -> WaitingSpend:
        """Keep a purchase for a Narrator's approval; it replaces one the Hero had waiting."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "DELETE FROM advancement_spends WHERE guild_id = ? AND character_id = ?",
                (guild_id, character_id),
            )
            spend_id = await insert(
                conn,
                "INSERT INTO advancement_spends"
                " (guild_id, character_id, channel_id, requested_by, purchase, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, character_id, channel_id, requested_by, purchase.model_dump_json(), to_text(at)),
            )
        return WaitingSpend(
            id=spend_id,
            guild_id=guild_id,
            character_id=character_id,
            channel_id=channel_id,
            requested_by=requested_by,
            purchase=purchase,
            created_at=at,
        )

    async def waiting(self, guild_id: int, spend_id: int) -> WaitingSpend | None:
        row = await fetch_one(
            self._session.lookup,
            f"SELECT {_SPEND} FROM advancement_spends WHERE guild_id = ? AND id = ?",
            (guild_id, spend_id),
        )
        return _spend(row) if row is not None else None

    async def waiting_for(self, guild_id: int, character_id: int) -> WaitingSpend | None:
        """The Hero's spend waiting for approval, if any."""
        row = await fetch_one(
            self._session.lookup,
            f"SELECT {_SPEND} FROM advancement_spends WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return _spend(row) if row is not None else None

    async def take(self, guild_id: int, spend_id: int) -> WaitingSpend | None:
        """Remove a waiting spend and return it; None when it is gone (taken, replaced, or its Hero
        deleted): exactly one of two clicks at once gets it."""
        async with self._session.writing() as conn:
            rows = await fetch_all(
                conn,
                f"DELETE FROM advancement_spends WHERE guild_id = ? AND id = ? RETURNING {_SPEND}",
                (guild_id, spend_id),
            )
        return _spend(rows[0]) if rows else None
