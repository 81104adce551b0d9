"""Checking a declared action and figuring its dice from the sheets (docs/rulings.md §1, §4, §5).

Action Dice are formed like a pool (rating + Traits + the target's Burdens + Tool +
Circumstances + defeat penalties) but are not capped at 10: Thorrow holds 12. Burning Pewter
shows as its own part ("Physique 6 + Pewter 5") so the table can follow the sum.

Rulings:

* The target's Burdens count only when named in the declaration: the Narrator decides which
  wounds matter for this action, as docs/rulings.md §1 says "that apply".
* Dice from a Standing do not spend it: a Conflict is one long scene, and the Narrator can
  spend it on the sheet if they judge it so.
* An attack's kind, when not named, follows the rating it rolls: Physique physical, Charm
  social, Wits mental; a Standing or a Power (whose use the bot cannot tell) takes the
  Conflict's kind. Its Resilience, when not named, follows the kind (docs/rulings.md §4.5).
* A busy character's Defense Dice use the Attribute matching the *kind* of the attack
  (physical → Physique, social → Charm, mental → Wits), never the Resilience it aims at, with
  Pewter and defeat penalties as on any roll; a contested action that is not an attack takes
  the Conflict's kind (docs/rulings.md §4.11).
* Armour is the target's best armour Prop unless the action names a value. A physical attack
  uses the attacker's best weapon Prop unless it names another or attacks unarmed (bonus 0); a
  social or mental attack adds a Prop's bonus only when it names that Prop (a forged letter),
  never a blade by default (docs/rulings.md §5.1). The default is settled when the damage lands
  (``attack_weapon``), so a kind changed at the last moment takes the blade out, or puts it in.
"""

from collections.abc import Sequence

from rules.burdens import Severity
from rules.character import (
    Attribute,
    Character,
    Prop,
    Resilience,
    defeat_penalties,
    find_burden,
    find_stat,
)
from rules.character import limits as lim
from rules.character.burden_track import FOR_A_ROLL
from rules.character.lookup import one_of, pick, same_name
from rules.character.stats import rating_parts
from rules.conflict.atium import atium_parts
from rules.conflict.commands import Defend
from rules.conflict.specs import (
    ATTRIBUTE_KIND,
    DEFENCE_ATTRIBUTE,
    LABEL_MAX,
    ActionKind,
    ActionSpec,
    ConflictType,
    DiceSpec,
)
from rules.conflict.state import Conflict, Participant
from rules.conflict.taps import tap_parts
from rules.conflict.work import Work, check_count, clean_text
from rules.errors import RulesError
from rules.naming import name_key
from rules.outcome import check_difficulty
from rules.pool import MAX_BURDENS, Pool, build_pool
from rules.powers.feruchemy import TapEffect
from rules.powers.mental import (
    EMOTIONAL_DEFENCE,
    EMOTIONAL_RESILIENCE,
    emotion_attack_parts,
    emotional_metal,
    flared_emotion,
    shield_parts,
)
from rules.powers.metal_effects import pewter_eased_dice
from rules.powers.pushes import Deflection, held_contest_rating, push_bonus, pusher
from rules.powers.rolls import sheet_parts
from rules.words import is_group, says

WEAPON_MAX = lim.WEAPON_MAX
ARMOUR_MAX = lim.ARMOUR_MAX


def _no_extras(action: ActionSpec) -> None:
    """Full defence and no-roll actions aim at nobody and roll nothing."""
    what = "Full defence" if action.kind is ActionKind.FULL_DEFENCE else "An action without a roll"
    for field, value in (
        ("target", action.target),
        ("Resilience", action.resilience),
        ("kind of attack", action.attack_kind),
        ("Difficulty", action.difficulty),
        ("weapon", action.weapon if action.weapon is not None else action.weapon_bonus),
        ("armour", action.armour),
        ("pushed object", action.push),
        ("metal projectile", True if action.metal else None),
        ("held object", True if action.held else None),
        ("metal in a body", True if action.inside else None),
        ("anchoring", True if action.anchored else None),
    ):
        if value is not None:
            raise RulesError(f"{what} takes no {field}; leave it out.")


def check_target(conflict: Conflict, actor: Participant, target_id: int) -> Participant:
    target = conflict.find(target_id)
    if target is None:
        raise RulesError(
            "The target is not taking part in this Conflict; pick one who is (the board lists them)."
        )
    if target.id == actor.id:
        raise RulesError(f"{actor.name} cannot target themselves; choose another target.")
    if target.defeated:
        raise RulesError(f"{target.does('is')} already defeated; choose another target.")
    return target


