"""Closed choices: an option whose value is one of a fixed set (a Resilience, a Burden's severity).

Discord's client offers only the listed choices, but a raw payload can carry anything, so the
transformer checks the value again and names the choices when it is not one of them. The
choice shown is the member's ``label`` ("Willpower"); the value sent is its stored form.
"""

from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any, Generic, Literal, TypeVar

import discord
from discord import app_commands

from bot.client import Interaction, MistbornClient
from bot.errors import BotError
from bot.render.common import plain
from rules.burdens import Severity
from rules.character import Attribute, CharacterKind, Emphasis, PowerType, Resilience, Standing
from rules.character.metals import Task
from rules.character.opposition import TEMPLATES, Opposition
from rules.character.story import Subplot
from rules.conflict import ActionKind, ConflictType, Side
from rules.naming import did_you_mean
from rules.powers.pushes import ObjectSize

E = TypeVar("E", bound=Enum)

Net = Literal[-1, 0, 1]
"""Tools and Circumstances: at most one die either way (docs/rulings.md §1)."""


def label_of(member: Enum) -> str:
    return str(getattr(member, "label", member.value))


def choices_of(members: Iterable[Enum]) -> list[app_commands.Choice[str]]:
    """Discord choices showing each member's label and sending its value."""
    return [app_commands.Choice(name=label_of(m), value=str(m.value)) for m in members]


def refusal(value: object, what: str, labels: Iterable[str]) -> BotError:
    """The one wording for a value that is not among the choices."""
    article = "an" if what[:1].lower() in "aeiou" else "a"
    shown = plain(str(value)[:40])
    listed = list(labels)
    hint = did_you_mean(str(value)[:40], listed)
    return BotError(f"'{shown}' is not {article} {what}; choose one of {', '.join(listed)}.{hint}")


class WordChoice(app_commands.Transformer[MistbornClient]):
    """One of a fixed set of words, each standing for a value (``{"full-defence": ...}``)."""

    def __init__(
        self, options: Mapping[str, Any], what: str, labels: Mapping[str, str] | None = None
    ) -> None:
        self.options = dict(options)
        self.what = what
        self.labels = {
            word: (labels or {}).get(word, word.replace("-", " ").capitalize()) for word in options
        }

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]]:
        return [app_commands.Choice(name=self.labels[word], value=word) for word in self.options]

    async def transform(self, interaction: Interaction, value: str) -> Any:
        return self.pick(value)

    def pick(self, value: str) -> Any:
        key = str(value).strip().lower()
        if key in self.options:
            return self.options[key]
        raise refusal(value, self.what, self.labels.values())


class EnumChoice(WordChoice, Generic[E]):
    """One member of ``enum`` (or of ``members``, a subset), shown by its label."""

    def __init__(self, enum: type[E], what: str, members: Iterable[E] | None = None) -> None:
        chosen = tuple(members) if members is not None else tuple(enum)
        super().__init__({str(m.value): m for m in chosen}, what, {str(m.value): label_of(m) for m in chosen})

    async def transform(self, interaction: Interaction, value: str) -> E:
        member: E = self.pick(value)
        return member


AttributeChoice = app_commands.Transform[Attribute, EnumChoice(Attribute, "Attribute")]
StandingChoice = app_commands.Transform[Standing, EnumChoice(Standing, "Standing")]
ResilienceChoice = app_commands.Transform[Resilience, EnumChoice(Resilience, "Resilience")]
SeverityChoice = app_commands.Transform[Severity, EnumChoice(Severity, "Burden severity")]
KindChoice = app_commands.Transform[CharacterKind, EnumChoice(CharacterKind, "kind of character")]
SubplotChoice = app_commands.Transform[Subplot, EnumChoice(Subplot, "subplot")]
PowerTypeChoice = app_commands.Transform[PowerType, EnumChoice(PowerType, "type of Power")]
EmphasisChoice = app_commands.Transform[Emphasis, EnumChoice(Emphasis, "strong, average or weak label")]
OppositionChoice = app_commands.Transform[
    Opposition,
    WordChoice(
        {t.value: t for t in Opposition},
        "template",
        {t.value: f"{TEMPLATES[t].label} ({TEMPLATES[t].kind.label})" for t in Opposition},
    ),
]
"""A ready Villain or Extra (docs/rulings.md §6.11)."""
DefeatBurdenChoice = app_commands.Transform[
    Severity | None,
    WordChoice({"none": None, "grave": Severity.GRAVE, "mortal": Severity.MORTAL}, "defeat Burden"),
]
"""What a defeat leaves: nothing, a Grave or a Mortal Burden (docs/rulings.md §5)."""
SideChoice = app_commands.Transform[Side, EnumChoice(Side, "side")]
TaskChoice = app_commands.Transform[Task, EnumChoice(Task, "task")]
"""What a roll or a Conflict action leans on, for the Powers that help it (docs/rulings.md §9.10)."""
TASK = "What the roll leans on, for the Powers that help it (senses, strength, …)"
ConflictTypeChoice = app_commands.Transform[ConflictType, EnumChoice(ConflictType, "kind of Conflict")]
PushChoice = app_commands.Transform[
    ObjectSize,
    WordChoice(
        {size.value: size for size in ObjectSize},
        "object pushed or pulled",
        {size.value: f"{size.label}: {size.example} (+{size.bonus})" for size in ObjectSize},
    ),
]
"""A loose metal object pushed or pulled as an attack, by its size (docs/rulings.md §9.3)."""
AttackKindChoice = app_commands.Transform[ConflictType, EnumChoice(ConflictType, "kind of attack")]
"""Physical, social or mental: how an attack lands (docs/rulings.md §4.5)."""
ActionChoice = app_commands.Transform[
    ActionKind,
    WordChoice(
        {
            "attack": ActionKind.ATTACK,
            "action": ActionKind.ACTION,
            "full-defence": ActionKind.FULL_DEFENCE,
            "no-roll": ActionKind.NO_ROLL,
        },
        "action",
    ),
]
RolledActionChoice = app_commands.Transform[
    ActionKind, WordChoice({"attack": ActionKind.ATTACK, "action": ActionKind.ACTION}, "rolled action")
]
