"""The option types the slash commands share, and the words that describe them, said once.

Each is an ``app_commands.Range``: Discord's client enforces its bounds and shows them to the
member typing. A cog imports these rather than declaring its own, so ``/roll``, ``/request``,
``/odds`` and the Conflict's moves cannot drift apart on what a Difficulty or a stat name is.
Two labels, two limits: a roll's title (:data:`RollLabel`) and a Conflict action's description
(:data:`ActionLabel`, the engine's ``LABEL_MAX``).
"""

from discord import app_commands

from rules.conflict.specs import LABEL_MAX

Difficulty = app_commands.Range[int, 1, 5]
"""1 Simple … 5 Nearly Impossible (docs/rulings.md §1)."""
DIFFICULTY = "1 Simple … 5 Nearly Impossible (default 1)"

DiceCount = app_commands.Range[int, 0, 20]
"""Dice rolled without a sheet; above 10 the extra dice become free Nudges."""

StatName = app_commands.Range[str, 1, 40]
"""An Attribute, Standing or Power, read against the sheet (suggested as the member types)."""

Traits = app_commands.Range[int, -10, 10]
"""Net Traits: helping ones count up, hindering ones down."""
TRAITS = "Net Traits: +1 per helping Trait, −1 per hindering one"
TOOL = "A fitting Tool (+1) or a missing/broken one (−1)"

ROLL_LABEL_MAX = 40
RollLabel = app_commands.Range[str, 1, ROLL_LABEL_MAX]
"""What a roll is for, shown as its title."""
ActionLabel = app_commands.Range[str, 1, LABEL_MAX]
"""What a Conflict action does, in a few words (the engine keeps up to ``LABEL_MAX``)."""