def check_action(
    conflict: Conflict,
    work: Work,
    actor: Participant,
    action: ActionSpec,
    dice: DiceSpec | None,
    *,
    with_dice: bool = True,
) -> ActionSpec:
    """The action as the rules accept it, with an attack's kind and Resilience filled in
    (docs/rulings.md §4.5).

    ``with_dice`` False is for a Beat's extra action, whose dice are simply what is left; with
    no rating to go by, its kind defaults to the Conflict's.
    """
    label = clean_text(action.label, "The action's description", LABEL_MAX)
    if action.kind is ActionKind.NO_ROLL and dice is not None:
        raise RulesError("An action without a roll produces no dice; leave the dice out.")
    if with_dice and action.kind is not ActionKind.NO_ROLL and dice is None:
        raise RulesError(f"Say which rating the {action.kind.label.lower()} uses (for example Physique).")
    if not action.kind.rolls:
        _no_extras(action)
        return action.model_copy(update={"label": label})
    if action.kind is ActionKind.ATTACK and action.target is None:
        raise RulesError("An attack needs a target: name one with target.")
    if action.target is not None:
        check_target(conflict, actor, action.target)
    resilience, attack_kind = action.resilience, action.attack_kind
    emotion: str | None = None
    if action.kind is ActionKind.ATTACK:
        if action.weapon is not None and action.weapon_bonus is not None:
            raise RulesError("Name the weapon Prop or give its bonus, not both.")
        if action.weapon_bonus is not None:
            check_count("A weapon's bonus", action.weapon_bonus, 0, WEAPON_MAX)
        if action.armour is not None:
            check_count("Armour", action.armour, 0, ARMOUR_MAX)
        weapon_bonus(work.sheet(actor), action)
        if action.held or action.inside:
            raise RulesError(
                "Wresting a held object disarms or knocks down; it deals no damage: declare it as an action."
            )
        if action.push is not None:
            _check_push(work.sheet(actor), action)
            attack_kind = attack_kind or ConflictType.PHYSICAL
        if action.anchored and action.push is None:
            raise RulesError(
                "Only a push or pull braces on anchors: name the object pushed, or leave anchored out."
            )
        emotion = flared_emotion(work.sheet(actor), dice.stat) if dice is not None else action.emotion
        if emotion is not None:
            attack_kind, resilience = _emotional(emotion, attack_kind, resilience)
        attack_kind = attack_kind or default_kind(conflict, work, actor, dice)
        resilience = resilience or attack_kind.resilience
    else:
        if resilience is not None or action.weapon is not None or action.weapon_bonus is not None:
            raise RulesError("Only an attack aims at a Resilience or uses a weapon; declare an attack.")
        if action.push is not None or action.metal:
            raise RulesError("Only an attack pushes an object or flies metal at someone; declare an attack.")
        check_held(work.sheet(actor), action)
        if attack_kind is not None:
            raise RulesError(
                "Only an attack is physical, social or mental; any other action takes the Conflict's kind."
            )
        if action.armour is not None:
            raise RulesError("Armour only matters against an attack.")
    if action.difficulty is not None:
        check_difficulty(action.difficulty)
    stirs = action.stirs if dice is None else _stirs(work.sheet(actor), action.kind, dice.stat)
    update = {"label": label, "resilience": resilience, "attack_kind": attack_kind, "emotion": emotion}
    update["stirs"] = stirs
    return action.model_copy(update=update)


def _stirs(sheet: Character, kind: ActionKind, stat: str) -> str | None:
    """Zinc or Brass when a rolled action rolls the actor's own metal unflared: a rioting or
    soothing (§9.3); flared, it is an attack instead."""
    if kind is not ActionKind.ACTION or flared_emotion(sheet, stat) is not None:
        return None
    return emotional_metal(sheet, stat)


def _emotional(
    metal: str, kind: ConflictType | None, resilience: Resilience | None
) -> tuple[ConflictType, Resilience]:
    """Flared Zinc or Brass is a mental attack on Willpower (docs/rulings.md §9.3): named
    otherwise, it is refused."""
    if kind not in (None, ConflictType.MENTAL) or resilience not in (None, EMOTIONAL_RESILIENCE):
        raise RulesError(
            f"Flared {metal} is a mental attack on Willpower; leave the kind and Resilience out."
        )
    return ConflictType.MENTAL, EMOTIONAL_RESILIENCE


