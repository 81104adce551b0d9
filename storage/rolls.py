"""The roll log: every roll the bot made, for history and for a dice-fairness report.

Storage takes its own :class:`RollRecord` of plain numbers rather than the rules' roll type, so
the log's format does not change whenever the rules' model does. Faces are kept in order as
text ("1,3,6") and also counted per face in their own columns.

The log keeps the rolls of the last ``MISTBORN_ROLL_LOG_DAYS`` (the bot prunes older ones in the
background, :meth:`RollLog.prune`), but the fairness report counts every roll ever made: it sums
the rolls still in the log and the totals of those pruned from it (``pruned_roll_totals``),
which the prune adds in the same unit as it deletes them (``storage.pruning.Fold``), so no roll
is ever missed or counted twice. Logging a roll, which every roll and Conflict move does before
it answers, writes the log alone; the report, asked rarely, does the sums (migration 26: they
were kept by a trigger on every roll before; docs/architecture.md, "Writes and reads under load").

A secret roll (``/gmroll``) is seen by Narrators and by its roller only (docs/rulings.md §7.1).
Every read takes ``viewer``, the SQL form of ``bot.access.Caller.can_see_roll``: ``None`` reads
every roll (a Narrator), a user id leaves out the secret rolls of everyone else, so neither a
list nor a total ever counts a roll its reader may not see (the totals are kept apart for
secret and public rolls for that reason).

Each roll also keeps where it was rolled (migration 24, ``storage.places``), and the list takes
the reader's :class:`~storage.places.Reach`, so a player never lists a roll made in a channel
they cannot read (§7.6). The totals have no channel: they count, never list.
"""

from datetime import datetime

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator

from storage.errors import AlreadyHandledError
from storage.handled import ALREADY, claim_on
from storage.journal import Told, add_entries, entries_json
from storage.places import Reach, reach_clause, reach_params
from storage.postgres import PgDatabase, PgTransactionSession
from storage.pruning import PRUNE_BATCH, Fold, prune_oldest
from storage.session import Session
from storage.sql import Row, fetch_all, fetch_one, from_text, insert, savepoint, to_text, utc_now

MAX_RECENT = 100
MAX_FACES = 20
MAX_LABEL = 200

_FACE_COLUMNS = ("ones", "twos", "threes", "fours", "fives", "sixes")
_SELECT_RECORD = (
    "SELECT guild_id, user_id, at, label, dice, free_nudges, underflow, difficulty, faces,"
    " result, outcome, success, secret, channel_id, private_thread_id FROM roll_log"
)
_VISIBLE = " AND (secret = 0 OR CAST(? AS BIGINT) IS NULL OR user_id = ?)"
"""Rows the viewer may see: public ones, and secret ones only their own (or all, for None)."""
_FACES = ", ".join(_FACE_COLUMNS)
_TOTALS = (
    "COALESCE(SUM(rolls), 0) AS rolls, COALESCE(SUM(successes), 0) AS successes,"
    " COALESCE(SUM(ones), 0) AS ones, COALESCE(SUM(twos), 0) AS twos,"
    " COALESCE(SUM(threes), 0) AS threes, COALESCE(SUM(fours), 0) AS fours,"
    " COALESCE(SUM(fives), 0) AS fives, COALESCE(SUM(sixes), 0) AS sixes,"
    " COALESCE(SUM(secret * rolls), 0) AS secret"
)


def _counted(where: str) -> str:
    """Every roll ``where`` picks, pruned or still logged, one row of counts each (a pruned
    member's totals, or one logged roll); ``where``'s parameters are given once per part."""
    return (
        f"SELECT user_id, secret, rolls, successes, {_FACES} FROM pruned_roll_totals WHERE {where}"
        f" UNION ALL SELECT user_id, secret, 1, success, {_FACES} FROM roll_log WHERE {where}"
    )


_IN_GUILD = "guild_id = ?" + _VISIBLE
_BY_USER = "guild_id = ? AND user_id = ?" + _VISIBLE
_STATS_IN_GUILD = f"SELECT {_TOTALS} FROM ({_counted(_IN_GUILD)}) AS counted"
_STATS_BY_USER = f"SELECT {_TOTALS} FROM ({_counted(_BY_USER)}) AS counted"
_STATS_PER_USER = (
    f"SELECT user_id, {_TOTALS} FROM ({_counted(_IN_GUILD)}) AS counted GROUP BY user_id ORDER BY user_id"
)
PRUNED = Fold(
    into="pruned_roll_totals",
    by=("guild_id", "user_id", "secret"),
    sums=(
        ("rolls", "COUNT(*)"),
        ("successes", "SUM(success)"),
        *((face, f"SUM({face})") for face in _FACE_COLUMNS),
    ),
)
"""What a prune keeps of the rolls it deletes: their totals per member, secret apart."""


