"""Options and clicks turned into engine commands, checked against the fresh Conflict.

Each kind of move here is a frozen value (``bot.cogs.conflict.move.Move``) whose ``command`` runs
inside the move's transaction (:meth:`bot.cogs.conflict.service.ConflictFlow.run` calls it with
the state and sheets it just loaded), so who may speak for whom, and which attack a click
answers, are judged on the state the command will change. A typed ``/defend`` and a "Defend
with 4" click make the same :class:`DefenceOptions`; a slash command only turns its options
into one of these values.

Honest dice (docs/rulings.md §7.2): typed faces are checked against who rolls them — the
defender's ``faces`` against the defender's controller, ``attacker_faces`` against the
attacker's (a defender never types the dice thrown against them) — and ``challenge`` against
another character needs a Narrator.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.access import Caller
from bot.cogs.conflict.answers import NudgeMode
from bot.cogs.conflict.move import Sheets
from bot.cogs.conflict.named import find_participant, pick
from bot.errors import BotError, NotAllowed
from bot.inputs.name_lists import split_names
from bot.inputs.pools import TapRequest
from bot.render.common import plain
from bot.workers.grace import DEFEND_GRACE, hold_for_player
from rules.burdens import Severity
from rules.character import CharacterKind, Resilience
from rules.character.metals import Task
from rules.conflict import (
    Act,
    ActionKind,
    Awaiting,
    Begin,
    Burn,
    Command,
    Conflict,
    ConflictType,
    Defend,
    Drink,
    Pass,
    SpendNudges,
    Throw,
    parse_command,
)
from rules.errors import RulesError
from rules.powers.pushes import ObjectSize

UNARMED = frozenset({"none", "unarmed", "no weapon"})
"""``weapon:none`` attacks without the weapon Prop an attack otherwise uses by default."""


def weapon_option(weapon: str | None) -> dict[str, Any]:
    """A typed ``weapon``: the Prop it names, or ``weapon:none`` for a bonus of 0 (unarmed)."""
    if weapon and weapon.strip().lower() in UNARMED:
        return {"weapon_bonus": 0}
    return {"weapon": weapon.strip()} if weapon and weapon.strip() else {}


@dataclass(frozen=True)
class ActionOptions:
    """What ``/declare`` and ``/switch`` were given."""

    kind: ActionKind
    target: str | None = None
    stat: str | None = None
    traits: int = 0
    tool: int = 0
    circumstances: int | None = None
    """The Narrator's own for this action; a player's is refused (docs/rulings.md §1.6)."""
    burdens: str | None = None
    resilience: Resilience | None = None
    weapon: str | None = None
    push: ObjectSize | None = None
    metal: bool = False
    difficulty: int | None = None
    challenge: bool = False
    label: str | None = None
    attack_kind: ConflictType | None = None
    scene_circumstances: int = 0
    """What the Narrator set for the scene in this channel, carried when none are given."""
    tap: TapRequest | None = None
    task: Task | None = None
    held: bool = False
    inside: bool = False
    anchored: bool = False
    """A tap (§9.4), a task (§9.10); a push or pull on a held object (or in a body), anchored (§9.3)."""

    def action_data(self, conflict: Conflict) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "label": (self.label or "").strip()}
        if self.target:
            data["target"] = find_participant(conflict, self.target).id
        if self.resilience is not None:
            data["resilience"] = self.resilience.value
        if self.attack_kind is not None:
            data["attack_kind"] = self.attack_kind.value
        if self.difficulty is not None:
            data["difficulty"] = self.difficulty
        data.update(weapon_option(self.weapon))
        if self.push is not None:
            data["push"] = self.push.value
        if self.metal:
            data["metal"] = True
        data.update({name: True for name in ("held", "inside", "anchored") if getattr(self, name)})
        if self.challenge:
            data["contest"] = False
        return data

    def check_burdens_named(self, conflict: Conflict, caller: Caller) -> None:
        """A player may name the Burdens of a Hero only: a Narrator's character's Burdens are the
        Narrator's to count, so whatever a player guesses gets the same answer, right or wrong
        (docs/rulings.md §7.1)."""
        if not self.burdens or not self.burdens.strip() or caller.narrator or not self.target:
            return
        target = find_participant(conflict, self.target)
        if target.kind is not CharacterKind.HERO:
            raise RulesError(
                f"Only a Narrator counts {target.name}'s Burdens toward a roll. Leave burdens out; "
                "if the Narrator says a Burden of theirs helps you, count it with circumstances."
            )

    def burden_names(self, conflict: Conflict, sheets: Sheets) -> tuple[str, ...]:
        """The target's Burdens named in one option, read against the target's sheet so a Burden
        whose name holds a comma is still one Burden (``bot.inputs.name_lists``)."""
        if not self.burdens or not self.burdens.strip():
            return ()
        target = find_participant(conflict, self.target) if self.target else None
        sheet = sheets.get(target.id) if target is not None else None
        if sheet is None:
            return tuple(b.strip() for b in self.burdens.split(",") if b.strip())
        return tuple(split_names(self.burdens, [b.name for b in sheet.burdens]))

    def dice_data(self, burdens: tuple[str, ...]) -> dict[str, Any] | None:
        if self.stat is None:
            if self.kind is ActionKind.NO_ROLL and (self.tap is not None or self.task is not None):
                raise RulesError("An action without a roll has nothing to tap for or lean on; leave it out.")
            if self.kind is ActionKind.NO_ROLL:
                return None
            raise RulesError("Say which stat or Power gives the dice, e.g. `stat:Physique` or `stat:Steel`.")
        if self.kind is ActionKind.NO_ROLL:
            raise RulesError("An action that needs no roll gets no dice; leave `stat` out.")
        return {
            "stat": self.stat,
            "traits_for": max(0, self.traits),
            "traits_against": max(0, -self.traits),
            "tool": self.tool,
            "circumstances": self.scene_circumstances if self.circumstances is None else self.circumstances,
            "burdens": burdens,
            "tap": self.tap.data() if self.tap is not None else None,
            "task": self.task.value if self.task is not None else None,
        }

    def command_for(
        self,
        kind: Literal["declare", "switch"],
        conflict: Conflict,
        sheets: Sheets,
        participant: int,
        caller: Caller,
    ) -> Command:
        caller.require_own_circumstances(self.circumstances)
        if self.challenge and self.target and find_participant(conflict, self.target).id != participant:
            caller.require_challenge()
        data: dict[str, Any] = {
            "type": kind,
            "participant": participant,
            "action": self.action_data(conflict),
        }
        self.check_burdens_named(conflict, caller)
        dice = self.dice_data(self.burden_names(conflict, sheets))
        if dice is not None or kind == "switch":
            data["dice"] = dice
        if kind == "declare":  # only the Narrator reopens a declaration others came after (§4.23)
            data["reopen"] = caller.narrator
        return parse_command(data)


@dataclass(frozen=True)
class TypedAction:
    """``/declare`` or ``/switch``, for ``who`` or the caller's own character."""

    options: ActionOptions
    step: Literal["declare", "switch"]
    who: str | None = None

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        doing = "declare" if self.step == "declare" else "switch actions"
        mover = pick(state, sheets, caller, self.who, doing)
        return self.options.command_for(self.step, state, sheets, mover.id, caller)


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


