"""What a participant declares: the action, and where its dice come from (docs/rulings.md §4).

These small models appear both in commands (what a player asks for) and in the stored state
(what was declared), so they live apart from either. They only hold data; the engine checks
them against the sheets and the round when a command arrives, and refuses with a
:class:`~rules.errors.RulesError` that names the problem.
"""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt

from rules.character import Attribute, Resilience
from rules.character.metals import Task
from rules.powers.feruchemy import TapUse
from rules.powers.pushes import ObjectSize

FROZEN = ConfigDict(frozen=True, extra="forbid")
LABEL_MAX = 100
"""Longest description of a declared action ("sweeps his spear at Carrow's legs")."""


class ConflictType(StrEnum):
    """Physical, social or mental: the kind of struggle the Narrator framed, and the kind of each
    attack in it (docs/rulings.md §4.1, §4.5).

    An attack's kind says how the blow lands: it decides a busy defender's Defense Dice
    (§4.11) and whether armour helps (§5.2). Its Resilience, which defaults to the kind's, says
    what the blow wears down; the two may differ (a beating meant to break someone's will is a
    physical attack on Willpower).
    """

    PHYSICAL = "physical"
    SOCIAL = "social"
    MENTAL = "mental"

    @property
    def resilience(self) -> Resilience:
        """Physical wears Health, social Reputation, mental Willpower (docs/rulings.md §4.5)."""
        return {
            ConflictType.PHYSICAL: Resilience.HEALTH,
            ConflictType.SOCIAL: Resilience.REPUTATION,
            ConflictType.MENTAL: Resilience.WILLPOWER,
        }[self]

    @property
    def label(self) -> str:
        return self.value.capitalize()


ATTRIBUTE_KIND: dict[Attribute, ConflictType] = {
    Attribute.PHYSIQUE: ConflictType.PHYSICAL,
    Attribute.CHARM: ConflictType.SOCIAL,
    Attribute.WITS: ConflictType.MENTAL,
}
"""The kind of an attack made with each Attribute, by default (docs/rulings.md §4.5)."""

DEFENCE_ATTRIBUTE: dict[ConflictType, Attribute] = {kind: attr for attr, kind in ATTRIBUTE_KIND.items()}
"""Which Attribute a busy character reacts with, by the kind of the attack.

docs/rulings.md §4.11: someone occupied elsewhere cannot choose how to
guard, so the kind of attack decides (physical → Physique, social → Charm, mental → Wits),
never the Resilience it aims at.
"""


class Side(StrEnum):
    """The players' side and the Narrator's; a Conflict ends when one side is all defeated."""

    HEROES = "heroes"
    OPPOSITION = "opposition"

    @property
    def label(self) -> str:
        return "Heroes" if self is Side.HEROES else "Opposition"


class ActionKind(StrEnum):
    """The four shapes a declaration takes (docs/rulings.md §4.4).

    ``ATTACK`` harms a target's Resilience; ``ACTION`` is anything else that needs a roll (a
    Challenge, or a Contest when it names a target who may resist, but never damage);
    ``FULL_DEFENCE`` gives Defense Dice instead of Action Dice; ``NO_ROLL`` gives no dice at all.
    """

    ATTACK = "attack"
    ACTION = "action"
    FULL_DEFENCE = "full_defence"
    NO_ROLL = "no_roll"

    @property
    def rolls(self) -> bool:
        """Attacks and other rolled actions produce Action Dice and take a turn to resolve."""
        return self in (ActionKind.ATTACK, ActionKind.ACTION)

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").capitalize()


class TapSpec(BaseModel):
    """A Feruchemical tap declared with the dice, before the roll (docs/rulings.md §9.4): ``charges``
    of ``metal`` from one metalmind, for the metal's effect, Nudges or Outcome."""

    model_config = FROZEN

    metal: str
    charges: StrictInt
    use: TapUse = TapUse.EFFECT


class DiceSpec(BaseModel):
    """Where a pile of dice comes from, the way the Narrator and player settle it (docs/rulings.md §1).

    ``stat`` is an Attribute, Standing or Power on the sheet, by name ("Physique", "Steel").
    ``burdens`` names the target's Burdens that the Narrator agrees apply to this action: not
    every wound helps every action, so the declarer names them rather than taking them all.
    """

    model_config = FROZEN

    stat: str
    traits_for: StrictInt = 0
    traits_against: StrictInt = 0
    tool: StrictInt = 0
    circumstances: StrictInt = 0
    burdens: tuple[str, ...] = ()
    tap: TapSpec | None = None
    """A tap declared with the action: spent at once, its dice in the pile, its Nudges or Outcome
    on the action's roll (docs/rulings.md §9.4, §9.10)."""
    task: Task | None = None
    """What the action leans on (senses, strength, …), as ``/roll task:`` names it: the Powers
    that help or hinder it add their dice as on a roll (docs/rulings.md §9.10)."""


class ActionSpec(BaseModel):
    """What a declared (or switched, or extra) action does.

    ``target`` is a participant id. An attack has a kind and a Resilience (docs/rulings.md
    §4.5): ``attack_kind`` is filled in, when left out, from the rating it rolls (Physique
    physical, Charm social, Wits mental; anything else the Conflict's kind), and
    ``resilience`` from the kind; the Narrator may name either. ``contest`` False makes an
    attack a Challenge (the target cannot resist: asleep, tied up). ``weapon`` names a Prop on
    the attacker's sheet, or ``weapon_bonus`` gives the bonus outright; ``armour`` overrides the
    target's best armour Prop (a Narrator who knows the guard left his breastplate behind).
    ``push`` makes the attack a Steelpush or Ironpull of a loose object of that size: physical,
    its weapon bonus the object's, by a Steel or Iron burner only (docs/rulings.md §9.3).
    ``metal`` says the attack is a metal projectile (a crossbow bolt, a coin thrown by hand):
    with a push, the attacks a Steel or Iron burner may deflect. ``held`` makes a rolled action
    against the target a Steelpush or Ironpull on a metal object they hold or wear: a Contest
    against their Physique (their Steel or Iron if they burn it), a win disarming or knocking
    them down. ``inside``: that metal is inside their body (an earring, a spike), moved only
    by a Contest won with Outcome 5 or more. ``anchored``: the pusher braces between two very
    heavy objects, at 1 Health (docs/rulings.md §9.3). ``emotion`` is set by the
    engine, never typed: Zinc or Brass when the attack rolls that metal flared, a mental attack
    resisted with Spirit (docs/rulings.md §9.3). ``stirs``, also the engine's: Zinc or Brass
    when a rolled action (not an attack) rolls that metal unflared, a rioting or soothing whose
    success holds the emotion (§9.3).
    """

    model_config = FROZEN

    kind: ActionKind
    label: str = ""
    target: StrictInt | None = None
    resilience: Resilience | None = None
    attack_kind: ConflictType | None = None
    contest: StrictBool = True
    difficulty: StrictInt | None = None
    weapon: str | None = None
    weapon_bonus: StrictInt | None = None
    armour: StrictInt | None = None
    push: ObjectSize | None = None
    metal: StrictBool = False
    held: StrictBool = False
    inside: StrictBool = False
    anchored: StrictBool = False
    emotion: str | None = None
    stirs: str | None = None
