"""The bot serving its web view (``web_env``) and a real browser (``browser``).

The browser tests skip on a developer machine without ``/usr/bin/chromium``, and FAIL when
``CI=true``: ``.ci/run`` installs chromium, so there they must prove the page works.
"""

import os
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from testbed.bot_env import BotEnv, running_bot_env, table_world
from testbed.browser import CHROMIUM, MISSING, chromium


@pytest.fixture
async def web_env(tmp_path: Path) -> AsyncIterator[BotEnv]:
    """``bot_env`` with the web view served from the bot's process on a free port."""
    async with running_bot_env(tmp_path / "bot.sqlite3", table_world(), web_port=0) as env:
        yield env


@pytest.fixture
async def fixed_port_env(tmp_path: Path) -> AsyncIterator[BotEnv]:
    """``web_env`` on a fixed port, as a deployment has, so a restarted bot serves the same address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    async with running_bot_env(tmp_path / "bot.sqlite3", table_world(), web_port=port) as env:
        yield env


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    async with chromium() as opened:
        yield opened
