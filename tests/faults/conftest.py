"""What only the fault tests share: a started fake Discord for a bot in another process.

The in-process ``bot_env`` and the database fixtures are in ``tests/conftest.py``.
"""

from collections.abc import AsyncIterator

import pytest

from fake_discord.server import FakeDiscord
from fake_discord.world import default_world


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord on its own 127.0.0.1 port, for ``fake_discord.process.BotProcess``."""
    fake = FakeDiscord(default_world())
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
