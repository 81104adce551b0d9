"""The mover's own moves besides the declaration — burn, drink, pass, act — and the Narrator's
Begin, turned into engine commands checked against the fresh Conflict.

Each is a frozen value (``bot.cogs.conflict.move.Move``) whose ``command`` runs inside the move's
transaction, so the mover (``named.pick``, the ``who:`` default) is found on the state the command
will change. Typed faces are checked against who rolls them (docs/rulings.md §7.2).
"""

from dataclasses import dataclass

from bot.access import Caller
from bot.cogs.conflict.declare_build import weapon_option
from bot.cogs.conflict.move import Sheets
from bot.cogs.conflict.named import pick
from bot.errors import BotError
from bot.render.common import plain
from rules.burdens import Severity
from rules.character import Resilience
from rules.conflict import Act, Awaiting, Begin, Burn, Command, Conflict, ConflictType, Drink, Pass, Throw


@dataclass(frozen=True)
class BurnMove:
    """``/burn``: start, flare or stop burning a metal (docs/rulings.md §9.2)."""

    metal: str
    burning: bool
    who: str | None = None
    flare: bool = False

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        mover = pick(state, sheets, caller, self.who, "burn metals")
        return Burn(participant=mover.id, metal=self.metal, burning=self.burning, flared=self.flare)


@dataclass(frozen=True)
class DrinkMove:
    """``/drink``: drink a vial, one a round, no roll (docs/rulings.md §9.2)."""

    vial: str
    who: str | None = None

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        mover = pick(state, sheets, caller, self.who, "drink vials")
        return Drink(participant=mover.id, vial=self.vial)


@dataclass(frozen=True)
class PassMove:
    """``/pass``: the turn's Action Dice become Defense Dice."""

    who: str | None = None

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        return Pass(participant=pick(state, sheets, caller, self.who, "pass").id)


@dataclass(frozen=True)
class ActOptions:
    """What ``/act`` was given; ``table_dice``: the server lets players type table faces (§7.2)."""

    dice: int
    resilience: Resilience | None = None
    attack_kind: ConflictType | None = None
    difficulty: int | None = None
    defeat_burden: Severity | None = None
    faces: tuple[int, ...] | None = None
    weapon: str | None = None
    table_dice: bool = False
    table_roll: bool = False
    """The attacker rolls at the table and gives the faces once the defence is set (§7.2)."""
    who: str | None = None

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        mover = pick(state, sheets, caller, self.who, "act")
        if self.faces is not None or self.table_roll:
            option = "faces" if self.faces is not None else "table_dice"
            caller.require_faces(sheets.get(mover.id), mover.name, self.table_dice, option)
        pending = state.pending
        if pending is not None and pending.awaiting is Awaiting.ROLL and pending.attacker == mover.id:
            if self.dice != pending.pool or self.table_roll:  # the action is taken: only its dice
                whose = f"{plain(mover.name)}'s {pending.pool} dice"
                raise BotError(
                    f"The defence is set: give the faces of {whose} with `/act dice:{pending.pool} "
                    "faces:…`, or leave faces out for the bot to roll them."
                )
            return Throw(participant=mover.id, faces=self.faces, attack_id=pending.id)
        return Act(
            participant=mover.id,
            pool=self.dice,
            faces=self.faces,
            resilience=self.resilience,
            attack_kind=self.attack_kind,
            difficulty=self.difficulty,
            defeat_burden=self.defeat_burden,
            table_roll=self.table_roll,
            **weapon_option(self.weapon),
        )


@dataclass(frozen=True)
class BeginRound:
    """The Narrator opens round 1 (§4.22): ``/conflict begin`` and **Begin round 1** make this move."""

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_narrator("begin the Conflict")
        return Begin()
