"""A Narrator's request for rolls (docs/rulings.md §6.13): what was asked, of whom, and what each
has rolled.

The Narrator calls for a roll ("Koel, roll Charm with Smooth Talker, Difficulty 3") or for a
Contest between two sides; each roller rolls their own pool from their sheet when they are
ready. These models are plain data: storage keeps them, the bot shows and runs them.
"""

from enum import StrEnum

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from rules.contest import Side
from rules.roll import Reading

MAX_ROLLERS = 20
"""Rollers per request: a button each in one message (Discord allows 25; Close takes one)."""


class RequestKind(StrEnum):
    ROLL = "roll"
    CONTEST = "contest"


class RequestSpec(BaseModel):
    """What the Narrator asked for."""

    model_config = ConfigDict(frozen=True)

    stat: str = Field(min_length=1, max_length=40)
    difficulty: int = Field(default=1, ge=1, le=5)
    traits: str = Field(default="", max_length=200)
    """Traits the Narrator suggests, as typed (shown to the players; they choose their own)."""
    circumstances: str = Field(default="", max_length=200)
    """The Narrator's note on the Circumstances, as typed."""
    circumstance_dice: int = Field(default=0, ge=-1, le=1)
    """The Circumstances the acting side's pools carry: the Narrator's, set with the request or
    for the scene when it was asked (docs/rulings.md §1.6); never the players'."""
    secret: bool = False
    """Results go to the Narrators only (the GM channel) and to each roller privately."""
    opposing_stat: str | None = Field(default=None, max_length=40)
    opposing_dice: int | None = Field(default=None, ge=0, le=20)


class NewRoller(BaseModel):
    model_config = ConfigDict(frozen=True)

    side: Side
    character_id: int
    """0 for a bare pool of dice (the opposing side of a Contest rolled by the Narrator)."""
    user_id: int
    """Whom the request pings: a Hero's player, or the Narrator who asked."""
    name: str


class Roller(NewRoller):
    position: int
    reading: Reading | None = None
    rolled_by: int | None = None

    @property
    def rolled(self) -> bool:
        return self.reading is not None


class RollRequest(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    narrator_id: int
    kind: RequestKind
    spec: RequestSpec
    closed: bool
    created_at: AwareDatetime
    message_id: int | None
    """The channel message that shows the request, once Discord has it."""
    rollers: tuple[Roller, ...]

    def side(self, side: Side) -> list[Roller]:
        return [r for r in self.rollers if r.side is side]

    @property
    def complete(self) -> bool:
        return all(r.rolled for r in self.rollers)

    def roller(self, position: int) -> Roller | None:
        return next((r for r in self.rollers if r.position == position), None)
