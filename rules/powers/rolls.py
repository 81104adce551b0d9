"""What Powers in play add to a roll from a sheet, each named (docs/rulings.md §9): one place
the roll commands, a request's roll and the Conflict's pools ask.

The rating itself, with Pewter, flaring, spikes and impurity, is ``rules.character.stats.
rating_parts``; this adds what depends on the roll: its ``task`` (senses, strength, …), Atium on
every roll, a held emotion on Charm and Influence, what is being stored, a Savant's Nudges and a
Feruchemical tap. :func:`sheet_parts` is the part a Conflict action shares with ``/roll``
(docs/rulings.md §9.10): the task's dice and the emotion's, figured by the same rule; Atium and a
tap the Conflict figures itself (``rules.conflict.atium``, ``rules.conflict.taps``).
"""

from pydantic import BaseModel, ConfigDict

from rules.character import Attribute, Character, PowerType, Standing
from rules.character.metals import Task
from rules.character.stats import StatRef
from rules.character.stunts import working
from rules.pool import MAX_DICE, MAX_MODIFIER, Boon
from rules.powers.feruchemy import TapEffect, storing_action_dice, storing_dice
from rules.powers.hemalurgy import spike_dice
from rules.powers.metal_effects import (
    EMOTION_METALS,
    atium_dice,
    focused_emotion,
    hold_dice,
    savant_nudges,
    savant_sense_dice,
    tin_sense_dice,
)

Part = tuple[str, int]
STORING_STEEL = "Storing Steel"


class PowerRoll(BaseModel):
    """Dice Powers add to or take from a roll, what they grant a success, and lines for the
    table (tapped dice lost past 10)."""

    model_config = ConfigDict(frozen=True)

    modifiers: tuple[Part, ...] = ()
    boons: tuple[Boon, ...] = ()
    notes: tuple[str, ...] = ()


def split(label: str, dice: int) -> list[Part]:
    """One named part, in pieces of at most 10 dice (a pool's largest modifier)."""
    parts: list[Part] = []
    left = dice
    while left:
        piece = max(-MAX_MODIFIER, min(MAX_MODIFIER, left))
        parts.append((label, piece))
        left -= piece
    return parts


def _task_dice(character: Character, ref: StatRef, task: Task | None, *, action: bool) -> list[Part]:
    parts: list[Part] = []
    if task is Task.SENSES:
        if ref.attribute is Attribute.WITS and (tin := tin_sense_dice(character)):
            parts.append(("Tin", tin))
        if working(character, "Focused Sense"):
            parts.append(("Focused Sense", 1))
        if savant_sense_dice(character):
            parts.append(("Tin Savant, not burning", -1))
    if task is Task.STRENGTH and (strength := working(character, "Prodigious Strength")):
        parts.append(("Prodigious Strength", strength))
    stored = storing_dice(character, task)
    if action:  # storing Steel's dice are the Action Dice it costs every action (§9.4), once
        stored = [part for part in stored if part[0] != STORING_STEEL]
        if steel := storing_action_dice(character):
            stored.append((STORING_STEEL, -steel))
    return [*parts, *spike_dice(character, task), *stored]


def _emotion_dice(character: Character, ref: StatRef) -> list[Part]:
    stat = ref.attribute or ref.standing
    if stat not in (Attribute.CHARM, Standing.INFLUENCE):
        return []
    parts: list[Part] = []
    if (held := hold_dice(character, stat.label)) is not None:
        parts.append(held)
    lit = any(m in character.allomancy.burning for m in EMOTION_METALS)
    if stat is Attribute.CHARM and lit and working(character, "Tug/Push Emotion"):
        parts.append(("Tug/Push Emotion", 1))
    return parts


def _soothing_dice(character: Character, ref: StatRef, label: str) -> list[Part]:
    power = ref.power
    if power is None or power.type is not PowerType.ALLOMANCY:
        return []
    return focused_emotion(character, power.name, label)


def sheet_parts(
    character: Character, ref: StatRef, task: Task | None, *, action: bool = False, label: str = ""
) -> list[Part]:
    """What the sheet's Powers add to a roll of ``ref`` about ``task``, each named: Tin, Focused
    Sense, Prodigious Strength, spikes and Awareness, a Savant not burning, storing, a held
    emotion, Tug/Push Emotion, and Focused Emotion on a roll of Zinc or Brass whose ``label``
    names its emotion (§9.3–§9.7). ``action``: a Conflict action's dice (§9.10), where storing
    Steel costs its rate on every action, not on speed rolls, so it counts once."""
    return (
        _task_dice(character, ref, task, action=action)
        + _emotion_dice(character, ref)
        + _soothing_dice(character, ref, label)
    )


def savant_boon(character: Character, ref: StatRef) -> tuple[Boon, ...]:
    """A Savant's free Nudges on a roll of their metal (§9.3), for ``/roll`` and a Conflict
    action alike (§9.10)."""
    power = ref.power
    if power is None or power.type is not PowerType.ALLOMANCY:
        return ()
    nudges = savant_nudges(character, power.name)
    return (Boon(label=f"{power.name} Savant", nudges=nudges),) if nudges else ()


def tapped_dice(tap: TapEffect, before: int) -> tuple[int, list[str]]:
    """The dice a tap for its effect adds to a pool of ``before`` dice, and a line for those lost:
    dice past 10 are lost, not Nudges (§9.4); a Conflict's Action Dice take the same rule."""
    kept = min(tap.dice, max(0, MAX_DICE - before))
    if kept == tap.dice:
        return kept, []
    return kept, [f"{tap.dice - kept} tapped dice past 10 are lost: tap for Nudges or Outcome instead."]


def power_roll(
    character: Character,
    ref: StatRef,
    task: Task | None = None,
    tap: TapEffect | None = None,
    *,
    before: int = 0,
    electrum: int = 0,
    label: str = "",
) -> PowerRoll:
    """What Powers do to a roll of ``ref`` about ``task`` (a tap names its own task when the roll
    names none). ``before`` is the pool's sum without the tap: tapped dice past 10 are lost, not
    Nudges (§9.4). ``electrum``: an opponent's Electrum against Atium. ``label``: the roll's
    words, which may name a Focused Emotion (§9.7)."""
    if tap is not None and task is None:
        task = tap.task
    parts = sheet_parts(character, ref, task, label=label)
    parts += split("Atium", atium_dice(character, electrum))
    boons: list[Boon] = list(savant_boon(character, ref))
    notes: list[str] = []
    if tap is not None:
        label = f"{tap.metal} tapped"
        if tap.dice and tap.task is task:
            kept, lost = tapped_dice(tap, before + sum(d for _, d in parts))
            parts += split(label, kept)
            notes += lost
        if tap.nudges or tap.outcome:
            boons.append(Boon(label=label, nudges=tap.nudges, outcome=tap.outcome))
        if tap.note:
            notes.append(f"{label}: {tap.note}.")
    return PowerRoll(modifiers=tuple(parts), boons=tuple(boons), notes=tuple(notes))
