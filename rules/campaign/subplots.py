"""A character's Destiny and Tragedy as subplots (docs/rulings.md §10.2): moving a stage on,
resolving one, the true Destiny's text, and the dice an engaged subplot gives a roll.

The Narrator moves a subplot on; the table hears it, the journal keeps it, and an award is
offered. Extras have neither subplot; a Hero's and a Villain's stages sit on the sheet.
"""

from rules.character import Character, CharacterKind, revise_character
from rules.character.checked import validated
from rules.character.story import Stage, Subplot, TrueDestiny
from rules.errors import RulesError
from rules.pool import Contribution, Pool, Source


def true_destiny(text: str) -> str:
    """``text`` checked as a true Destiny (a Destiny's length and characters)."""
    return validated(TrueDestiny, {"text": text}).text


def set_stage(character: Character, subplot: Subplot, stage: Stage) -> Character:
    """``character`` with ``subplot`` at ``stage``; refused for an Extra (no subplots) and for a
    stage it already has."""
    if character.kind is CharacterKind.EXTRA:
        raise RulesError("Extras have no Destiny or Tragedy.")
    if character.story.stage(subplot) is stage:
        raise RulesError(f"{character.name}'s {subplot.label} is already at {subplot.stage_label(stage)}.")
    return revise_character(character, story=character.story.with_stage(subplot, stage))


def stage_line(character: Character, subplot: Subplot) -> str:
    """The journal's and the table's line for a stage just reached."""
    stage = character.story.stage(subplot)
    if stage is Stage.RESOLVED:
        verb = "is fulfilled" if subplot is Subplot.DESTINY else "is overcome"
        return f"{character.name}'s {subplot.label} {verb}."
    return f"{character.name}'s {subplot.label} reaches its {subplot.stage_label(stage)}."


def engaged_dice(character: Character, subplot: Subplot) -> int:
    """What ``subplot`` at its stage is suggested to give a roll it bears on (our ruling, §10.2)."""
    if character.kind is CharacterKind.EXTRA:
        return 0
    if subplot is Subplot.DESTINY and not character.destiny:
        return 0
    if subplot is Subplot.TRAGEDY and not character.tragedy:
        return 0
    return character.story.stage(subplot).worth


def with_subplot(pool: Pool, character: Character, subplot: Subplot) -> Pool:
    """``pool`` with ``character``'s engaged subplot added as a contribution of its own ("Vin's
    Destiny (Middle)"), a Trait's help for the roller or a Burden's for those against them."""
    dice = engaged_dice(character, subplot)
    if not dice:
        return pool
    stage = subplot.stage_label(character.story.stage(subplot))
    source = Source.TRAIT if subplot is Subplot.DESTINY else Source.BURDEN
    part = Contribution(source=source, label=f"{character.name}'s {subplot.label} ({stage})", dice=dice)
    return Pool(contributions=(*pool.contributions, part), total=pool.total + dice)
