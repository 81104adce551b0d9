"""A turn's buttons turned into engine commands: declare, act, switch (docs/rulings.md §4.21).

A button names its turn (round, step, character), and ``turn_mover`` judges the click on the
Conflict the move just loaded, inside its transaction, like every builder in
``bot.cogs.conflict.declare_build``.
"""

import re
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Literal

from bot.access import Caller
from bot.cogs.conflict.declare_build import ActionOptions
from bot.cogs.conflict.metal_offers import MetalVerb
from bot.cogs.conflict.move import Sheets
from bot.errors import NotAllowed
from bot.render.common import plain
from rules.burdens import Severity
from rules.character import Character
from rules.character.allomancy import Vial
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    Burn,
    Command,
    Conflict,
    Declare,
    DiceSpec,
    Drink,
    Participant,
    Pass,
    Phase,
    Status,
    Step,
    Switch,
    Waiting,
    waiting,
)
from rules.conflict.specs import DEFENCE_ATTRIBUTE
from rules.errors import RulesError
from rules.powers.pushes import PUSH_VERBS, ObjectSize, pushing_metal
from rules.words import verb

TurnChoice = Literal["attack", "action", "defence", "noroll"]
OUT_OF_FIGHT = "That target is out of the fight; choose another in the menu."
TURN_PASSED = "That turn has passed; the board shows who is up now."


def turn_mover(
    state: Conflict,
    sheets: Sheets,
    caller: Caller,
    step: Literal["declare", "act"],
    round_number: int,
    who: int,
) -> Participant:
    """The character a turn button moves, if that turn is on now and the caller controls it.

    A button names its turn (round, step, character), so a click is never applied to another
    turn: one that has passed (the Narrator moved for them, a stale message) is refused as
    passed, and one still to come (someone slower joined and goes first) says who goes first.
    """
    mover = state.find(who)
    if mover is None or state.round != round_number:
        raise RulesError(TURN_PASSED)
    if not caller.controls_participant(mover, sheets.get(mover.id)):
        raise NotAllowed(f"Only {plain(mover.name)}'s player or a Narrator can move {plain(mover.name)}.")
    now = waiting(state)
    if now.step.value == step and who in now.participants:
        return mover
    first = _ahead(state, now)
    if first and _still_to_come(state, mover, step):
        raise RulesError(f"Not your turn yet: {first}; you'll be pinged.")
    raise RulesError(TURN_PASSED)


def _still_to_come(state: Conflict, mover: Participant, step: Literal["declare", "act"]) -> bool:
    """Whether this round still owes the character this turn."""
    if step == "declare":
        undeclared = mover.round.status is Status.UNDECLARED and not mover.round.late
        return state.phase is Phase.DECLARE and undeclared and not mover.defeated
    return state.phase is Phase.RESOLVE and mover.in_order


def _ahead(state: Conflict, now: Waiting) -> str:
    """Who the Conflict waits for instead: "Sazed declares first"."""
    names = [state.participant(pid) for pid in now.participants]
    listed = " & ".join(p.name for p in names)  # a RulesError is shown inert as it is
    many = len(names) > 1 or any(p.size > 1 for p in names)
    doing = {
        Step.DECLARE: "declares first",
        Step.ACT: "acts first",
        Step.DEFEND: "is choosing a defence first",
        Step.NUDGES: "is spending Nudges first",
        Step.ROLL: "is rolling at the table first",
    }.get(now.step)
    return f"{listed} {verb(doing, many)}" if doing and names else ""


def kind_stat(state: Conflict) -> str:
    """The Attribute a button's action rolls: the one matching the Conflict's kind (§4.5)."""
    return DEFENCE_ATTRIBUTE[state.type].label


@dataclass(frozen=True)
class DeclareClick:
    """A declare button or the target menu: attack, act without attacking, full defence, no roll;
    with the scene's Circumstances, as on every roll that names none (docs/rulings.md §1)."""

    round_number: int
    who: int
    choice: TurnChoice
    target: int | None = None
    circumstances: int = 0

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        mover = turn_mover(state, sheets, caller, "declare", self.round_number, self.who)
        kinds = {
            "attack": ActionKind.ATTACK,
            "action": ActionKind.ACTION,
            "defence": ActionKind.FULL_DEFENCE,
            "noroll": ActionKind.NO_ROLL,
        }
        kind = kinds[self.choice]
        action = ActionSpec(kind=kind, target=self.target if kind is ActionKind.ATTACK else None)
        dice = (
            None
            if kind is ActionKind.NO_ROLL
            else DiceSpec(stat=kind_stat(state), circumstances=self.circumstances)
        )
        return Declare(participant=mover.id, action=action, dice=dice)


@dataclass(frozen=True)
class ActClick:
    """An act button: a pool of ``dice`` Action Dice, or (0) not act; ``defeat_burden``: the
    Burden the attack leaves if it defeats its target, chosen in the prompt's menu."""

    round_number: int
    who: int
    dice: int
    defeat_burden: Severity | None = None

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        mover = turn_mover(state, sheets, caller, "act", self.round_number, self.who)
        if self.dice == 0:
            return Pass(participant=mover.id)
        return Act(participant=mover.id, pool=self.dice, defeat_burden=self.defeat_burden)


