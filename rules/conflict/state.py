"""The state of one Conflict: frozen pydantic models that round-trip through JSON exactly.

A Conflict is stored as one JSON document per channel (``storage.conflicts``), so everything
the next command needs lives here: the round and phase, each participant's dice for the
round, the attack waiting on a defence or on its Nudges, and a log of what was dealt for the
closing summary. Transitions never change a model; they return new ones
(``model_copy(update=...)``), so a refused command leaves the caller's state untouched.

``schema_version`` is a ``Literal`` so a document written by a newer engine fails to load
loudly instead of being misread. An older document is brought up to date on load
(``rules.conflict.upgrade``); version 2 gave every attack a kind (docs/rulings.md §4.5).
"""

from collections.abc import Mapping
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, NonNegativeInt, StrictBool, StrictInt

from rules.burdens import Severity
from rules.character import Burden, Character, CharacterKind, Resilience
from rules.conflict.specs import FROZEN, ActionSpec, ConflictType, DiceSpec, Side
from rules.errors import RulesError
from rules.pool import Contribution
from rules.words import is_group, says

SCHEMA_VERSION: Literal[2] = 2
SWITCHED_STEP = -1
"""The resolve-order key of a switcher: below any count of dice, so they go after everyone still
to act, even someone holding 0 or 1 die (docs/rulings.md §4.7)."""
MAX_PARTICIPANTS = 25
"""One Discord select menu lists at most 25 options."""
STAKES_MAX = 200
MAX_LOG = 500
"""Log entries kept; older ones are dropped (and counted) so a marathon fight stays storable."""


class Phase(StrEnum):
    """``GATHER``: the cast joins before the Narrator opens round 1 (docs/rulings.md §4.22)."""

    GATHER = "gather"
    DECLARE = "declare"
    RESOLVE = "resolve"
    ENDED = "ended"


class Status(StrEnum):
    """Where a participant is in this round.

    ``WAITING``: declared an attack or other rolled action and has not taken their turn, so
    they are in the resolve order. ``DONE``: acted, chose not to act, or declared full defence
    or a no-roll action, so only defending is left to them.
    """

    UNDECLARED = "undeclared"
    WAITING = "waiting"
    DONE = "done"


class Awaiting(StrEnum):
    """What the attack in progress waits for: the target's defence, then the attacker's Nudges.

    ``ROLL``: between the two, the attacker's own dice, thrown at the table once the defence is
    committed and typed by the attacker's side (docs/rulings.md §7.2).
    """

    DEFENCE = "defence"
    NUDGES = "nudges"
    ROLL = "roll"


class EndReason(StrEnum):
    NARRATOR = "narrator"
    SIDE_DEFEATED = "side_defeated"


class Declaration(BaseModel):
    """A declared action and the dice it produced.

    ``pool`` keeps the parts of the sum so the bot can show "Physique 6 + Pewter 5 + Trait";
    ``total`` is what the sources produced (never below 0), ``bonus`` the dice bought with
    Nudges last round and added on top (lost with a no-roll declaration, but kept here so a
    changed declaration gets them back).
    """

    model_config = FROZEN

    action: ActionSpec
    dice: DiceSpec | None = None
    pool: tuple[Contribution, ...] = ()
    total: NonNegativeInt = 0
    bonus: NonNegativeInt = 0


class RoundState(BaseModel):
    """One participant's dice and choices for the current round; reset when the round ends.

    The ledger (``gained``, ``spent``, ``removed``, ``dropped``) always balances:
    ``action_dice + defense_dice == gained - spent - removed - dropped``. ``spent`` counts dice
    used in pools (acting and defending), ``removed`` dice an opponent's Nudges took, and
    ``dropped`` dice set aside by a switch or a Narrator's cut. ``defended`` lists the actions
    already defended against, since each may be defended once. ``late``: joined after their
    place in the declaration order had passed, or mid-round; they declare from the next round
    (docs/rulings.md §4.18).
    """

    model_config = FROZEN

    declaration: Declaration | None = None
    status: Status = Status.UNDECLARED
    action_dice: NonNegativeInt = 0
    defense_dice: NonNegativeInt = 0
    granted: StrictBool = False
    switched: StrictBool = False
    acted: StrictBool = False
    passed: StrictBool = False
    extra_action: StrictBool = False
    grace: StrictBool = False
    late: StrictBool = False
    gained: NonNegativeInt = 0
    spent: NonNegativeInt = 0
    removed: NonNegativeInt = 0
    dropped: NonNegativeInt = 0
    defended: tuple[StrictInt, ...] = ()
    drank: StrictBool = False


