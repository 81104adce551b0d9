"""Slash-command options turned into engine commands.

Options arrive as names (a target called "Carrow", a stat called "Steel"); the engine wants
participant ids and specs. Everything is assembled as plain data and validated by
``parse_command``, so a malformed value becomes one clear :class:`RulesError`.
"""

from dataclasses import dataclass
from typing import Any, Literal

from bot.cogs.conflict.access import find_participant
from rules.conflict import ActionKind, Command, Conflict, parse_command
from rules.errors import RulesError

ActionChoice = Literal["attack", "action", "full-defence", "no-roll"]
KINDS: dict[str, ActionKind] = {
    "attack": ActionKind.ATTACK,
    "action": ActionKind.ACTION,
    "full-defence": ActionKind.FULL_DEFENCE,
    "no-roll": ActionKind.NO_ROLL,
}
ResilienceChoice = Literal["health", "reputation", "willpower"]
BurdenChoice = Literal["none", "grave", "mortal"]


@dataclass(frozen=True)
class ActionOptions:
    """What ``/conflict declare`` and ``/conflict switch`` were given."""

    action: str
    target: str | None = None
    stat: str | None = None
    traits: int = 0
    tool: int = 0
    circumstances: int = 0
    burdens: str | None = None
    resilience: str | None = None
    weapon: str | None = None
    difficulty: int | None = None
    challenge: bool = False
    label: str | None = None

    @property
    def kind(self) -> ActionKind:
        """The action's kind; Discord offers only the choices, but a raw payload may carry anything."""
        kind = KINDS.get(self.action)
        if kind is None:
            raise RulesError(f"Choose the action from the list ({', '.join(KINDS)}).")
        return kind

    def action_data(self, conflict: Conflict) -> dict[str, Any]:
        kind = self.kind
        data: dict[str, Any] = {"kind": kind.value, "label": (self.label or "").strip()}
        if self.target:
            data["target"] = find_participant(conflict, self.target).id
        if self.resilience:
            data["resilience"] = self.resilience
        if self.difficulty is not None:
            data["difficulty"] = self.difficulty
        if self.weapon:
            data["weapon"] = self.weapon.strip()
        if self.challenge:
            data["contest"] = False
        return data

    def dice_data(self) -> dict[str, Any] | None:
        kind = self.kind
        if self.stat is None:
            if kind is ActionKind.NO_ROLL:
                return None
            raise RulesError("Say which stat or Power gives the dice, e.g. `stat:Physique` or `stat:Steel`.")
        if kind is ActionKind.NO_ROLL:
            raise RulesError("An action that needs no roll gets no dice; leave `stat` out.")
        burdens = tuple(b.strip() for b in (self.burdens or "").split(",") if b.strip())
        return {
            "stat": self.stat,
            "traits_for": max(0, self.traits),
            "traits_against": max(0, -self.traits),
            "tool": self.tool,
            "circumstances": self.circumstances,
            "burdens": burdens,
        }

    def command(self, kind: Literal["declare", "switch"], conflict: Conflict, participant: int) -> Command:
        data: dict[str, Any] = {
            "type": kind,
            "participant": participant,
            "action": self.action_data(conflict),
        }
        dice = self.dice_data()
        if dice is not None or kind == "switch":
            data["dice"] = dice
        return parse_command(data)


def parse_faces(text: str | None) -> tuple[int, ...] | None:
    """Table dice typed as ``3 3 6 1`` (or with commas); None when not given."""
    if text is None or not text.strip():
        return None
    words = text.replace(",", " ").split()
    if not all(w.isascii() and w.isdigit() for w in words):
        raise RulesError("Type the faces as numbers 1 to 6, e.g. `3 3 6 1`.")
    return tuple(int(w) for w in words)


def severity(choice: str | None) -> str | None:
    return None if choice in (None, "none") else choice
