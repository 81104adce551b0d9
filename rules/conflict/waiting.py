"""Whose move it is: the :class:`Waiting` event every transition that leaves the Conflict running
ends with, and the :class:`Step` it waits for, so the bot can always show the next step.

``rules.conflict.order.waiting`` works it out; ``rules.conflict.events`` holds the other events.
"""

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel

from rules.conflict.specs import FROZEN
from rules.conflict.state import Phase


class Step(StrEnum):
    """What the Conflict waits for next."""

    DECLARE = "declare"
    ACT = "act"
    DEFEND = "defend"
    NUDGES = "nudges"
    ROLL = "roll"
    NEXT_ROUND = "next_round"
    BEGIN = "begin"
    JOIN = "join"
    NOTHING = "nothing"


class Waiting(BaseModel):
    """Whose move it is: ``participants`` may send ``step`` (several when acting at once).

    ``order`` is the resolve order (ties share a tuple) while resolving; ``declaring`` the
    declaration order of the fighters while declaring.
    """

    model_config = FROZEN
    type: Literal["waiting"] = "waiting"
    phase: Phase
    round: int
    step: Step
    participants: tuple[int, ...]
    order: tuple[tuple[int, ...], ...]
    declaring: tuple[int, ...] = ()
    action_id: int | None = None
