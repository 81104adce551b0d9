"""The bot as it runs: the client with every cog (the composition root).

This is the one module that knows every cog; nothing below it imports it, so the cogs, the
Conflict flow, the inputs and the renderers form layers without a cycle
(docs/architecture.md, "Layers").
"""

import random
from typing import Any

from discord.ext import commands

from bot.client import CogFactory, MistbornClient
from bot.cogs.admin import Admin
from bot.cogs.campaign import AdvancementCommands, SecretCommands, StoryCommands, TemplateCommands
from bot.cogs.characters import (
    BurdenCommands,
    CharacterCommands,
    EditCommands,
    HeroBuilder,
    SheetCommands,
)
from bot.cogs.conflict import ConflictCog, ConflictMoves
from bot.cogs.conflict.questions import asked_again, board_buttons
from bot.cogs.dice import Dice, SavedRolls
from bot.cogs.help import Help
from bot.cogs.history import History
from bot.cogs.odds import Odds
from bot.cogs.powers import PowerCommands
from bot.cogs.requests import RequestCommands
from bot.cogs.say import Say
from bot.cogs.scene import SceneCommands
from bot.cogs.server_setup import ServerSetup
from bot.cogs.sessions import SessionCommands
from bot.cogs.web import WebCommands
from bot.config import Settings
from bot.workers.conflicts import ConflictPrompts
from storage import Storage

COGS: tuple[CogFactory, ...] = (
    Dice,
    SavedRolls,
    Odds,
    CharacterCommands,
    HeroBuilder,
    EditCommands,
    SheetCommands,
    BurdenCommands,
    PowerCommands,
    ConflictCog,
    ConflictMoves,
    RequestCommands,
    SceneCommands,
    SessionCommands,
    AdvancementCommands,
    StoryCommands,
    SecretCommands,
    TemplateCommands,
    Say,
    History,
    ServerSetup,
    WebCommands,
    Help,
    Admin,
)
"""Every command group, in the order ``/help`` lists them."""


class MistbornBot(MistbornClient):
    """The client with every cog: what ``python -m bot``, the console and the tests run."""

    def __init__(
        self,
        *,
        settings: Settings,
        storage: Storage,
        rng: random.Random | None = None,
        sync_global: bool = False,
        freeze_gc: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            settings=settings,
            storage=storage,
            cogs=COGS,
            prompts=ConflictPrompts(buttons=board_buttons, asked_again=asked_again),
            rng=rng,
            sync_global=sync_global,
            freeze_gc=freeze_gc,
            **options,
        )


class ShardedMistbornBot(MistbornBot, commands.AutoShardedBot):
    """The same bot on discord.py's sharded client: one gateway session per shard it holds.

    With ``shard_count`` given, discord.py connects to the default gateway without asking
    ``GET /gateway/bot``, and opens a session for each of ``shard_ids`` (every shard if None).
    """


def make_bot(
    *, settings: Settings, storage: Storage, rng: random.Random | None = None, **options: Any
) -> MistbornBot:
    """The bot these settings ask for: sharded with ``MISTBORN_SHARD_COUNT``, else as always."""
    if settings.shard_count is None:
        return MistbornBot(settings=settings, storage=storage, rng=rng, **options)
    ids = None if settings.shard_ids is None else list(settings.shard_ids)
    return ShardedMistbornBot(
        settings=settings,
        storage=storage,
        rng=rng,
        shard_count=settings.shard_count,
        shard_ids=ids,
        **options,
    )
