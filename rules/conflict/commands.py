"""Everything that can be asked of a Conflict, as one discriminated union (``type`` field).

Commands carry plain data (participant ids are stored character ids); the engine checks them
against the state and refuses what the rules do not allow now. Who may send which command
(players for their own characters, the Narrator for anything) is the bot's check, not the
engine's; the comments below say who normally sends each one.

``faces`` fields take dice already thrown at the table (or fixed in a test); when absent the
engine rolls with the ``random.Random`` it was given.
"""

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StrictBool, StrictInt, TypeAdapter, ValidationError

from rules.burdens import Severity
from rules.character import Resilience
from rules.conflict.specs import FROZEN, ActionSpec, ConflictType, DiceSpec, Side
from rules.errors import RulesError


class Join(BaseModel):
    """Narrator: add a character (or an Extras group) to the Conflict.

    ``side`` defaults to Heroes for a Hero and Opposition for anyone else. Joining during the
    resolve phase means arriving mid-round: the newcomer declares from the next round on.
    """

    model_config = FROZEN
    type: Literal["join"] = "join"
    character_id: StrictInt
    side: Side | None = None
    surprised: StrictBool = False


class Begin(BaseModel):
    """Narrator: the cast is in; open round 1 and start declaring (docs/rulings.md §4.22).

    Until then the Conflict gathers: fighters join and nobody declares.
    """

    model_config = FROZEN
    type: Literal["begin"] = "begin"


class Leave(BaseModel):
    """Narrator: take a participant out (fled, or added by mistake); the log keeps their name."""

    model_config = FROZEN
    type: Literal["leave"] = "leave"
    participant: StrictInt


class Reorder(BaseModel):
    """Narrator: settle ties in the declaration order by listing every fighter in order."""

    model_config = FROZEN
    type: Literal["reorder"] = "reorder"
    order: tuple[StrictInt, ...]


class SetSurprised(BaseModel):
    """Narrator: mark someone surprised (they declare before those who got the drop on them)."""

    model_config = FROZEN
    type: Literal["set_surprised"] = "set_surprised"
    participant: StrictInt
    surprised: StrictBool = True


class Burn(BaseModel):
    """Player: start or stop burning an Allomantic metal. Pewter raises Physique and Health."""

    model_config = FROZEN
    type: Literal["burn"] = "burn"
    participant: StrictInt
    metal: str
    burning: StrictBool = True
    flared: StrictBool = False
    """Flare it (+1 rating, 1 more charge each round), or let a flare down (docs/rulings.md §9.2)."""


class Drink(BaseModel):
    """Player: drink a vial the sheet carries, one a round; no roll (docs/rulings.md §9.2)."""

    model_config = FROZEN
    type: Literal["drink"] = "drink"
    participant: StrictInt
    vial: str


class Declare(BaseModel):
    """Player (Narrator for their characters): declare this round's action, in declaration order.

    Declaring again changes the declaration while nobody has declared since (and no turn has
    been taken); ``reopen`` (the Narrator's) changes it later in the declaring too
    (docs/rulings.md §4.23).
    """

    model_config = FROZEN
    type: Literal["declare"] = "declare"
    participant: StrictInt
    action: ActionSpec
    dice: DiceSpec | None = None
    reopen: StrictBool = False


class AdjustDice(BaseModel):
    """Narrator: add or remove dice from a participant's current pile (Action or Defense Dice)."""

    model_config = FROZEN
    type: Literal["adjust_dice"] = "adjust_dice"
    participant: StrictInt
    delta: StrictInt
    reason: str = ""


class Act(BaseModel):
    """Player, on their turn: take the declared action with a pool of 2–10 Action Dice.

    ``resilience``, ``attack_kind`` and ``difficulty`` let the Narrator's calls be changed at the
    last moment; changing one of an attack's kind and Resilience leaves the other as declared.
    ``weapon`` names the Prop the attack uses now (``weapon_bonus`` 0: unarmed), as a
    declaration can: a social or mental attack adds only a Prop it names (docs/rulings.md §5.1).
    ``action`` is only for the extra action a caught Beat grants (a fresh action; without it
    the declared one is repeated). ``faces`` only when nobody can defend (a Challenge);
    otherwise the dice are thrown once the defence is committed, and ``table_roll`` says the
    attacker throws them at the table and types them then (:class:`Throw`). ``defeat_burden`` is
    used if the attack succeeds without Nudges and defeats the target (with Nudges it is asked
    again).
    """

    model_config = FROZEN
    type: Literal["act"] = "act"
    participant: StrictInt
    pool: StrictInt
    faces: tuple[StrictInt, ...] | None = None
    resilience: Resilience | None = None
    attack_kind: ConflictType | None = None
    difficulty: StrictInt | None = None
    action: ActionSpec | None = None
    defeat_burden: Severity | None = None
    weapon: str | None = None
    weapon_bonus: StrictInt | None = None
    table_roll: StrictBool = False


