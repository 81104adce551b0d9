"""What every kind of Conflict move is: a small value holding what was typed or clicked, which
builds its engine command from the state the move just loaded (``command``).

The values live in ``declare_build.py``, ``mover_build.py`` and ``answer_build.py`` (the player's
moves: the declaration, the mover's other moves, the answers to an attack), ``turn_build.py`` (a
turn's buttons) and ``narrator_moves.py`` (the Narrator's running of the Conflict). None holds the
interaction or the flow: whatever a move needs from outside (the scene's Circumstances, how long a
defence prompt has waited) is read before it is made and kept in it as data, so the move runs the
same in the optimistic attempt and in the careful redo (``bot.cogs.conflict.service``).
"""

from collections.abc import Mapping
from typing import Protocol

from bot.access import Caller
from rules.character import Character
from rules.conflict import Command, Conflict

Sheets = Mapping[int, Character]


class Move(Protocol):
    """One kind of move, as a value."""

    def command(self, state: Conflict, sheets: Sheets, caller: Caller) -> Command:
        """The engine command for ``state``, as ``caller`` may make it; raise to refuse."""
        ...
