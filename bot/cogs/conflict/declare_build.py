"""The declared action (``/declare``, ``/switch``, the declare prompt's menus and form) turned
into the engine command, checked against the fresh Conflict.

Each kind of move here is a frozen value (``bot.cogs.conflict.move.Move``) whose ``command`` runs
inside the move's transaction (:meth:`bot.cogs.conflict.service.ConflictFlow.run` calls it with
the state and sheets it just loaded), so who may speak for whom is judged on the state the
command will change; a slash command or a prompt's pick only turns its options into
:class:`ActionOptions`. The mover's other moves are in ``mover_build``, the answers to an attack in
``answer_build``.

Honest dice (docs/rulings.md §7.2): ``challenge`` against another character needs a Narrator.
"""

from dataclasses import dataclass
from typing import Any, Literal

from bot.access import Caller
from bot.cogs.conflict.move import Sheets
from bot.cogs.conflict.named import find_participant, pick
from bot.inputs.name_lists import split_names
from bot.inputs.pools import TapRequest
from rules.character import CharacterKind, Resilience
from rules.character.metals import Task
from rules.conflict import ActionKind, Command, Conflict, ConflictType, parse_command
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