def pending_target(state: Conflict, attack_id: int | None) -> int:
    """The target of the attack waiting for a defence; a button names its attack, so a click on
    a prompt that was already answered is told so rather than applied to a newer attack."""
    pending = state.pending
    waiting = pending is not None and pending.awaiting is Awaiting.DEFENCE and pending.target is not None
    if attack_id is not None and (not waiting or pending is None or pending.id != attack_id):
        raise RulesError("That attack has already been settled.")
    if not waiting or pending is None or pending.target is None:
        raise RulesError("No attack is waiting for a defence right now.")
    return pending.target


@dataclass(frozen=True)
class DefenceOptions:
    """A defence, typed (``/defend``) or clicked ("Defend with 4")."""

    dice: int
    attack_id: int | None = None
    traits: int = 0
    tool: int = 0
    circumstances: int | None = None
    """The Narrator's own; a player's is refused (docs/rulings.md §1.6)."""
    faces: tuple[int, ...] | None = None
    attacker_faces: tuple[int, ...] | None = None
    table_dice: bool = False
    """The server lets players type faces from dice rolled at the table."""
    deflect: bool = False
    """Deflect a metal attack with Steel or Iron (docs/rulings.md §9.3)."""
    waited: Mapping[int, float] = field(default_factory=dict)
    """Seconds since each pending defence was asked, by attack id (``DefenceGrace.waits``)."""
    grace: float = DEFEND_GRACE
    """The moment a player gets before a Narrator may answer for them (docs/rulings.md §4.20)."""

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        caller.require_own_circumstances(self.circumstances)
        target = state.participant(pending_target(state, self.attack_id))
        sheet = sheets.get(target.id)
        if not caller.controls_participant(target, sheet):
            raise NotAllowed(f"Only {plain(target.name)}'s player or a Narrator can answer this attack.")
        assert state.pending is not None
        if self.faces is not None:
            caller.require_faces(sheet, target.name, self.table_dice, "faces")
        if self.attacker_faces is not None:
            attacker = state.participant(state.pending.attacker)
            roller = sheets.get(attacker.id)
            caller.require_faces(roller, attacker.name, self.table_dice, "attacker_faces")
        if (
            caller.narrator
            and sheet is not None
            and sheet.kind is CharacterKind.HERO
            and not caller.owns(sheet)
        ):
            hold_for_player(self.waited.get(state.pending.id), self.grace)
        return Defend(
            participant=target.id,
            dice=self.dice,
            attack_id=self.attack_id,
            attack_faces=self.attacker_faces,
            defence_faces=self.faces,
            traits_for=max(0, self.traits),
            traits_against=max(0, -self.traits),
            tool=self.tool,
            circumstances=self.circumstances or 0,
            deflect=self.deflect,
        )


