"""Fixtures every test folder shares: a database file, its storage, and our bot on the fake Discord.

``storage`` is a real SQLite file in ``tmp_path`` (``db_path``), opened through the same
``Storage.open`` the bot uses. ``bot_env`` is the bot end to end: real discord.py, the fake
Discord on 127.0.0.1, its own SQLite file in ``tmp_path``; it yields a :class:`BotEnv` with the
harness (slash commands, clicks and menus as the narrator or the players) and the bot's storage
(to assert on what was stored), and fails the test if the bot sent anything Discord would
reject. How it starts lives in ``bench/bot_env.py`` (``running_bot_env``) because the soak
benchmark starts the same bot and benchmarks may not import the tests.

Everything here is per test and per ``tmp_path``, so tests run side by side under pytest-xdist:
each worker is its own process, the fake listens on a port the system picks, and discord.py's
redirection to it (``fake_discord/patch.py``) is process-wide but only one bot runs at a time
in a worker. Under xdist the ``slow`` tests are handed out first, so that the longest ones do
not start last and leave one worker running alone at the end.
"""

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.bot_env import BotEnv, running_bot_env, table_world
from storage import Storage


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker, put the ``slow`` tests first (every worker sorts the same way)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where ``storage`` keeps its file: in a folder that does not exist yet, as on first start."""
    return tmp_path / "data" / "mistborn.sqlite3"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    async with await Storage.open(db_path) as opened:
        yield opened


@pytest.fixture
async def bot_env(tmp_path: Path) -> AsyncIterator[BotEnv]:
    """The bot on the fake Discord's table (``table_world``), its database in ``tmp_path``."""
    async with running_bot_env(tmp_path / "bot.sqlite3", table_world()) as env:
        yield env
