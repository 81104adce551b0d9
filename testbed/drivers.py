"""Our bot under load: members creating, editing and rolling, and Conflicts played to the end.

Shared by the kill -9 test (``tests/faults/test_kill_under_load.py``) and the soak run
(``bench/soak_faults.py``), on top of the generic :class:`~fake_discord.load.Load`. Players
create characters, edit them and roll (each roll is logged), while the Narrator and player1
play Conflicts through slash commands and prompt buttons, one fresh pair of fighters per
Conflict. Every write comes with its promise: a check of the database that must hold if the
bot acknowledged it (:meth:`Load.broken_promises` runs them against a :class:`Storage`).

The Conflict is driven from what the database says (``ConflictDriver.next_move``), not from a
fixed script, so the dice can fall either way and a crash can land anywhere: after a restart
the driver simply carries on from the committed state, clicking the old prompt's button when
one is pending.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from fake_discord.commandline import CommandLineError
from fake_discord.load import Load, acknowledged
from fake_discord.records import InteractionRecord
from rules.conflict import Awaiting, Conflict, Phase, current_turn, load_conflict, next_declarer
from rules.naming import name_key
from storage import Storage
from storage.errors import NotFoundError
from storage.sql import fetch_all

Check = Callable[[Storage], Awaitable[bool]]
Row = tuple[int, int, str]
"""A stored Conflict as (id, version, document)."""
MAX_ITEMS = 10_000
HERO_OWNER, NARRATOR = "player1", "narrator"


# -- What an acknowledged write promises -------------------------------------------------------


def character_exists(guild_id: int, name: str) -> Check:
    async def check(storage: Storage) -> bool:
        try:
            await storage.characters.get_by_name(guild_id, name)
        except NotFoundError:
            return False
        return True

    return check


def personality_is(guild_id: int, name: str, text: str) -> Check:
    """Each character is edited once, right after its creation, by its owner."""

    async def check(storage: Storage) -> bool:
        try:
            stored = await storage.characters.get_by_name(guild_id, name)
        except NotFoundError:
            return False
        return stored.character.traits.personality == text

    return check


def roll_logged(guild_id: int, label: str) -> Check:
    async def check(storage: Storage) -> bool:
        rows = await fetch_all(
            storage.database.reader,
            "SELECT 1 FROM roll_log WHERE guild_id = ? AND label = ?",
            (guild_id, label),
        )
        return len(rows) == 1

    return check


async def player_stream(
    load: Load[Storage], user: str, prefix: str, guild_id: int, count: int = MAX_ITEMS
) -> None:
    """Create a character, edit it, roll; again and again, as fast as the bot answers."""
    for n in range(count):
        name = f"{prefix} {n}"
        await load.write(
            user, f'/character create name:"{name}" physique:3 wits:2', character_exists(guild_id, name)
        )
        await load.write(
            user,
            f'/edit trait slot:personality text:"mark {n}" name:"{name}"',
            personality_is(guild_id, name, f"mark {n}"),
        )
        label = f"{prefix}-roll-{n}"
        await load.write(user, f"/roll dice:3 label:{label}", roll_logged(guild_id, label))


# -- The Conflict --------------------------------------------------------------------------------


class ConflictDriver:
    """Plays Conflicts in the harness's channel, one move at a time, from the committed state."""

    def __init__(self, load: Load[Storage], db_path: Path, guild_id: int, channel_id: int) -> None:
        self.load = load
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.cycle = 0
        self.started = False
        self.last_acked: Row | None = None
        self.moves = 0
        self._db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, isolation_level=None)

    def close(self) -> None:
        self._db.close()

    @property
    def hero(self) -> str:
        return f"Hero {self.cycle}"

    @property
    def villain(self) -> str:
        return f"Villain {self.cycle}"

    def stored(self) -> Row | None:
        row = self._db.execute(
            "SELECT id, version, document FROM conflicts WHERE guild_id = ? AND channel_id = ?",
            (self.guild_id, self.channel_id),
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]), str(row[2]))

    def conflict_id(self) -> int:
        """The stored id of the running Conflict, which prompt buttons carry."""
        row = self.stored()
        assert row is not None
        return int(row[0])

    def state(self) -> Conflict | None:
        row = self.stored()
        return None if row is None else load_conflict(row[2])

    def has_character(self, name: str) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM characters WHERE guild_id = ? AND name_key = ?", (self.guild_id, name_key(name))
        ).fetchone()
        return row is not None

    def hero_is_active(self) -> bool:
        """``/conflict join`` joins with player1's active character, which must be this cycle's Hero."""
        player = self.load.harness.member(HERO_OWNER).user.id
        row = self._db.execute(
            "SELECT 1 FROM active_characters a JOIN characters c ON c.id = a.character_id"
            " WHERE a.guild_id = ? AND a.user_id = ? AND c.name_key = ?",
            (self.guild_id, player, name_key(self.hero)),
        ).fetchone()
        return row is not None

    def next_move(self, state: Conflict | None) -> tuple[str, str, Check | None]:
        """(who, what, promise): a slash command line, or ``click <custom_id>``."""
        if state is None:
            if self.started:  # the last Conflict ended: next cycle, fresh fighters
                self.cycle, self.started = self.cycle + 1, False
            if not self.has_character(self.hero):
                line = f'/character create name:"{self.hero}" physique:3 wits:2'
                return HERO_OWNER, line, character_exists(self.guild_id, self.hero)
            if not self.has_character(self.villain):
                line = f'/character create name:"{self.villain}" kind:Villain physique:4'
                return NARRATOR, line, character_exists(self.guild_id, self.villain)
            return NARRATOR, f'/conflict start kind:physical stakes:"Cycle {self.cycle}"', None
        self.started = True
        names = {p.name for p in state.participants}
        if self.hero not in names and not self.hero_is_active():
            return HERO_OWNER, f'/character use name:"{self.hero}"', None
        if self.hero not in names:
            return HERO_OWNER, "/conflict join", None
        if self.villain not in names:
            return NARRATOR, f'/conflict add character:"{self.villain}"', None
        if state.phase is Phase.GATHER:
            return NARRATOR, "/conflict begin", None
        if state.phase is Phase.DECLARE:
            declarer = next_declarer(state)
            if declarer is not None and declarer.name == self.villain:
                line = f'/declare who:"{self.villain}" action:attack target:"{self.hero}" stat:Physique'
                return NARRATOR, line, None
            return HERO_OWNER, f'/declare action:attack target:"{self.villain}" stat:Physique', None
        pending = state.pending
        if pending is not None and pending.awaiting is Awaiting.DEFENCE and pending.target is not None:
            owner = HERO_OWNER if state.name_of(pending.target) == self.hero else NARRATOR
            return (
                owner,
                self._button_or(f"mab:defend:{self.conflict_id()}:{pending.id}:0", owner, "/defend dice:0"),
                None,
            )
        if pending is not None:
            owner = HERO_OWNER if state.name_of(pending.attacker) == self.hero else NARRATOR
            return (
                owner,
                self._button_or(f"mab:nudges:{self.conflict_id()}:{pending.id}:none", owner, "/nudges"),
                None,
            )
        turn = current_turn(state)
        if turn:
            actor = state.participant(turn[0])
            owner = HERO_OWNER if actor.name == self.hero else NARRATOR
            who = f' who:"{actor.name}"' if owner == NARRATOR else ""
            dice = actor.round.action_dice
            return owner, (f"/act dice:{min(dice, 10)}{who}" if dice >= 2 else f"/pass{who}"), None
        return NARRATOR, "/conflict end", None

    def _button_or(self, custom_id: str, user: str, fallback: str) -> str:
        """The prompt's button if its message is there (it is not if the bot died posting it)."""
        try:
            self.load.harness.find_component(custom_id, self.load.harness.member(user), kinds={2})
        except CommandLineError:
            return fallback
        return f"click {custom_id}"

    async def send(self, *, settle: bool = True) -> InteractionRecord:
        """Make the next move; return its record, answered or not."""
        user, what, check = self.next_move(self.state())
        if what.startswith("click "):
            return await self.load.click(user, what.removeprefix("click "), check, settle=settle)
        return await self.load.write(user, what, check, settle=settle)

    async def move(self) -> InteractionRecord:
        """Make the next move and insist it was acknowledged; remember the state it committed."""
        record = await self.send()
        if not acknowledged(record):
            raise AssertionError(f"the move was not acknowledged: {record.text}")
        self.moves += 1
        self.last_acked = self.stored()
        return record

    async def run(self, *, stop: Callable[[Conflict | None], bool], max_moves: int) -> None:
        for _ in range(max_moves):
            if stop(self.state()):
                return
            await self.move()
        raise AssertionError(f"the Conflict did not reach the wanted state in {max_moves} moves")


def defence_pending(state: Conflict | None) -> bool:
    return state is not None and state.pending is not None and state.pending.awaiting is Awaiting.DEFENCE
