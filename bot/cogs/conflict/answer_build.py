"""The answers to an attack — the defence, the attacker's Nudges, the attacker's dice once the
defence is set — turned into engine commands checked against the fresh Conflict.

A typed ``/defend`` and a "Defend with 4" click make the same :class:`DefenceOptions`; a click
names its attack, so which attack it answers is judged on the state the command will change.

Honest dice (docs/rulings.md §7.2): typed faces are checked against who rolls them — the
defender's ``faces`` against the defender's controller, ``attacker_faces`` against the
attacker's (a defender never types the dice thrown against them).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.access import Caller
from bot.cogs.conflict.answers import NudgeMode
from bot.cogs.conflict.move import Sheets
from bot.errors import NotAllowed
from bot.render.common import plain
from bot.workers.grace import DEFEND_GRACE, hold_for_player
from rules.burdens import Severity
from rules.character import CharacterKind
from rules.conflict import Awaiting, Command, Conflict, Defend, SpendNudges, Throw
from rules.errors import RulesError


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
