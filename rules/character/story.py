"""A character's story on the sheet (docs/rulings.md §10.2, §10.3): where the Destiny and the
Tragedy stand as subplots, and the Secrets the character knows.

What the sheet holds is what its player may read: the Destiny *as believed* (``Character.destiny``)
with its stage, the Tragedy with its stage, and the titles of the Secrets learnt. The *true*
Destiny is the Narrator's alone and is never part of the sheet (``storage.story``), so nothing
that shows or exports a sheet can carry it.
"""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, field_validator

from rules.character import limits as lim
from rules.errors import RulesError
from rules.naming import name_key

SECRET_TITLE_MAX = 60
SECRETS_KNOWN_MAX = 8
"""Secrets listed on one sheet: titles only, so the sheet stays within its text budget."""


class Stage(StrEnum):
    """A subplot's stage: it begins, deepens, comes to its end, then is resolved (fulfilled, for a
    Destiny; overcome, for a Tragedy)."""

    BEGINNING = "beginning"
    MIDDLE = "middle"
    END = "end"
    RESOLVED = "resolved"

    @property
    def worth(self) -> int:
        """The dice the bot suggests for this stage on a roll it bears on; the Narrator gives what they
        choose (our ruling, docs/rulings.md §10.2)."""
        return {Stage.BEGINNING: 1, Stage.MIDDLE: 2, Stage.END: 3, Stage.RESOLVED: 0}[self]


class Subplot(StrEnum):
    DESTINY = "destiny"
    TRAGEDY = "tragedy"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    def stage_label(self, stage: Stage) -> str:
        """ "Middle", or "Fulfilled" / "Overcome" once resolved."""
        if stage is Stage.RESOLVED:
            return "Fulfilled" if self is Subplot.DESTINY else "Overcome"
        return stage.value.capitalize()


class Story(BaseModel):
    """The subplots' stages and the Secrets known."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    destiny: Stage = Stage.BEGINNING
    tragedy: Stage = Stage.BEGINNING
    secrets_known: tuple[str, ...] = ()

    @field_validator("secrets_known")
    @classmethod
    def _secrets(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if len(value) > SECRETS_KNOWN_MAX:
            raise lim.problem(f"A sheet lists at most {SECRETS_KNOWN_MAX} Secrets known.")
        cleaned = tuple(lim.clean_text(t, "A Secret's title", SECRET_TITLE_MAX, required=True) for t in value)
        if len({name_key(t) for t in cleaned}) != len(cleaned):
            raise lim.problem("A Secret is listed twice among the Secrets known.")
        return cleaned

    def stage(self, subplot: Subplot) -> Stage:
        return self.destiny if subplot is Subplot.DESTINY else self.tragedy

    def with_stage(self, subplot: Subplot, stage: Stage) -> "Story":
        return self.model_copy(update={subplot.value: stage})

    @property
    def subplots_untold(self) -> bool:
        """Both subplots at their Beginning: nothing to show beside the texts."""
        return self.destiny is Stage.BEGINNING and self.tragedy is Stage.BEGINNING


class TrueDestiny(BaseModel):
    """The Narrator's true Destiny of a character: a Destiny's text, kept off the sheet."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        return lim.clean_text(value, "The true Destiny", lim.DESTINY_MAX, required=True)


def next_stage(stage: Stage) -> Stage:
    """The stage after ``stage``; a resolved subplot goes no further (the Narrator may begin it
    again once it evolves)."""
    order = list(Stage)
    if stage is Stage.RESOLVED:
        raise RulesError("That subplot is already resolved; set its stage to Beginning when it evolves.")
    return order[order.index(stage) + 1]


def learn(story: Story, title: str) -> Story:
    """``title`` among the Secrets known (once); refused when the list is full."""
    if any(name_key(t) == name_key(title) for t in story.secrets_known):
        return story
    if len(story.secrets_known) >= SECRETS_KNOWN_MAX:
        raise RulesError(
            f"The sheet already lists {SECRETS_KNOWN_MAX} Secrets known; the Narrator removes one first."
        )
    return story.model_copy(update={"secrets_known": (*story.secrets_known, title)})


def forget(story: Story, title: str) -> Story:
    """The Secrets known without ``title`` (the Narrator's correction, or a Secret deleted)."""
    kept = tuple(t for t in story.secrets_known if name_key(t) != name_key(title))
    return story.model_copy(update={"secrets_known": kept})
