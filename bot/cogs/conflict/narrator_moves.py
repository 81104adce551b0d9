"""The Narrator's moves that run a Conflict (``/conflict add``, ``remove``, ``order``,
``surprise``, ``adjust``, ``next-round``, ``end``) and a player's ``/conflict join``, as values.

Each checks the caller inside the move's transaction against the fresh state, and reads the
names it was given against that state (``bot.cogs.conflict.named``), like the round's own moves
in ``bot.cogs.conflict.mover_build``.
"""

from dataclasses import dataclass

from bot.access import Caller
from bot.cogs.conflict.move import Sheets
from bot.cogs.conflict.named import find_participant
from bot.errors import BotError
from bot.inputs.name_lists import split_names
from bot.render.common import plain
from rules.conflict import (
    AdjustDice,
    Command,
    Conflict,
    End,
    Join,
    Leave,
    NextRound,
    Phase,
    Reorder,
    SetSurprised,
    next_declarer,
)


@dataclass(frozen=True)
class AddCharacter:
    """``/conflict add``: the Narrator adds a character, Villain or Extras group."""

    join: Join

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_narrator("add characters to a Conflict")
        return self.join


@dataclass(frozen=True)
class JoinOwn:
    """``/conflict join``: a player's own Hero, checked as theirs before the move is made."""

    join: Join

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        return self.join


@dataclass(frozen=True)
class RemoveParticipant:
    """``/conflict remove``, or (``participant``, by id) the Narrator view's Remove menu."""

    who: str = ""
    participant: int | None = None

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_narrator("remove participants")
        if self.participant is None:
            return Leave(participant=find_participant(state, self.who).id)
        if state.find(self.participant) is None:
            raise BotError("That fighter has already left the Conflict.")
        return Leave(participant=self.participant)


@dataclass(frozen=True)
class ReorderMove:
    """Wits ties settled by listing every fighter in order (docs/rulings.md §4.2)."""

    names: str

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_narrator("reorder the Conflict")
        listed = split_names(self.names, [p.name for p in state.participants])
        return Reorder(order=tuple(find_participant(state, name).id for name in listed))


@dataclass(frozen=True)
class SurpriseMove:
    who: str
    surprised: bool = True

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_narrator("change surprise")
        return SetSurprised(participant=find_participant(state, self.who).id, surprised=self.surprised)


@dataclass(frozen=True)
class AdjustMove:
    who: str
    dice: int
    reason: str = ""

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_narrator("adjust dice")
        return AdjustDice(
            participant=find_participant(state, self.who).id, delta=self.dice, reason=self.reason
        )


@dataclass(frozen=True)
class NextRoundMove:
    """The next round, or what the Narrator can do instead while some still have to declare."""

    force: bool = False

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_narrator("start the next round")
        if state.phase is Phase.GATHER:
            raise BotError("The fight has not begun: **Begin round 1** on the board, or `/conflict begin`.")
        declarer = next_declarer(state)
        if declarer is not None:
            name = plain(declarer.name)
            raise BotError(
                f"Everyone must declare, and then act, before the round can end. {name} declares next: "
                f"their prompt is waiting, or declare for them with `/declare who:{name}`, or take them "
                f"out with `/conflict remove who:{name}`."
            )
        return NextRound(force=self.force)


@dataclass(frozen=True)
class EndMove:
    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_narrator("end the Conflict")
        return End()