@dataclass(frozen=True)
class SwitchClick:
    """The new-action menu: switch to an attack on ``target`` with the Conflict's Attribute and the
    scene's Circumstances."""

    round_number: int
    who: int
    target: int
    circumstances: int = 0

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        mover = turn_mover(state, sheets, caller, "act", self.round_number, self.who)
        action = ActionSpec(kind=ActionKind.ATTACK, target=self.target)
        dice = DiceSpec(stat=kind_stat(state), circumstances=self.circumstances)
        return Switch(participant=mover.id, action=action, dice=dice)


@dataclass(frozen=True)
class DeclareForm:
    """The declare form: the action chosen in the prompt's menu (``target``, an attack's), with
    the Attribute or Power, Traits, Tool, the target's Burdens and a label typed in the form, as
    ``/declare`` takes them.

    A push or pull picked in a menu (or sent in the push form) names its ``metal``: it must still
    burn when the move is judged, and the action rolls it, as ``/declare stat:Steel push:…``
    (docs/rulings.md §9.3); ``step`` "switch" makes it the act step's new action (``/switch``)."""

    round_number: int
    who: int
    options: ActionOptions
    target: int | None = None
    burdens: tuple[int, ...] = ()
    """The target's Burdens picked, by their place on its sheet."""
    metal: str | None = None
    step: Literal["declare", "switch"] = "declare"

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        turn: Literal["declare", "act"] = "declare" if self.step == "declare" else "act"
        mover = turn_mover(state, sheets, caller, turn, self.round_number, self.who)
        options = self.options if self.metal is None else self._pushing(mover, sheets)
        if self.target is None:
            return options.command_for(self.step, state, sheets, mover.id, caller)
        aimed = state.find(self.target)
        if aimed is None or aimed.defeated:
            raise RulesError(OUT_OF_FIGHT)
        sheet = sheets.get(aimed.id)
        held = sheet.burdens if sheet is not None else ()
        named = ", ".join(held[i].name for i in self.burdens if i < len(held))
        options = replace(options, target=aimed.name, burdens=named or None)
        return options.command_for(self.step, state, sheets, mover.id, caller)

    def _pushing(self, mover: Participant, sheets: Sheets) -> ActionOptions:
        """The options rolling the push's metal, refused once the mover no longer burns it."""
        metal = self.metal or ""
        require_burning(mover.name, sheets.get(mover.id), metal)
        return replace(self.options, stat=metal)


def require_burning(name: str, sheet: Character | None, metal: str) -> None:
    """A push needs Steel burning, a pull Iron (``rules.powers.pushes.pushing_metal``, docs/rulings.md
    §9.3): a menu's entry offered while it burned is refused, saying how, once it no longer does."""
    if sheet is not None:
        with suppress(RulesError):
            pushing_metal(sheet, metal)
            return
    verb = PUSH_VERBS.get(metal, "push")
    raise RulesError(
        f"{name} no longer burns {metal}, so cannot {verb}: burn it first (the prompt's Burn "
        f"button, or `/burn metal:{metal}`), then {verb} again."
    )


PUSHED_BY = {verb: metal for metal, verb in PUSH_VERBS.items()}
"""The metal of a menu's ``push:`` or ``pull:`` entry."""


def picked_push(
    round_number: int,
    who: int,
    picked: re.Match[str],
    circumstances: int,
    step: Literal["declare", "switch"] = "declare",
) -> DeclareForm:
    """A menu's push or pull entry (``bot.render.buttons.PUSH_PICK``) picked at once: a small
    loose object, a coin, the Coinshot's staple (+1), at the target — ``/declare action:attack
    stat:Steel push:small`` (docs/rulings.md §9.3); ``circumstances``: the scene's."""
    options = ActionOptions(kind=ActionKind.ATTACK, push=ObjectSize.SMALL, scene_circumstances=circumstances)
    metal = PUSHED_BY[picked["verb"]]
    return DeclareForm(round_number, who, options, int(picked["target"]), metal=metal, step=step)


@dataclass(frozen=True)
class MetalClick:
    """A turn prompt's Burn, Flare, Drink, Stop flaring or Stop burning button: the commands
    ``/burn`` (``flare:``, ``burning:``) and ``/drink`` build, for the character the prompt names;
    burning costs no action, so any round's click stands (docs/rulings.md §9.1, §9.2). A vial is
    named by its place among the Props."""

    who: int
    verb: MetalVerb
    what: str

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        mover = state.find(self.who)
        if mover is None:
            raise RulesError("That character is no longer in the Conflict.")
        sheet = sheets.get(mover.id)
        if not caller.controls_participant(mover, sheet):
            raise NotAllowed(
                f"Only {plain(mover.name)}'s player or a Narrator can burn {plain(mover.name)}'s metals."
            )
        if self.verb != "drink":
            burning, flared = self.verb != "stop", self.verb == "flare"
            return Burn(participant=mover.id, metal=self.what, burning=burning, flared=flared)
        index = int(self.what)
        props = sheet.props if sheet is not None else ()
        if index >= len(props) or not isinstance(props[index].implement, Vial):
            raise RulesError(f"That vial is no longer on {plain(mover.name)}'s sheet: use /drink.")
        return Drink(participant=mover.id, vial=props[index].name)