class Throw(BaseModel):
    """Attacker's side: the dice of an action rolled at the table, typed once the defence is
    committed (``faces``), or None to let the engine roll them after all."""

    model_config = FROZEN
    type: Literal["throw"] = "throw"
    participant: StrictInt
    faces: tuple[StrictInt, ...] | None = None
    attack_id: StrictInt | None = None


class Switch(BaseModel):
    """Player, on their turn: drop the declared action for a new one (once a round)."""

    model_config = FROZEN
    type: Literal["switch"] = "switch"
    participant: StrictInt
    action: ActionSpec
    dice: DiceSpec


class Pass(BaseModel):
    """Player, on their turn: do not act; Action Dice become Defense Dice. Also declines a Beat."""

    model_config = FROZEN
    type: Literal["pass"] = "pass"
    participant: StrictInt


class Defend(BaseModel):
    """Target's player: commit 0 (no defence) or 2–10 dice against the attack in progress.

    The reaction adjustments (Traits, Tool, Circumstances) shape the Defense Dice a busy
    character gets when first attacked, and are refused at any other time. ``attack_id``, when
    given, makes a late click on an attack already settled fail cleanly. ``deflect`` defends
    against a metal attack with Steel or Iron, for their burners only (docs/rulings.md §9.3).
    """

    model_config = FROZEN
    type: Literal["defend"] = "defend"
    participant: StrictInt
    dice: StrictInt
    attack_id: StrictInt | None = None
    attack_faces: tuple[StrictInt, ...] | None = None
    defence_faces: tuple[StrictInt, ...] | None = None
    traits_for: StrictInt = 0
    traits_against: StrictInt = 0
    tool: StrictInt = 0
    circumstances: StrictInt = 0
    deflect: StrictBool = False


class SpendNudges(BaseModel):
    """Attacker's player: spend the Nudges of a success (docs/rulings.md §2, §5).

    Each Nudge is one of: +1 damage, remove one of the target's dice, +1 Action Die next round,
    or a story perk the Narrator approves (``story``, like Thorrow's trip). Unspent Nudges are
    simply lost. ``catch_beat`` spends them all (3 or more) on an extra action at once.
    """

    model_config = FROZEN
    type: Literal["spend_nudges"] = "spend_nudges"
    participant: StrictInt
    damage: StrictInt = 0
    remove_dice: StrictInt = 0
    next_round: StrictInt = 0
    story: StrictInt = 0
    catch_beat: StrictBool = False
    defeat_burden: Severity | None = None
    attack_id: StrictInt | None = None


class NextRound(BaseModel):
    """Narrator: end the round (leftover dice vanish) and start declaring the next.

    ``force`` ends it even though some have not acted, dropping an attack still in progress.
    """

    model_config = FROZEN
    type: Literal["next_round"] = "next_round"
    force: StrictBool = False


class End(BaseModel):
    """Narrator: end the Conflict and get the summary of damage and Burdens dealt."""

    model_config = FROZEN
    type: Literal["end"] = "end"


Command = Annotated[
    Join
    | Begin
    | Leave
    | Reorder
    | SetSurprised
    | Burn
    | Drink
    | Declare
    | AdjustDice
    | Act
    | Throw
    | Switch
    | Pass
    | Defend
    | SpendNudges
    | NextRound
    | End,
    Field(discriminator="type"),
]

COMMANDS: TypeAdapter[Command] = TypeAdapter(Command)


def parse_command(data: Mapping[str, Any] | str | bytes) -> Command:
    """A command from a mapping or JSON text, with one plain RulesError if it is malformed."""
    try:
        if isinstance(data, str | bytes):
            return COMMANDS.validate_json(data)
        return COMMANDS.validate_python(dict(data))
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        where = ".".join(str(step) for step in errors[0]["loc"]) if errors else ""
        detail = errors[0]["msg"] if errors else "not valid"
        raise RulesError(f"That Conflict command is not valid ({where or 'command'}: {detail}).") from None
