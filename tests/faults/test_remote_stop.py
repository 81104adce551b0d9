"""The bot's own process stops cleanly on SIGINT, whatever signal dispositions it inherited.

A shell without job control starts background jobs (``pytest &`` in a script) with SIGINT
ignored, and an ignored signal stays ignored across exec: the bot process then had no Ctrl-C
handling at all, and ``BotProcess.stop`` ended up killing it (exit -9) after its timeout.
That made the kill -9 test fail "sometimes": depending on how the suite was launched.
"""

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from fake_discord.process import BotProcess
from fake_discord.server import FakeDiscord


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """What a background job of a non-interactive shell gets, for children started meanwhile."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("inherited", ["default", "ignored"])
async def test_sigint_stops_the_bot_process_cleanly(
    fake: FakeDiscord, tmp_path: Path, inherited: str
) -> None:
    process = BotProcess(fake, tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log", seed=1)
    try:
        if inherited == "ignored":
            with sigint_ignored():
                await process.start()
        else:
            await process.start()
        await process.stop()
        assert process.returncode == 0, process.log_tail()
        assert "Traceback" not in process.log_tail(), process.log_tail()
    finally:
        await process.kill()