class Participant(BaseModel):
    """A Hero, Villain or Extras group in the Conflict, referenced by its stored character id.

    ``name``, ``kind``, ``wits`` and the group's size are snapshots taken when they joined (a
    sheet's Wits does not change mid-fight). ``rank`` breaks declaration ties: join order until
    the Narrator reorders. ``grace`` marks a participant defeated by someone acting at the same
    moment, who still gets their simultaneous action.
    """

    model_config = FROZEN

    id: StrictInt
    name: str
    kind: CharacterKind
    side: Side
    wits: StrictInt
    joined: NonNegativeInt
    rank: NonNegativeInt
    surprised: StrictBool = False
    burning: tuple[str, ...] = ()
    flared: tuple[str, ...] = ()
    paid: tuple[str, ...] = ()
    """Metals whose one charge for this Conflict is paid (docs/rulings.md §9.2)."""
    defeated: StrictBool = False
    size: StrictInt = 1
    members_left: NonNegativeInt = 1
    next_round_dice: NonNegativeInt = 0
    next_round_wits: NonNegativeInt = 0
    """Wits a Zinc or Bronze tap bought for the next round's declaring order (§9.4)."""
    wits_tapped: NonNegativeInt = 0
    """Of it, what counts this round (``rules.conflict.quickened``)."""
    round: RoundState = RoundState()

    @property
    def burning_pewter(self) -> bool:
        return "Pewter" in self.burning

    @property
    def is_extra(self) -> bool:
        return self.kind is CharacterKind.EXTRA

    @property
    def many(self) -> bool:
        """A group reads as plural: "House guards roll" (``rules.words.is_group``, §8.2)."""
        return is_group(self.size)

    def does(self, singular: str) -> str:
        """ "Vin acts", "House guards act": the name and its verb in agreement (§8.2)."""
        return says(self.name, singular, self.many)

    @property
    def in_order(self) -> bool:
        """Still due a turn this round (docs/rulings.md §4): declared a rolled action, not yet taken."""
        state = self.round
        return state.status is Status.WAITING and (not self.defeated or state.grace)

    @property
    def order_key(self) -> int:
        """Action Dice for the resolve order; a switcher goes at the very end of the round, after
        everyone still to act whatever their dice (docs/rulings.md §4.7), so their key is below
        any count of dice. Switchers share that last step."""
        return SWITCHED_STEP if self.round.switched else self.round.action_dice

    @property
    def pile(self) -> int:
        """The dice this participant can spend now: Action Dice before acting, else Defense Dice."""
        return self.round.action_dice if self.round.status is Status.WAITING else self.round.defense_dice


class PendingAttack(BaseModel):
    """An action that has been taken but not yet settled.

    First it waits for the target's defence (committed before anyone rolls, docs/rulings.md
    §4.10); once the roll succeeds with Nudges it waits for the attacker to spend them.
    ``step_key`` is the attacker's place in the resolve order when they acted, so a target
    who shared that place still gets their simultaneous action if this attack defeats them.
    ``table_roll``: the attacker throws their dice at the table; once the defence is committed
    (``defence_dice``, and ``defence_faces`` if typed) it waits for them (``Awaiting.ROLL``).
    """

    model_config = FROZEN

    id: StrictInt
    attacker: StrictInt
    target: StrictInt | None
    action: ActionSpec
    pool: StrictInt
    difficulty: StrictInt
    step_key: StrictInt
    extra: StrictBool = False
    defeat_burden: Severity | None = None
    awaiting: Awaiting = Awaiting.DEFENCE
    table_roll: StrictBool = False
    defence_dice: NonNegativeInt = 0
    defence_faces: tuple[StrictInt, ...] | None = None
    nudges: NonNegativeInt = 0
    free_nudges: NonNegativeInt = 0
    """Of ``nudges``, those a tap gave: never toward a Beat (docs/rulings.md §2, §9.4)."""
    result: NonNegativeInt = 0
    outcome: StrictInt = 0
    reflects: StrictBool = False
    """Deflected by someone with Reflect Ranged Attack (docs/rulings.md §9.7), for a table roll."""
    deflected: str = ""
    """The metal it was deflected with (§9.3), for a table roll; "" for none."""


class LogKind(StrEnum):
    DAMAGE = "damage"
    STALEMATE = "stalemate"


class LogEntry(BaseModel):
    """One line of the Conflict's record, with name snapshots (participants may leave)."""

    model_config = FROZEN

    kind: LogKind
    round: StrictInt
    attacker: StrictInt
    attacker_name: str
    target: StrictInt | None = None
    target_name: str = ""
    resilience: Resilience | None = None
    amount: NonNegativeInt = 0
    taken: NonNegativeInt = 0
    wound: Severity | None = None
    burdens: tuple[Burden, ...] = ()
    defeated: StrictBool = False
    members_lost: NonNegativeInt = 0


class Departed(BaseModel):
    """A fighter who left the Conflict, by the name they had: a declaration still aimed at them
    names them on the board, never "someone"."""

    model_config = FROZEN

    id: StrictInt
    name: str


LEFT_NAMED = "a fighter who left"
"""Who a declaration is aimed at when even the name of the fighter who left is not kept."""


