"""Difficulty and Outcome scales (docs/rulings.md §2).

Outcomes run from -6 to +6. Each step has a name the table says aloud ("That was… Excellent"),
and each Difficulty 1–5 has a name the Narrator can declare.
"""

from rules.errors import RulesError

MIN_DIFFICULTY = 1
MAX_DIFFICULTY = 5
DEFAULT_DIFFICULTY = 1
"""Difficulty when the Narrator declared none."""

MIN_OUTCOME = -6
MAX_OUTCOME = 6

DIFFICULTY_NAMES: dict[int, str] = {
    1: "Simple",
    2: "Challenging",
    3: "Difficult",
    4: "Very Hard",
    5: "Nearly Impossible",
}

OUTCOME_NAMES: dict[int, str] = {
    6: "Godlike",
    5: "Legendary",
    4: "Astounding",
    3: "Amazing",
    2: "Excellent",
    1: "Good",
    0: "Passable",
    -1: "Just shy",
    -2: "Unfortunate",
    -3: "Cringe-worthy",
    -4: "Horrible",
    -5: "Disastrous",
    -6: "Catastrophic",
}


def check_difficulty(difficulty: int) -> int:
    """Return ``difficulty`` if the Narrator could declare it, else explain the scale."""
    if not MIN_DIFFICULTY <= difficulty <= MAX_DIFFICULTY:
        raise RulesError(
            f"Difficulty runs from {MIN_DIFFICULTY} (Simple) to {MAX_DIFFICULTY} (Nearly Impossible); "
            f"{difficulty} is not on the scale."
        )
    return difficulty


def clamp_outcome(outcome: int) -> int:
    """Keep an Outcome on the -6…+6 scale."""
    return max(MIN_OUTCOME, min(MAX_OUTCOME, outcome))


def outcome_name(outcome: int) -> str:
    """The "That was…" word for an Outcome (clamped to the scale first)."""
    return OUTCOME_NAMES[clamp_outcome(outcome)]


def difficulty_name(difficulty: int) -> str:
    return DIFFICULTY_NAMES[check_difficulty(difficulty)]
