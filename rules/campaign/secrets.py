"""The Narrator's Secrets (docs/rulings.md §10.3): story Secrets that bend the story, rules
Secrets that open an option (a rare metal to learn, say).

A Secret has a title and its words. The title is what may be known to be known: it goes on the
sheet of each Hero told it ("Secrets known"), which anyone may read. The words are read only by
the Narrators and by the players whose Heroes know it (or everyone, once told to the table).
"""

from collections.abc import Collection
from enum import StrEnum
from typing import Self

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from rules.character import limits as lim
from rules.character.checked import validated
from rules.character.names import METALS, PowerType, canonical_metal
from rules.character.purchase_table import Unlock
from rules.character.story import SECRET_TITLE_MAX
from rules.errors import RulesError
from rules.naming import did_you_mean

TEXT_MAX = 1000
SECRETS_MAX = 200
"""Secrets a server keeps."""


class SecretKind(StrEnum):
    STORY = "story"
    RULES = "rules"

    @property
    def label(self) -> str:
        return f"{self.value.capitalize()} Secret"


class Secret(BaseModel):
    """One Secret as the Narrator wrote it; ``unlock_*``: the metal a rules Secret lets a Hero
    who knows it learn (§10.1, "Learn a metal a Secret revealed")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    text: str
    kind: SecretKind = SecretKind.STORY
    unlock_type: PowerType | None = None
    unlock_metal: str | None = None

    @field_validator("title")
    @classmethod
    def _title(cls, value: str) -> str:
        return lim.clean_text(value, "A Secret's title", SECRET_TITLE_MAX, required=True)

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        return lim.clean_text(value, "A Secret's words", TEXT_MAX, required=True, multiline=True)

    @model_validator(mode="after")
    def _unlock(self) -> Self:
        if (self.unlock_type is None) != (self.unlock_metal is None):
            raise lim.problem("A Secret unlocks a metal with its kind of Power: give both, or neither.")
        if self.unlock_type is not None:
            if self.kind is not SecretKind.RULES:
                raise lim.problem("Only a rules Secret unlocks a metal; a story Secret bends the story.")
            if not self.unlock_type.uses_metal:
                raise lim.problem("A Secret unlocks a metal of Allomancy or Feruchemy.")
        return self

    @property
    def unlock(self) -> Unlock | None:
        if self.unlock_type is None or self.unlock_metal is None:
            return None
        return (self.unlock_type, self.unlock_metal)


def make_secret(
    title: str, text: str, kind: SecretKind, metal: str | None = None, power: PowerType | None = None
) -> Secret:
    """A checked Secret from what the Narrator typed: a rules Secret naming a metal unlocks it
    for Allomancy unless ``power`` says Feruchemy."""
    unlock_metal = None
    if metal is not None:
        unlock_metal = canonical_metal(metal)
        if unlock_metal is None:
            raise RulesError(f"'{metal[:40]}' is not a metal.{did_you_mean(metal[:40], METALS)}")
    unlock_type = (power or PowerType.ALLOMANCY) if unlock_metal is not None else None
    if unlock_metal is not None and kind is SecretKind.STORY:
        kind = SecretKind.RULES  # naming what it unlocks makes it a rules Secret
    fields = {"title": title, "text": text, "kind": kind, "unlock_type": unlock_type}
    return validated(Secret, fields | {"unlock_metal": unlock_metal})


def unlock_line(secret: Secret) -> str:
    """What a rules Secret opens, in words ("Unlocks Duralumin (Allomancy)"); empty for none."""
    unlock = secret.unlock
    return f"Unlocks {unlock[1]} ({unlock[0].label})" if unlock is not None else ""


def already_told(told: Collection[int | None], hero_id: int | None) -> bool:
    """Whether a Secret told to ``told`` (Heroes' ids; None: the table) was told to ``hero_id``
    (None: the table) already. A Secret is told to each once (docs/rulings.md §10.3): telling it
    again, by the command typed twice or a second click of the Narrator's Reveal button, would
    add a second card, journal entry and award offer for nothing new. A Hero not told it may
    still be told after the table was, so that it goes on their sheet's Secrets known."""
    return hero_id in told