def nudging(state: Conflict, sheets: Sheets, caller: Caller, attack_id: int | None) -> int:
    """The attacker whose Nudges wait to be spent, if the caller may spend them."""
    pending = state.pending
    if pending is None or pending.awaiting is not Awaiting.NUDGES:
        raise RulesError("No successful attack has Nudges waiting to be spent.")
    if attack_id is not None and pending.id != attack_id:
        raise RulesError("Those Nudges have already been spent.")
    attacker = state.participant(pending.attacker)
    if not caller.controls_participant(attacker, sheets.get(attacker.id)):
        raise NotAllowed(f"Only {plain(attacker.name)}'s player or a Narrator can spend these Nudges.")
    return attacker.id


@dataclass(frozen=True)
class NudgesMove:
    """``/nudges`` or the prompt's Nudges form: the waiting Nudges spent as split; the form names
    its attack (``attack_id``), so it never spends a later attack's."""

    damage: int = 0
    remove: int = 0
    next_round: int = 0
    story: int = 0
    beat: bool = False
    defeat_burden: Severity | None = None
    attack_id: int | None = None

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        return SpendNudges(
            participant=nudging(state, sheets, caller, self.attack_id),
            attack_id=self.attack_id,
            damage=self.damage,
            remove_dice=self.remove,
            next_round=self.next_round,
            story=self.story,
            catch_beat=self.beat,
            defeat_burden=self.defeat_burden,
        )


@dataclass(frozen=True)
class NudgeClick:
    """A Nudge button: all on damage, catch a Beat, or spend none."""

    attack_id: int
    mode: NudgeMode

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        attacker = nudging(state, sheets, caller, self.attack_id)
        assert state.pending is not None
        damage = state.pending.nudges if self.mode == "damage" else 0
        return SpendNudges(
            participant=attacker, damage=damage, catch_beat=self.mode == "beat", attack_id=self.attack_id
        )


@dataclass(frozen=True)
class ThrowClick:
    """The attacker's dice once the defence is set (docs/rulings.md §7.2): the faces typed in the
    form, or None when the attacker's side lets the bot roll after all."""

    attack_id: int
    faces: tuple[int, ...] | None = None
    table_dice: bool = False

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        pending = state.pending
        if pending is None or pending.awaiting is not Awaiting.ROLL or pending.id != self.attack_id:
            raise RulesError("Those dice were already given: the action is settled.")
        attacker = state.participant(pending.attacker)
        sheet = sheets.get(attacker.id)
        if not caller.controls_participant(attacker, sheet):
            raise NotAllowed(f"Only {plain(attacker.name)}'s player or a Narrator can give these dice.")
        if self.faces is not None:
            caller.require_faces(sheet, attacker.name, self.table_dice, "faces")
        return Throw(participant=attacker.id, faces=self.faces, attack_id=self.attack_id)
