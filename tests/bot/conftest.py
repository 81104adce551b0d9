"""A running bot for each test: real discord.py, the fake Discord on 127.0.0.1, SQLite in tmp_path.

``bot_env`` yields a :class:`BotEnv` with the harness (to send slash commands, clicks and menus
as the narrator or the players) and the bot's storage (to assert on what was stored). BotEnv
and ``make_settings`` live in ``bench/bot_env.py`` so the soak benchmark can build one too;
they are imported here under the names the tests have always used.
"""

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.bot_env import BotEnv, make_settings
from bot.app import MistbornBot
from fake_discord.harness import running_bot
from fake_discord.world import FakeRole, default_world
from storage import Storage
from tests.bot.conflict_render_support import keep_hasting_table
from tests.conflict.builders import Table


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
