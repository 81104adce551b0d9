"""What the Narrator's web view needs stored: its signing secret, used links, and change marks.

* **The secret** signs the view's links and cookies (``bot.web.tokens``). When
  ``MISTBORN_WEB_SECRET`` is not set, one is made on first use and kept here, so links and
  cookies outlive a restart, and every process on this database signs with the same one.
* **Used links**: a ``/web`` link is swapped for a cookie once; its nonce is recorded until it
  expires, so a link copied out of Discord cannot open a second session.
* **Session generations**: each member's number, named by every session made for them;
  ``/web`` and ``/web logout`` raise it, so the older sessions end at their next request.
* **The change mark** of a server: a short text that changes whenever anything the page shows
  does (a Conflict saved, started or ended; a sheet made, changed, revealed or deleted; a
  portrait set or removed; the Narrator roles). Read every quarter second per open page, so
  it is one query on indexed columns and parses nothing. Polling the database, not an
  in-process signal, is what lets a web view in another process, or after a restart, see
  every change.
"""

import secrets
from datetime import datetime

from storage.session import Session
from storage.sql import execute, fetch_one, to_text, utc_now

SECRET_NAME = "web"
_SECRET = "SELECT value FROM web_secrets WHERE name = ?"

_GENERATION = "SELECT generation FROM web_members WHERE guild_id = ? AND user_id = ?"

_MARK = (  # one statement both SQLite and PostgreSQL read (storage.dialect)
    "SELECT (SELECT count(*) || ':' || COALESCE(SUM(version), 0) || ':' || COALESCE(MAX(id), 0)"
    " FROM conflicts WHERE guild_id = ?) || '|' ||"
    " (SELECT count(*) || ':' || COALESCE(SUM(version), 0) || ':' || COALESCE(SUM(revealed), 0)"
    " || ':' || COALESCE(MAX(id), 0) FROM characters WHERE guild_id = ?) || '|' ||"
    " COALESCE((SELECT narrator_role_ids FROM guild_settings WHERE guild_id = ?), '') || '|' ||"
    " (SELECT count(*) || ':' || COALESCE(SUM(generation), 0)"
    " FROM character_portraits WHERE guild_id = ?) AS mark"
)


class WebRepository:
    """The web view's secret, its used links, and each server's change mark."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def secret(self) -> str:
        """The stored signing secret, made now if there is none (the first process wins)."""
        row = await fetch_one(
            self._session.reader, "SELECT value FROM web_secrets WHERE name = ?", (SECRET_NAME,)
        )
        if row is not None:
            return str(row["value"])
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO web_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (SECRET_NAME, secrets.token_urlsafe(32)),
            )
            row = await fetch_one(conn, _SECRET, (SECRET_NAME,))
        assert row is not None
        return str(row["value"])

    async def use_link(self, nonce: str, expires_at: datetime) -> bool:
        """Record the link ``nonce`` as used: True the first time, False ever after (until it
        expires, when the signature refuses it anyway). Expired records are dropped here."""
        async with self._session.writing() as conn:
            await execute(conn, "DELETE FROM web_link_uses WHERE expires_at < ?", (to_text(utc_now()),))
            return bool(
                await execute(
                    conn,
                    "INSERT INTO web_link_uses (nonce, expires_at) VALUES (?, ?)"
                    " ON CONFLICT (nonce) DO NOTHING",
                    (nonce, to_text(expires_at)),
                )
            )

    async def renew(self, guild_id: int, user_id: int) -> int:
        """Raise the member's session generation and return the new one: every session made
        before ends at its next request (``/web`` and ``/web logout``)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO web_members (guild_id, user_id, generation) VALUES (?, ?, 1)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET generation = web_members.generation + 1",
                (guild_id, user_id),
            )
            row = await fetch_one(conn, _GENERATION, (guild_id, user_id))
        assert row is not None
        return int(row["generation"])

    async def generation(self, guild_id: int, user_id: int) -> int:
        """The member's session generation now (0 before their first ``/web``)."""
        row = await fetch_one(self._session.reader, _GENERATION, (guild_id, user_id))
        return int(row["generation"]) if row is not None else 0

    async def mark(self, guild_id: int) -> str:
        """The server's change mark: equal marks mean nothing the web view shows has changed.

        Versions only grow and ids are never reused (AUTOINCREMENT), so counts, version sums
        and the highest id together change on every save, start, end, creation and deletion.
        """
        row = await fetch_one(self._session.reader, _MARK, (guild_id, guild_id, guild_id, guild_id))
        return str(row["mark"]) if row is not None else ""
