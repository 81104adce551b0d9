"""What happened, as data for the bot to render (docs/architecture.md: rules return data, not strings).

Every transition returns a tuple of these. Participants are named by id (look the name up in
the new state with ``Conflict.name_of``); events about someone who may be gone carry a name.
The last event of every transition that leaves the Conflict running is a ``Waiting``
(``rules.conflict.waiting``), which says whose move it is, so the bot can always show the next step.
"""

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from rules.burdens import Severity
from rules.character import Burden, DefeatCondition, Resilience
from rules.conflict.specs import FROZEN, ActionKind, ActionSpec, ConflictType, Side
from rules.conflict.state import EndReason
from rules.conflict.waiting import Waiting
from rules.contest import ContestResult
from rules.pool import Contribution
from rules.powers.ledger import Move


class Pile(StrEnum):
    ACTION = "action"
    DEFENSE = "defense"
    NONE = "none"


class Joined(BaseModel):
    """``late``: declaring had passed their place (or the round was resolving), so they sit
    this round out, busy, and declare from the next (docs/rulings.md §4.18)."""

    model_config = FROZEN
    type: Literal["joined"] = "joined"
    participant: int
    side: Side
    surprised: bool
    late: bool = False


class Left(BaseModel):
    model_config = FROZEN
    type: Literal["left"] = "left"
    participant: int
    name: str


class Reordered(BaseModel):
    """The declaration order after the Narrator settled ties."""

    model_config = FROZEN
    type: Literal["reordered"] = "reordered"
    order: tuple[int, ...]


class SurpriseChanged(BaseModel):
    model_config = FROZEN
    type: Literal["surprise_changed"] = "surprise_changed"
    participant: int
    surprised: bool


class BurningChanged(BaseModel):
    """``health`` is what is left of Health now, with Pewter's boost if it burns."""

    model_config = FROZEN
    type: Literal["burning_changed"] = "burning_changed"
    participant: int
    metal: str
    burning: bool
    health: int
    flared: bool = False


class ChargesMoved(BaseModel):
    """Charges a Power moved in the Conflict (a burn's start, a flared round, Atium's round, a
    vial drunk), the burns that ran dry, and notes for the table (docs/rulings.md §9.2, §9.9)."""

    model_config = FROZEN
    type: Literal["charges_moved"] = "charges_moved"
    participant: int
    moves: tuple[Move, ...] = ()
    ended: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class Declared(BaseModel):
    """A declaration and the dice it gave; ``bonus`` is last round's Nudge dice (lost on no-roll).
    ``changed``: it replaces the character's earlier declaration this round (§4.23)."""

    model_config = FROZEN
    type: Literal["declared"] = "declared"
    participant: int
    action: ActionSpec
    pile: Pile
    dice: int
    pool: tuple[Contribution, ...]
    bonus: int
    bonus_lost: int = 0
    changed: bool = False
    electrum: int = 0
    """Defense Dice Electrum gave for the round (docs/rulings.md §9.3)."""


class ResolveStarted(BaseModel):
    """Everyone has declared; ``order`` lists the resolve order, ties sharing a tuple."""

    model_config = FROZEN
    type: Literal["resolve_started"] = "resolve_started"
    order: tuple[tuple[int, ...], ...]


class DiceAdjusted(BaseModel):
    model_config = FROZEN
    type: Literal["dice_adjusted"] = "dice_adjusted"
    participant: int
    pile: Pile
    delta: int
    dice: int
    reason: str


class Acted(BaseModel):
    """A pool formed from the pile; ``kept`` dice became Defense Dice. ``extra`` for a Beat."""

    model_config = FROZEN
    type: Literal["acted"] = "acted"
    action_id: int
    participant: int
    kind: ActionKind
    pool: int
    kept: int
    target: int | None
    resilience: Resilience | None
    difficulty: int
    awaiting_defence: bool
    extra: bool = False
    attack_kind: ConflictType | None = None
    """An attack's kind (physical, social, mental); None for other actions."""


class Switched(BaseModel):
    """A new action: ``refigured`` dice, halved, less ``lost`` (spent or removed) → ``dice``."""

    model_config = FROZEN
    type: Literal["switched"] = "switched"
    participant: int
    action: ActionSpec
    pool: tuple[Contribution, ...]
    refigured: int
    halved: int
    lost: int
    dice: int


class BeatActionNamed(BaseModel):
    """The caught Beat's extra action made a new one (docs/rulings.md §4.15): no halving, no new
    dice; it is taken from the dice left."""

    model_config = FROZEN
    type: Literal["beat_action_named"] = "beat_action_named"
    participant: int
    action: ActionSpec


class Passed(BaseModel):
    """Chose not to act (all Action Dice now Defense Dice), or declined a Beat's extra action.
    ``empty``: their turn came with no Action Dice, so the bot passed them over (§4.9)."""

    model_config = FROZEN
    type: Literal["passed"] = "passed"
    participant: int
    defense_dice: int
    declined_beat: bool = False
    empty: bool = False


class DefenceGranted(BaseModel):
    """Someone busy with a no-roll action (or none) gets Defense Dice when first attacked."""

    model_config = FROZEN
    type: Literal["defence_granted"] = "defence_granted"
    participant: int
    dice: int
    pool: tuple[Contribution, ...]


