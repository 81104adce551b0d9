"""The request's ``DynamicItem``s: each reads its custom id back and hands over to ``rolling``.

Their errors are answered by the door every click comes through (``bot.door``), privately, as
every refusal is.
"""

import re
from typing import Any

import discord

from bot.clicks import picked
from bot.client import Interaction
from bot.cogs.requests import rolling
from bot.cogs.requests.views import CHOICE, Choice, chose


class RollButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mab:rq:(?P<request>\d+):(?P<pos>\d+)"
):
    """A roller's button under the request: opens their private pool builder."""

    def __init__(self, request: int, position: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"mab:rq:{request}:{position}"))
        self.request, self.position = request, position

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "RollButton":
        return cls(int(match["request"]), int(match["pos"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await rolling.open_builder(interaction, self.request, self.position, Choice())


class BuilderSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"mab:rqs:(?P<request>\d+):(?P<pos>\d+):(?P<part>[toc]):" + CHOICE,
):
    """A choice in the pool builder: the builder is shown again with the new pool."""

    def __init__(self, request: int, position: int, part: str, choice: Choice) -> None:
        custom_id = f"mab:rqs:{request}:{position}:{part}:{choice.text()}"
        super().__init__(discord.ui.Select(custom_id=custom_id))
        self.request, self.position, self.part, self.choice = request, position, part, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "BuilderSelect":
        choice = Choice.parse(match["mask"], match["tool"], match["circ"])
        return cls(int(match["request"]), int(match["pos"]), match["part"], choice)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        choice = chose(self.choice, self.part, picked(interaction))
        await rolling.open_builder(interaction, self.request, self.position, choice)


class GoButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mab:rqg:(?P<request>\d+):(?P<pos>\d+):" + CHOICE,
):
    """Roll the pool as built."""

    def __init__(self, request: int, position: int, choice: Choice) -> None:
        super().__init__(discord.ui.Button(custom_id=f"mab:rqg:{request}:{position}:{choice.text()}"))
        self.request, self.position, self.choice = request, position, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "GoButton":
        choice = Choice.parse(match["mask"], match["tool"], match["circ"])
        return cls(int(match["request"]), int(match["pos"]), choice)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await rolling.roll_for(interaction, self.request, self.position, self.choice)


class CloseButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mab:rqx:(?P<request>\d+)"):
    def __init__(self, request: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"mab:rqx:{request}"))
        self.request = request

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "CloseButton":
        return cls(int(match["request"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await rolling.close(interaction, self.request)


class ResultsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mab:rqv:(?P<request>\d+)"):
    def __init__(self, request: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"mab:rqv:{request}"))
        self.request = request

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ResultsButton":
        return cls(int(match["request"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await rolling.results(interaction, self.request)


BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    RollButton,
    BuilderSelect,
    GoButton,
    CloseButton,
    ResultsButton,
)
