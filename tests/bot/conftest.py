"""A running bot for each test: real discord.py, the fake Discord on 127.0.0.1, SQLite in tmp_path.

``bot_env`` yields a :class:`BotEnv` with the harness (to send slash commands, clicks and menus
as the narrator or the players) and the bot's storage (to assert on what was stored).
"""

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import MistbornBot
from bot.config import Settings
from fake_discord import payloads
from fake_discord.commandline import find_command
from fake_discord.harness import Harness, running_bot
from fake_discord.payloads import Resolved
from fake_discord.records import InteractionRecord
from fake_discord.world import FakeRole, World, default_world
from storage import Storage
from tests.bot.conflict_render_support import keep_hasting_table
from tests.conflict.builders import Table


@dataclass
class BotEnv:
    harness: Harness
    bot: MistbornBot
    storage: Storage
    world: World
    db_path: Path

    def new_bot(self, seed: int = 1234) -> MistbornBot:
        return MistbornBot(
            settings=make_settings(self.db_path, self.world.guild.id),
            storage=self.storage,
            rng=random.Random(seed),
        )

    async def restart(self, seed: int = 1234) -> MistbornBot:
        """As if the bot process were restarted: a new bot and a newly opened database file;
        the fake Discord, its messages and their buttons stay."""

        async def reopen() -> MistbornBot:
            await self.storage.close()
            self.storage = await Storage.open(self.db_path)
            return self.new_bot(seed)

        self.bot = await self.harness.restart(reopen)  # type: ignore[assignment]
        return self.bot

    @property
    def guild_id(self) -> int:
        return self.world.guild.id

    def user_id(self, name: str) -> int:
        return self.harness.member(name).user.id

    async def slash(self, line: str, user: str = "narrator") -> InteractionRecord:
        return await self.harness.slash(line, user=user)

    async def slash_overriding_visibility(
        self, name: str, options: list[dict[str, Any]], user: str
    ) -> InteractionRecord:
        """Send a command Discord would hide from ``user`` by default, as a server that changed
        its integration permissions would let them: the bot's own checks must still hold."""
        command = find_command(self.harness.commands, name)
        payload = payloads.slash_command(self.world, self.harness.actor(user), command, options, Resolved())
        return await self.harness.send(payload)


def make_settings(db_path: Path, guild_id: int) -> Settings:
    return Settings(token=None, db_path=db_path, dev_guild_id=guild_id, _env_file=None)  # type: ignore[call-arg]


@pytest.fixture
def table() -> Table:
    """The Keep Hasting Conflict for the renderer tests, all but Thorrow declared."""
    return keep_hasting_table()


@pytest.fixture
async def bot_env(tmp_path: Path) -> AsyncIterator[BotEnv]:
    db_path = tmp_path / "bot.sqlite3"
    world = default_world()
    keeper = FakeRole(world.ids.next(), "Keeper", permissions=0, position=1)
    world.guild.roles.append(keeper)
    member = world.guild.member("player2")
    assert member is not None
    member.role_ids.append(keeper.id)
    storage = await Storage.open(db_path)
    env: BotEnv | None = None

    def make_bot() -> MistbornBot:
        return MistbornBot(
            settings=make_settings(db_path, world.guild.id), storage=storage, rng=random.Random(1234)
        )

    try:
        async with running_bot(make_bot, world=world) as harness:
            assert isinstance(harness.bot, MistbornBot)
            env = BotEnv(harness=harness, bot=harness.bot, storage=storage, world=world, db_path=db_path)
            yield env
            assert not harness.violations, harness.violations
    finally:
        await (env.storage if env is not None else storage).close()