class Defended(BaseModel):
    """Dice committed before the roll (0 means no defence); ``left`` is what remains of the pile."""

    model_config = FROZEN
    type: Literal["defended"] = "defended"
    action_id: int
    participant: int
    dice: int
    pile: Pile
    left: int
    deflected: str = ""
    """The metal a metal attack was deflected with (docs/rulings.md §9.3); "" for none."""
    redirection: int = 0
    """Improved Redirection's dice, rolled with the defence and taken from no pile (§9.7)."""


class Resolved(BaseModel):
    """The roll of an action: its Contest (or Challenge) result, and what it waits for next."""

    model_config = FROZEN
    type: Literal["resolved"] = "resolved"
    action_id: int
    attacker: int
    target: int | None
    contest: ContestResult
    success: bool
    stalemate: bool
    nudges: int
    awaiting_nudges: bool
    wrested: bool = False
    """A Steelpush or Ironpull on a held or worn object won: the target is disarmed or knocked
    down (docs/rulings.md §9.3)."""
    in_body: bool = False
    """The metal was inside the target's body: a Contest won by under Outcome 5 fails (§9.3)."""
    deflected: str = ""
    """The metal a winning deflection used (§9.3); "" when none won."""
    caught: bool = False
    """The deflector's own 2 Nudges caught the object (not sent back, §9.7)."""
    draws: bool = False
    """The deflector burns Iron and may draw the missed object in."""
    stirred: str = ""
    """What a rioting or soothing rolled as an action did: the emotion held, or what a failure's
    Complications mean (§9.3); "" for any other action."""


class NudgesSpent(BaseModel):
    model_config = FROZEN
    type: Literal["nudges_spent"] = "nudges_spent"
    action_id: int
    participant: int
    available: int
    damage: int
    remove_dice: int
    next_round: int
    story: int
    catch_beat: bool
    unspent: int


class DamageDealt(BaseModel):
    """``amount`` = 1 + ``nudges`` + ``weapon`` − ``armour`` (never below 0); ``taken`` what landed."""

    model_config = FROZEN
    type: Literal["damage_dealt"] = "damage_dealt"
    action_id: int
    attacker: int
    target: int
    resilience: Resilience
    nudges: int
    weapon: int
    armour: int
    weapon_name: str = ""
    """The weapon Prop used, by default the attacker's best (docs/rulings.md §5.1); "" for none."""
    amount: int
    taken: int
    before: int
    after: int
    wound: Severity | None
    burdens_added: tuple[Burden, ...]
    burdens_skipped: tuple[Burden, ...]
    members_lost: int
    soaked: int = 0
    """Taken off by a Stunt that lessens each hit while its metal burns (docs/rulings.md §9.7)."""
    soaked_by: str = ""
    reflected: bool = False
    """A deflected object sent back at its attacker (Reflect Ranged Attack, §9.7)."""


class DiceRemoved(BaseModel):
    model_config = FROZEN
    type: Literal["dice_removed"] = "dice_removed"
    participant: int
    pile: Pile
    removed: int
    left: int


class BeatCaught(BaseModel):
    """An extra action at once, from the ``dice`` left (no new dice)."""

    model_config = FROZEN
    type: Literal["beat_caught"] = "beat_caught"
    participant: int
    dice: int


class Anchored(BaseModel):
    """A push or pull braced between two very heavy objects cost its maker 1 Health; ``health``
    is what is left (docs/rulings.md §9.3)."""

    model_config = FROZEN
    type: Literal["anchored"] = "anchored"
    participant: int
    health: int


class Defeated(BaseModel):
    """Out of the fight. ``simultaneous``: defeated by someone acting at the same moment, so
    their own simultaneous action still happens."""

    model_config = FROZEN
    type: Literal["defeated"] = "defeated"
    participant: int
    condition: DefeatCondition | None
    simultaneous: bool = False


class RoundStarted(BaseModel):
    """A new round; ``stalemates`` lists (attacker, target) struggles carried over."""

    model_config = FROZEN
    type: Literal["round_started"] = "round_started"
    round: int
    dropped_action: int | None = None
    stalemates: tuple[tuple[int, int | None], ...] = ()


class SummaryLine(BaseModel):
    """One participant's share of the Conflict: damage dealt and taken, Burdens left on them."""

    model_config = FROZEN
    name: str
    side: Side | None
    dealt: int
    participant: int | None = None
    """The character's id (names may repeat among those who left), so a view can hide it."""
    taken: tuple[tuple[Resilience, int], ...]
    members_lost: int
    burdens: tuple[Burden, ...]
    defeated: bool


class ConflictEnded(BaseModel):
    model_config = FROZEN
    type: Literal["conflict_ended"] = "conflict_ended"
    reason: EndReason
    defeated_sides: tuple[Side, ...]
    rounds: int
    summary: tuple[SummaryLine, ...]
    log_dropped: int = 0


Event = Annotated[
    Joined
    | Left
    | Reordered
    | SurpriseChanged
    | BurningChanged
    | ChargesMoved
    | Declared
    | ResolveStarted
    | DiceAdjusted
    | Acted
    | Switched
    | BeatActionNamed
    | Passed
    | DefenceGranted
    | Defended
    | Resolved
    | NudgesSpent
    | DamageDealt
    | DiceRemoved
    | BeatCaught
    | Anchored
    | Defeated
    | RoundStarted
    | ConflictEnded
    | Waiting,
    Field(discriminator="type"),
]
