"""Hemalurgy and kandra in play: a spike's rating, driving and removing one, and the dice spikes
and Blessings give a roll (docs/rulings.md §9.5, §9.6). Putting a spike or a Blessing on a sheet
is ``rules.character.power_gifts``, which purchases with Advancements share (§10.1).
"""

from rules.character import Character, Resilience, resilience_current
from rules.character.hemalurgy import SPIKE_RATING_MIN, Blessing, Spike
from rules.character.limits import DAMAGE_MAX
from rules.character.metals import Task
from rules.character.power_gifts import left_by_spikes, set_blessing, with_spike, without_spike
from rules.errors import RulesError
from rules.powers.ledger import Changed
from rules.words import count_of

__all__ = ["set_blessing"]  # the Narrator's /power blessing calls it from here

REMOVAL_HEALTH = 5
"""Health a spike's removal costs; at 0 it kills (§9.5)."""
REMOVAL_PHYSIQUE = 5
REMOVAL_OUTCOME = 5
IRON_SPIKE_DICE = 2
TIN_SPIKE_DICE = 2
AWARENESS_DICE = 2


def spike_rating(victim_rating: int, weeks_outside: int = 0) -> int:
    """A spike holds the victim's rating less 1, and loses 1 a week outside a body; never below 2
    (§9.5)."""
    if not 1 <= victim_rating <= 10 or weeks_outside < 0:
        raise RulesError("A victim's rating is 1 to 10, and a spike's weeks outside a body 0 or more.")
    return max(SPIKE_RATING_MIN, victim_rating - 1 - weeks_outside)


def figured_rating(rating: int | None, victim: int | None, weeks: int = 0) -> tuple[int, str]:
    """The rating a driven spike holds, and how it was figured for the reply: from the victim's
    rating and the weeks the spike spent outside a body (``spike_rating``), unless the Narrator
    types the rating outright, which overrides it (§9.5)."""
    if victim is None:
        if rating is None:
            raise RulesError("Give the victim's rating (victim:), or the spike's own (rating:).")
        return rating, f"rating {rating}, as the Narrator gave it"
    figured = spike_rating(victim, weeks)
    steps = [f"the victim's {victim} less 1"]
    if weeks:
        steps.append(f"less {count_of(weeks, 'week')} outside a body")
    how = ", ".join(steps) + (f", at least {SPIKE_RATING_MIN}" if figured > victim - 1 - weeks else "")
    if rating is not None and rating != figured:
        return rating, f"rating {rating}, as the Narrator gave it ({how} would make {figured})"
    return figured, f"rating {figured}: {how}"


def drive_spike(character: Character, spike: Spike) -> Changed:
    """Drive a spike: its price comes off Charm and Spirit at once (``power_stats``); at 0 Charm,
    Wits or Spirit the character is Ruin's (§9.5)."""
    changed = with_spike(character, spike)
    return Changed(character=changed, notes=tuple(ruin_notes(changed)))


def ruin_notes(character: Character) -> list[str]:
    """Whether spikes have left Charm, Wits or Spirit at 0: then the character is Ruin's, to be
    played by the Narrator (§9.5). The ratings as spikes leave them, not as spent: a Standing
    spent on rolls comes back, a spike's price does not."""
    found = [label for label, value in left_by_spikes(character).items() if value <= 0]
    return (
        [f"{character.name} has no {', '.join(found)} left: Ruin holds them (the Narrator plays them)."]
        if found
        else []
    )


def remove_spike(character: Character, index: int) -> Changed:
    """Tear a spike out: 5 Health lost (0 kills), its Power gone (§9.5)."""
    spikes = character.hemalurgy.spikes
    if not 0 <= index < len(spikes):
        raise RulesError(f"{character.name} has {len(spikes)} spikes: choose one of them.")
    changed = without_spike(character, index)
    notes = [f"The {spikes[index].label} is torn out: {REMOVAL_HEALTH} Health lost."]
    if not changed.is_extra:
        damage = changed.damage.with_value(
            Resilience.HEALTH, min(DAMAGE_MAX, changed.damage.health + REMOVAL_HEALTH)
        )
        changed = changed.model_copy(update={"damage": damage})
        if resilience_current(changed, Resilience.HEALTH, False) == 0:
            notes.append(f"{character.name} does not survive it.")
    return Changed(character=changed, notes=tuple(notes))


def spike_dice(character: Character, task: Task | None) -> list[tuple[str, int]]:
    """Dice spikes and Blessings give a roll of ``task`` (§9.5, §9.6): Iron spikes on strength (+2,
    and +1 per further spike), a Tin spike and Awareness on the senses."""
    parts: list[tuple[str, int]] = []
    if task is Task.STRENGTH and (iron := character.hemalurgy.count("Iron")):
        parts.append(("Iron spikes" if iron > 1 else "Iron spike", IRON_SPIKE_DICE + iron - 1))
    if task is Task.SENSES:
        if character.hemalurgy.count("Tin"):
            parts.append(("Tin spike", TIN_SPIKE_DICE))
        if Blessing.AWARENESS in character.hemalurgy.blessings:
            parts.append(("Awareness", AWARENESS_DICE))
    return parts


def awareness_order(character: Character) -> int:
    """Awareness adds 2 to the Wits a kandra declares by (§9.6)."""
    return AWARENESS_DICE if Blessing.AWARENESS in character.hemalurgy.blessings else 0