def default_kind(conflict: Conflict, work: Work, actor: Participant, dice: DiceSpec | None) -> ConflictType:
    """An attack's kind when nobody named it (docs/rulings.md §4.5): an Attribute's own kind,
    else the Conflict's (a Standing, a Power whose use the bot cannot tell, or no rating)."""
    if dice is None:
        return conflict.type
    attribute = find_stat(work.sheet(actor), dice.stat).attribute
    return ATTRIBUTE_KIND[attribute] if attribute is not None else conflict.type


def kind_of(conflict: Conflict, action: ActionSpec) -> ConflictType:
    """How an action lands: an attack's own kind, else the Conflict's (docs/rulings.md §4.5).

    Every attack the engine accepted has its kind filled in; the Conflict's kind is the
    fallback for other actions.
    """
    if action.kind is ActionKind.ATTACK and action.attack_kind is not None:
        return action.attack_kind
    return conflict.type


def _rating(work: Work, participant: Participant, stat: str) -> tuple[int, str, list[tuple[str, int]]]:
    """The rating, its label, and what Powers (Pewter while it burns, docs/rulings.md §9) and a
    defeat add to a roll on ``stat``."""
    sheet = work.sheet(participant)
    burning = participant.burning_pewter
    found = rating_parts(sheet, stat, burning)
    return found.base, found.label, [*found.parts, *defeat_penalties(sheet, stat, burning)]


def _adjusted_pool(
    rating: int,
    label: str,
    modifiers: list[tuple[str, int]],
    adjustments: DiceSpec | Defend,
    burdens: Sequence[Severity] = (),
) -> Pool:
    """A pool from a rating and the table's adjustments (docs/rulings.md §1): a declaration's and a
    busy defender's reaction carry the same Traits, Tool and Circumstances."""
    return build_pool(
        rating,
        rating_label=label,
        traits_for=adjustments.traits_for,
        traits_against=adjustments.traits_against,
        burdens=burdens,
        tool=adjustments.tool,
        circumstances=adjustments.circumstances,
        modifiers=modifiers,
    )


def figure_pool(
    conflict: Conflict,
    work: Work,
    actor: Participant,
    action: ActionSpec,
    dice: DiceSpec,
    tapped: TapEffect | None = None,
) -> Pool:
    """Action (or full-defence) dice for a declaration, uncapped (docs/rulings.md §4), with
    Atium's dice while it burns, what its task and the sheet's Powers add as on ``/roll`` (a tap
    names the task when the dice name none) and a tap's dice for its effect (§9.3, §9.4, §9.10)."""
    rating, label, modifiers = _rating(work, actor, dice.stat)
    modifiers += atium_parts(conflict, work, actor, action)
    sheet = work.sheet(actor)
    task = dice.task or (tapped.task if tapped is not None else None)
    modifiers += sheet_parts(sheet, find_stat(sheet, dice.stat), task, action=True, label=action.label)
    if action.target is not None and (metal := emotional_metal(sheet, dice.stat)) is not None:
        target = conflict.participant(action.target)
        if action.emotion is not None:
            modifiers += emotion_attack_parts(sheet, action.emotion, target.size)
        if work.open_sheet(target):  # a hidden sheet's Copper or Stability is the Narrator's (§7.1)
            modifiers += shield_parts(work.sheet(target), metal)
    severities = []
    if dice.burdens:
        if len(dice.burdens) > MAX_BURDENS:
            raise RulesError(f"At most {MAX_BURDENS} Burdens can apply to one roll; name fewer.")
        if action.target is None:
            raise RulesError("Only a target's Burdens can add dice; this action has no target.")
        target_sheet = work.sheet(conflict.participant(action.target))
        burdens = [find_burden(target_sheet, name, FOR_A_ROLL) for name in dice.burdens]
        if len({name_key(burden.name) for burden in burdens}) != len(burdens):
            raise RulesError("Each Burden counts once; a name is listed twice, so list it once.")
        severities = [burden.severity for burden in burdens]
        modifiers += [eased for b in burdens if (eased := pewter_eased_dice(target_sheet, b)) is not None]
    plain = _adjusted_pool(rating, label, modifiers, dice, severities)
    tapping = tap_parts(tapped, plain.total)
    return _adjusted_pool(rating, label, [*modifiers, *tapping], dice, severities) if tapping else plain


