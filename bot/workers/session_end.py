"""A session's end and its recap card, saved together (docs/architecture.md, "Sessions").

Whoever closes a session, the Narrator's ``/session end`` or the upkeep after a long quiet,
closes it and queues the table's recap card in the outbox (``storage.outbox``) in ONE
transaction: once the session reads ended, the card is owed to the channel, and the outbox
shows it exactly once (``bot.workers.outbox``), even if the process dies between the commit and
the post. The recap is built before that transaction, off the event loop (a long night is a
few thousand entries); the Narrator's full version is never queued: it is a private answer, and
``/session recap`` gives it again at any time (the table's card says so in its small print).

The table's card reads what anyone reading the channel saw: never what was said in a private
thread of it (``bot.reach.table_reach``, docs/rulings.md §7.6); a player's own recap reads what
they may read (:func:`recap_of`).
"""

import asyncio
from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from bot.crash import crash_point
from bot.reach import table_reach
from bot.render.common import plain
from bot.render.recap import recap_body, recap_sections, small_print
from rules.journal import NARRATOR, TABLE, JournalEntry, Viewer
from rules.recap import build_recap
from storage import MessageKind, NewMessage, OutboxMessage, Storage
from storage.journal import MAX_ENTRIES, TableSession
from storage.places import Origin, Reach

ATTEMPTS = 3
"""Times the recap is read when entries keep arriving; the last read is kept as it is (a channel
that busy at its session's end is rare, and the journal file has every entry anyway)."""


class Recaps(BaseModel):
    """A session's two recap cards as text blocks: the table's and the Narrator's."""

    model_config = ConfigDict(frozen=True)

    public: list[str]
    full: list[str]
    total: int
    """The session's entries when the Narrator's was read (it reads the first ``MAX_ENTRIES``)."""


class Closed(BaseModel):
    """A session just closed, with its recaps and the outbox row that shows the table's."""

    model_config = ConfigDict(frozen=True)

    session: TableSession
    recaps: Recaps
    row: OutboxMessage


def recap_blocks(
    entries: list[JournalEntry], title: str, total: int, viewer: Viewer, quiet_hours: float | None = None
) -> list[str]:
    """One recap card in ``viewer``'s words (pure, CPU only: run off the event loop). ``total``:
    the entries it may read, of which ``entries`` are the first (a cut is said in the small print)."""
    private = viewer.narrator
    footer = small_print(read=len(entries), total=total, private=private, quiet_hours=quiet_hours)
    return recap_sections(build_recap(entries, viewer), title, private=private, footer=footer)


async def recap_of(
    storage: Storage,
    session: TableSession,
    reach: Reach | None,
    quiet_hours: float | None = None,
    closing: Sequence[JournalEntry] = (),
) -> tuple[list[str], int]:
    """A recap card from the first :data:`MAX_ENTRIES` entries ``reach`` reads, built off the
    event loop, with how many entries it may read: the Narrator's (None) in full, any other
    as the table saw it. ``closing``: the entries its closing will add (a fight still running),
    said at the table and counted in the total."""
    entries = await storage.journal.entries(session, reach=reach)
    total = len(entries) if len(entries) < MAX_ENTRIES else await storage.journal.count(session, reach=reach)
    entries, total = [*entries, *closing], total + len(closing)
    viewer = NARRATOR if reach is None else TABLE
    blocks = await asyncio.to_thread(recap_blocks, entries, plain(session.title), total, viewer, quiet_hours)
    return blocks, total


async def recaps_of(
    storage: Storage,
    session: TableSession,
    quiet_hours: float | None = None,
    closing: Sequence[JournalEntry] = (),
) -> Recaps:
    """The session's two recaps: the Narrator's, and the table's card; ``closing`` as for
    :func:`recap_of`."""
    full, total = await recap_of(storage, session, None, quiet_hours, closing)
    public, _ = await recap_of(storage, session, table_reach(session.channel_id), quiet_hours, closing)
    return Recaps(public=public, full=full, total=total)


async def close_session(
    storage: Storage,
    session: TableSession,
    at: datetime,
    how: str,
    *,
    interaction_id: int | None = None,
    quiet_hours: float | None = None,
    running: Sequence[JournalEntry] = (),
) -> Closed | None:
    """Close ``session`` at ``at`` and queue the table's recap, in one transaction; None when
    someone else closed it first (then nothing is queued: exactly one closer posts a recap).
    ``running``: a line for each Conflict still running at its table, journaled with the close
    (stamped ``at``) so this recap and every later one say the fight was left running.

    The recap is read before the transaction, so a roll stamped before ``at`` but committed
    just after that read would be missing from it: the transaction counts the session's entries
    again (under the writer) and, if the count moved, rolls back and reads again."""
    ending = session.model_copy(update={"ended_at": at, "ended_how": how})
    for attempt in range(ATTEMPTS):
        recaps = await recaps_of(storage, ending, quiet_hours, running)
        card = NewMessage(
            kind=MessageKind.NOTICE, payload=recap_body(recaps.public), interaction_id=interaction_id
        )
        try:
            async with storage.transaction() as tx:
                ended = await tx.journal.end(session, at, how)
                if ended is None:
                    return None
                if attempt + 1 < ATTEMPTS and await tx.journal.count(ending) != recaps.total - len(running):
                    raise _Moved
                await tx.journal.add(session.guild_id, Origin(channel_id=session.channel_id), running)
                [row] = await tx.outbox.add(session.guild_id, session.channel_id, None, [card])
        except _Moved:
            continue
        crash_point("session-ended")
        return Closed(session=ended, recaps=recaps, row=row)
    raise AssertionError("unreachable: the last attempt never raises _Moved")


class _Moved(Exception):
    """An entry of the session was committed after its recap was read: read it again."""