class RollRecord(BaseModel):
    """One roll as the log keeps it."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    user_id: int
    at: AwareDatetime
    label: str = Field(max_length=MAX_LABEL)
    dice: int = Field(ge=0, le=MAX_FACES, description="Dice thrown.")
    free_nudges: int = Field(ge=0)
    underflow: int = Field(ge=0)
    difficulty: int = Field(ge=0)
    faces: tuple[int, ...] = Field(max_length=MAX_FACES)
    result: int = Field(ge=0, le=5, description="Highest matched value; 0 with no matching set.")
    outcome: int = Field(ge=-6, le=6)
    success: bool
    secret: bool = False
    """A ``/gmroll``: seen by Narrators and the roller only."""
    channel_id: int | None = None
    """The table's channel it was rolled at (a thread's parent); None: logged before it was kept."""
    private_thread_id: int | None = None
    """The private thread it was rolled in, if any."""

    @field_validator("faces")
    @classmethod
    def _dice_faces(cls, faces: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 1 <= face <= 6 for face in faces):
            raise ValueError("every face must be between 1 and 6")
        return faces


class RollStats(BaseModel):
    """Totals over a set of logged rolls."""

    model_config = ConfigDict(frozen=True)

    rolls: int = 0
    successes: int = 0
    face_counts: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)
    """How many times each face 1..6 came up, for a fairness report."""
    secret: int = 0
    """How many of the rolls counted are secret (a report counting any is private)."""

    @property
    def success_rate(self) -> float | None:
        """Successes per roll, or None with no rolls (0 % would be a claim, not a fact)."""
        return self.successes / self.rolls if self.rolls else None

    @property
    def dice_thrown(self) -> int:
        return sum(self.face_counts)


def _faces_text(faces: tuple[int, ...]) -> str:
    return ",".join(str(face) for face in faces)


def _faces_from_text(text: str) -> tuple[int, ...]:
    return tuple(int(face) for face in text.split(",")) if text else ()


def _record(row: Row) -> RollRecord:
    return RollRecord(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        at=from_text(row["at"]),
        label=row["label"],
        dice=row["dice"],
        free_nudges=row["free_nudges"],
        underflow=row["underflow"],
        difficulty=row["difficulty"],
        faces=_faces_from_text(row["faces"]),
        result=row["result"],
        outcome=row["outcome"],
        success=bool(row["success"]),
        secret=bool(row["secret"]),
        channel_id=row["channel_id"],
        private_thread_id=row["private_thread_id"],
    )


def _stats(row: Row | None) -> RollStats:
    if row is None:
        return RollStats()
    c = tuple(int(row[column]) for column in _FACE_COLUMNS)
    return RollStats(
        rolls=row["rolls"],
        successes=row["successes"],
        face_counts=(c[0], c[1], c[2], c[3], c[4], c[5]),
        secret=row["secret"],
    )


_APPEND = (
    "INSERT INTO roll_log (guild_id, user_id, at, label, dice, free_nudges, underflow,"
    " difficulty, faces, result, outcome, success, ones, twos, threes, fours, fives, sixes,"
    " secret, channel_id, private_thread_id) VALUES (" + ", ".join("?" * 21) + ")"
)


def append_params(record: RollRecord) -> tuple[object, ...]:
    counts = [record.faces.count(face) for face in range(1, 7)]
    return (
        record.guild_id,
        record.user_id,
        to_text(record.at),
        record.label,
        record.dice,
        record.free_nudges,
        record.underflow,
        record.difficulty,
        _faces_text(record.faces),
        record.result,
        record.outcome,
        int(record.success),
        *counts,
        int(record.secret),
        record.channel_id,
        record.private_thread_id,
    )


_APPEND_ONCE_PG = (
    "WITH claim AS (INSERT INTO handled_interactions (interaction_id, handled_at) VALUES (?::bigint, ?::text)"
    " ON CONFLICT DO NOTHING RETURNING interaction_id),"
    " logged AS (INSERT INTO roll_log (guild_id, user_id, at, label, dice, free_nudges, underflow,"
    " difficulty, faces, result, outcome, success, ones, twos, threes, fours, fives, sixes, secret,"
    " channel_id, private_thread_id)"
    " SELECT ?::bigint, ?::bigint, ?::text, ?::text, ?::integer, ?::integer, ?::integer, ?::integer,"
    " ?::text, ?::integer, ?::integer, ?::integer, ?::integer, ?::integer, ?::integer, ?::integer,"
    " ?::integer, ?::integer, ?::integer, ?::bigint, ?::bigint FROM claim RETURNING id),"
    " told AS (INSERT INTO journal (guild_id, channel_id, at, kind, character_id, document,"
    " private_thread_id, actor_id)"
    " SELECT (e->>'guild_id')::bigint, (e->>'channel_id')::bigint, e->>'at', e->>'kind',"
    " (e->>'character_id')::bigint, e->>'document', (e->>'private_thread_id')::bigint,"
    " (e->>'actor_id')::bigint"
    " FROM claim, jsonb_array_elements(?::jsonb) WITH ORDINALITY AS j(e, n) ORDER BY n)"
    " SELECT id FROM logged"
)
"""``RollLog.append_once`` on PostgreSQL: the claim, the roll and its journal entries in ONE
statement (one round trip where the savepoint took seven); a claimed interaction inserts
nothing, so the roll and entries, which insert only beside a new claim, insert nothing either."""


class RollLog:
    """Appends rolls and reads them back, always within one server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def append(self, record: RollRecord) -> int:
        """Log a roll; return its id (ids grow with time)."""
        async with self._session.writing() as conn:
            return await insert(conn, _APPEND, append_params(record))

    async def append_once(self, record: RollRecord, interaction_id: int, told: Told | None = None) -> int:
        """Log a roll made for ``interaction_id``, claiming it in the same unit: the same
        interaction delivered twice (a replay, or two sessions of one shard during a redeploy)
        logs one roll, and the second raises :class:`~storage.errors.AlreadyHandledError`
        with nothing written (``storage.handled``). ``told``: the channel and the journal's
        entries for the roll (``storage.journal``), kept in the same unit."""
        session = self._session
        if isinstance(session, PgDatabase | PgTransactionSession):
            told_json = "[]" if told is None else entries_json(record.guild_id, *told)
            params = (interaction_id, to_text(utc_now()), *append_params(record), told_json)
            async with session.statement() as statement:
                rows = await fetch_all(statement, _APPEND_ONCE_PG, params)
            if not rows:
                raise AlreadyHandledError(ALREADY)
            return int(rows[0]["id"])
        async with self._session.writing() as conn, savepoint(conn, "roll_once"):
            await claim_on(conn, interaction_id)
            row_id = await insert(conn, _APPEND, append_params(record))
            if told is not None:
                await add_entries(conn, record.guild_id, *told)
            return row_id

    async def recent(
        self,
        guild_id: int,
        user_id: int | None = None,
        limit: int = 10,
        *,
        viewer: int | None = None,
        reach: Reach | None = None,
    ) -> list[RollRecord]:
        """The latest rolls in the server (or by one member) that ``viewer`` may see, rolled
        where ``reach`` reads (None: anywhere), newest first; at most 100."""
        limit = max(0, min(limit, MAX_RECENT))
        reader = self._session.reader
        by_user = "" if user_id is None else " AND user_id = ?"
        sql = _SELECT_RECORD + " WHERE guild_id = ?" + by_user + _VISIBLE + reach_clause(reader)
        who = () if user_id is None else (user_id,)
        params = (guild_id, *who, viewer, viewer, *reach_params(reach), limit)
        rows = await fetch_all(reader, sql + " ORDER BY id DESC LIMIT ?", params)
        return [_record(row) for row in rows]

    async def stats(
        self, guild_id: int, user_id: int | None = None, *, viewer: int | None = None
    ) -> RollStats:
        """Totals over every roll ever logged in the server (or by one member), pruned or not,
        that ``viewer`` may see: the pruned rolls' totals and the rolls still logged, summed
        (on a reader: the server's log since the last prune, a few hundred thousand rolls at most
        in ``MISTBORN_ROLL_LOG_DAYS``' 90 days, is a tenth of a second)."""
        seen = (viewer, viewer)
        if user_id is None:
            row = await fetch_one(self._session.reader, _STATS_IN_GUILD, (guild_id, *seen) * 2)
        else:
            row = await fetch_one(self._session.reader, _STATS_BY_USER, (guild_id, user_id, *seen) * 2)
        return _stats(row)

    async def stats_by_user(self, guild_id: int, *, viewer: int | None = None) -> dict[int, RollStats]:
        """Totals for every member who rolled in the server, by user id, as ``viewer`` sees them."""
        rows = await fetch_all(self._session.reader, _STATS_PER_USER, (guild_id, viewer, viewer) * 2)
        return {int(row["user_id"]): _stats(row) for row in rows}

    async def prune(self, before: datetime, batch: int = PRUNE_BATCH) -> int:
        """Delete the rolls logged before ``before``, ``batch`` rows per statement; return how many.

        The fairness report's figures stay as they are: each batch adds what it deletes to the
        pruned rolls' totals in the same unit (:data:`PRUNED`). Each batch is its own unit, so
        other writes (a roll, a Conflict move) get the writer in between; ids grow with time, so
        the oldest rolls are the ones of least id (``storage.pruning.prune_oldest``).
        """
        return await prune_oldest(
            self._session, "roll_log", "id", "at < ?", (to_text(before),), batch=batch, fold=PRUNED
        )
