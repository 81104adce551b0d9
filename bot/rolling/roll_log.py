"""Every roll the bot makes goes in the roll log (``/history``, the fairness report): the log is
the table's evidence that the dice are honest, so a roll missing from it is a hole in it.

A Conflict's rolls (each side of an action's Contest or Challenge) are logged in the move's own
transaction, under the member who controls the character rolling (a Hero's player, the
Narrator who made a Villain or Extra); a secret sheet's rolls are secret rolls
(docs/rulings.md §7.1, §7.2).
"""

from datetime import UTC, datetime

from bot.secrecy import is_secret
from rules.conflict.events import Resolved
from rules.roll import Reading
from storage.conflict_moves import Applied
from storage.places import Origin
from storage.rolls import MAX_LABEL, RollRecord


def roll_record(
    guild_id: int, user_id: int, reading: Reading, label: str, *, origin: Origin, secret: bool = False
) -> RollRecord:
    """One thrown pool as the log keeps it, with where it was rolled (docs/rulings.md §7.6)."""
    return RollRecord(
        guild_id=guild_id,
        user_id=user_id,
        at=datetime.now(UTC),
        label=label[:MAX_LABEL],
        dice=reading.pool.dice,
        free_nudges=reading.pool.free_nudges,
        underflow=reading.pool.underflow,
        difficulty=reading.difficulty,
        faces=reading.faces,
        result=reading.result,
        outcome=reading.outcome,
        success=reading.success,
        secret=secret,
        channel_id=origin.channel_id,
        private_thread_id=origin.private_thread_id,
    )


def conflict_rolls(guild_id: int, applied: Applied, origin: Origin) -> list[RollRecord]:
    """The rolls a Conflict move made where ``origin`` says: both sides of each action it resolved."""
    records: list[RollRecord] = []
    conflict, sheets = applied.conflict, applied.characters
    for event in applied.events:
        if not isinstance(event, Resolved):
            continue
        sides = [(event.attacker, event.contest.acting_rolls, conflict.does(event.attacker, "acts"))]
        if event.target is not None:
            sides.append((event.target, event.contest.opposing_rolls, conflict.does(event.target, "defends")))
        for who, readings, label in sides:
            sheet = sheets.get(who)
            if sheet is None:
                continue
            secret = is_secret(sheet.kind, who in applied.revealed)
            records += [
                roll_record(guild_id, sheet.owner_id, r, label, origin=origin, secret=secret)
                for r in readings
            ]
    return records
