"""The sample bot on a fresh loopback Discord: the harness most tests of the fake drive.

A test file that needs another world (a thread, a webhook's channel) defines its own ``h``.
"""

from collections.abc import AsyncIterator

import pytest

from fake_discord.harness import Harness, running_bot
from tests.fake_discord.sample_bot import SampleBot


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    async with running_bot(lambda: SampleBot(sync_in_setup=True)) as harness:
        yield harness
