"""Dice faces a person typed from dice rolled at the table: one grammar for every command.

``3 3 6 1``, ``3,3,6,1``, ``3;3/6 1`` and ``3361`` (one digit per die, nothing between) all mean
the same four dice. Whether each number is a face of a die (1–6) and whether the count fits the
roll is the rules' call (``rules.roll.read``), so the same numbers are refused with the same words
wherever they are typed.
"""

import re

import discord
from discord import app_commands

from bot.client import Interaction, MistbornClient
from bot.errors import BotError
from bot.text import inert

FACES_MAX_TEXT = 60
SEPARATORS = re.compile(r"[\s,;/]+")
EXAMPLE = "Type the faces as numbers 1 to 6, e.g. `3 3 6 1`"


def parse_faces(text: str) -> tuple[int, ...]:
    """The numbers in ``text``, in order; a lone run of digits is one die per digit."""
    words = [word for word in SEPARATORS.split(text.strip()) if word]
    if not words:
        raise BotError(f"{EXAMPLE}.")
    if len(words) == 1 and len(words[0]) > 1 and words[0].isascii() and words[0].isdigit():
        words = list(words[0])
    faces = []
    for word in words:
        if not (word.isascii() and word.isdigit()):
            raise BotError(f"{EXAMPLE}; '{inert(word[:10])}' is not one.")
        faces.append(int(word))
    return tuple(faces)


class FacesTransformer(app_commands.Transformer[MistbornClient]):
    """A ``faces`` option: text in, the dice as numbers out."""

    @property
    def type(self) -> "discord.AppCommandOptionType":
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return FACES_MAX_TEXT

    async def transform(self, interaction: Interaction, value: str) -> tuple[int, ...]:
        return parse_faces(value)


Faces = app_commands.Transform[tuple[int, ...], FacesTransformer]