def grant_pool(
    conflict: Conflict,
    work: Work,
    target: Participant,
    action: ActionSpec,
    reaction: Defend,
    deflecting: Deflection | None = None,
) -> Pool:
    """Defense Dice for someone attacked while busy (docs/rulings.md §4.11):
    the kind of the attack picks the Attribute, whatever Resilience it aims at; a deflection
    rolls the metal instead (§9.3)."""
    if deflecting is not None:
        return _adjusted_pool(deflecting.rating, deflecting.metal, [], reaction)
    if action.held:  # a held object: Physique, or the holder's Steel or Iron (§9.3)
        held_label, held_rating = held_contest_rating(work.sheet(target))
        if held_label != "Physique":
            return _adjusted_pool(held_rating, held_label, [], reaction)
    if action.emotion is not None:  # a flared soothing or rioting: Spirit resists it (§9.3)
        rating, label, modifiers = _rating(work, target, EMOTIONAL_DEFENCE.value)
        return _adjusted_pool(rating, label, modifiers, reaction)
    attribute = Attribute.PHYSIQUE if action.held else DEFENCE_ATTRIBUTE[kind_of(conflict, action)]
    rating, label, modifiers = _rating(work, target, attribute.value)
    return _adjusted_pool(rating, label, modifiers, reaction)


def _prop(sheet: Character, name: str) -> Prop:
    """The Prop a typed name picks (``rules.naming.find_named``).

    A sheet may carry two Props of one name (two daggers); naming it picks the first, as the
    sheet cannot tell them apart either.
    """
    found = pick(name, sheet.props, lambda prop: prop.name)
    has = says(sheet.name, "has", is_group(sheet.size))
    if len(found) == 1 or (found and same_name(name, found[0].name)):
        return found[0]
    if found:
        options = one_of([prop.name for prop in found])
        raise RulesError(f"{has} more than one Prop matching {lim.quoted(name)}; say {options}.")
    raise RulesError(f"{has} no Prop called {lim.quoted(name)}.")


def check_held(sheet: Character, action: ActionSpec) -> None:
    """A held or worn object (or metal in the body) is wrested by a Steel or Iron burner only,
    from a target, and may be braced on anchors (docs/rulings.md §9.3)."""
    if action.anchored and not action.held:
        raise RulesError("Only a push or pull braces on anchors: declare one, or leave anchored out.")
    if action.inside and not action.held:
        raise RulesError(
            "Metal in a body is pushed or pulled like a held object: add held, or leave inside out."
        )
    if not action.held:
        return
    if action.target is None:
        raise RulesError("Wresting a held or worn object needs a target: name who holds it.")
    pusher(sheet)


def _check_push(sheet: Character, action: ActionSpec) -> None:
    """A push is the attack's weapon, by a Steel or Iron burner only (docs/rulings.md §9.3)."""
    if action.weapon is not None or action.weapon_bonus is not None:
        raise RulesError("The pushed object is the attack's weapon: leave weapon out.")
    pusher(sheet)


def weapon_bonus(sheet: Character, action: ActionSpec) -> int:
    """The bonus the attack names: the named Prop's, the number given, or 0 (docs/rulings.md §5)."""
    if action.weapon_bonus is not None:
        return action.weapon_bonus
    if action.weapon is None:
        return 0
    prop = _prop(sheet, action.weapon)
    if prop.weapon is None:
        raise RulesError(f"{prop.name} is not a weapon on {sheet.name}'s sheet: it has no bonus to add.")
    return prop.weapon


def best_weapon(sheet: Character) -> str | None:
    """The weapon an attack uses when none is named: the sheet's best weapon Prop, the first of
    equals (docs/rulings.md §5.1); ``weapon_bonus`` 0 attacks unarmed."""
    weapons = [prop for prop in sheet.props if prop.weapon is not None]
    return max(weapons, key=lambda prop: prop.weapon or 0).name if weapons else None


def attack_weapon(sheet: Character, action: ActionSpec, physical: bool) -> tuple[int, str]:
    """The bonus an attack adds to its damage and the Prop it names ("" for none) (§5.1).

    A Prop the attack names, or a bonus given outright, counts whatever the kind. Unnamed, a
    physical attack takes the attacker's best weapon; a social or mental one takes nothing: a
    sword does not sharpen an insult.
    """
    if action.weapon_bonus is not None:
        return action.weapon_bonus, ""
    if action.push is not None:
        return push_bonus(sheet, action.push), f"pushed {action.push.value} object"
    name = action.weapon if action.weapon is not None else best_weapon(sheet) if physical else None
    if name is None:
        return 0, ""
    prop = _prop(sheet, name)
    return weapon_bonus(sheet, action.model_copy(update={"weapon": name})), prop.name


def armour_of(sheet: Character, action: ActionSpec) -> int:
    """Armour against this attack: the number the action names, else the target's best Prop."""
    if action.armour is not None:
        return action.armour
    return max((prop.armour or 0 for prop in sheet.props), default=0)