class Conflict(BaseModel):
    """One channel's Conflict (docs/rulings.md §4)."""

    model_config = FROZEN

    schema_version: Literal[2] = SCHEMA_VERSION
    channel_id: StrictInt
    type: ConflictType
    stakes: str
    round: StrictInt = 1
    phase: Phase = Phase.GATHER
    participants: tuple[Participant, ...] = ()
    departed: tuple[Departed, ...] = ()
    """Who left, the latest :data:`MAX_PARTICIPANTS` (``rules.conflict.roster.leave``)."""
    joined_count: NonNegativeInt = 0
    actions: NonNegativeInt = 0
    pending: PendingAttack | None = None
    log: tuple[LogEntry, ...] = ()
    log_dropped: NonNegativeInt = 0
    ended: EndReason | None = None
    defeated_sides: tuple[Side, ...] = ()
    auto_rounds: StrictBool = False
    """The next round opens by itself once every turn of a round is taken, rather than when the
    Narrator presses Next round (docs/rulings.md §4.17); chosen when the Conflict starts."""

    def find(self, participant_id: int) -> Participant | None:
        for participant in self.participants:
            if participant.id == participant_id:
                return participant
        return None

    def participant(self, participant_id: int) -> Participant:
        """The participant with this id, or a RulesError a player can read."""
        found = self.find(participant_id)
        if found is None:
            raise RulesError("That character is not taking part in this Conflict; the board lists who is.")
        return found

    def name_of(self, participant_id: int | None) -> str:
        """A fighter's name; one who left by the name they had (:meth:`departed_name`)."""
        if participant_id is None:
            return "someone"
        found = self.find(participant_id)
        if found is not None:
            return found.name
        return self.departed_name(participant_id) or LEFT_NAMED

    def departed_name(self, participant_id: int) -> str | None:
        """The name a fighter who left had, if they left and are not back."""
        if self.find(participant_id) is not None:
            return None
        return next((d.name for d in reversed(self.departed) if d.id == participant_id), None)

    def with_departed(self, gone: Participant) -> "Conflict":
        """A copy without ``gone``, remembered among those who left (:attr:`departed`)."""
        kept = tuple(p for p in self.participants if p.id != gone.id)
        left = (*(d for d in self.departed if d.id != gone.id), Departed(id=gone.id, name=gone.name))
        return self.model_copy(update={"participants": kept, "departed": left[-MAX_PARTICIPANTS:]})

    def does(self, participant_id: int | None, singular: str) -> str:
        """ "Vin has", "House guards have", "someone has": a participant and its verb (§8.2)."""
        found = None if participant_id is None else self.find(participant_id)
        return found.does(singular) if found is not None else says(self.name_of(participant_id), singular)

    def with_participant(
        self, participant: Participant, entry: LogEntry | None = None, **fields: object
    ) -> "Conflict":
        """A copy with ``participant`` replacing the one with the same id; ``entry`` logged and
        other ``fields`` changed in the same copy (one copy of the state, not one per change)."""
        replaced = tuple(participant if p.id == participant.id else p for p in self.participants)
        if entry is not None:
            fields.update(self._logged(entry))
        return self.model_copy(update={"participants": replaced, **fields})

    def with_sheets(self, sheets: Mapping[int, Character]) -> "Conflict":
        """A copy showing each participant as its sheet stands now: its current name (a rename
        shows everywhere at once; the log keeps the names things happened under) and the metals
        it burns and flares. The sheet is the one record of the burns (docs/rulings.md §9.2): a
        change made outside the Conflict's own moves (``/sheet damage`` knocking a burner out,
        ``/power stop``) counts from the next read of the Conflict, a move's or a board's, as
        every read passes through here. A participant whose sheet is missing keeps its copy."""
        caught_up = tuple(_as_sheet(p, sheets.get(p.id)) for p in self.participants)
        if all(new is old for new, old in zip(caught_up, self.participants, strict=True)):
            return self
        return self.model_copy(update={"participants": caught_up})

    def with_log(self, entry: LogEntry) -> "Conflict":
        return self.model_copy(update=self._logged(entry))

    def _logged(self, entry: LogEntry) -> dict[str, object]:
        log = (*self.log, entry)
        dropped = max(0, len(log) - MAX_LOG)
        return {"log": log[dropped:], "log_dropped": self.log_dropped + dropped}


def _as_sheet(participant: Participant, sheet: Character | None) -> Participant:
    """``participant`` with its sheet's name and burns (:meth:`Conflict.with_sheets`); itself
    when nothing differs, so an unchanged Conflict is not copied."""
    if sheet is None:
        return participant
    now, was = sheet.allomancy, participant
    if sheet.name == was.name and now.burning == was.burning and now.flared == was.flared:
        return participant  # the usual read: nothing changed (equal to a sorted tuple, so sorted)
    burning = tuple(sorted(now.burning))
    flared = tuple(sorted(now.flared))
    if (sheet.name, burning, flared) == (participant.name, participant.burning, participant.flared):
        return participant
    return participant.model_copy(update={"name": sheet.name, "burning": burning, "flared": flared})
