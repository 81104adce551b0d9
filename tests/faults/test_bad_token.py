"""A token Discord refuses stops the bot's process after one refused request, at login or later.

Discord bans an address after 10,000 refused requests in ten minutes; a process that went on
with a refused token would be refused at every call (``bot.rest_watch``). At login discord.py
raises ``LoginFailure`` itself; once logged in, the bot's watch on Discord's answers stops it.
"""

from pathlib import Path

import pytest

from fake_discord.process import BotProcess
from fake_discord.server import FakeDiscord


async def test_a_token_refused_at_login_ends_the_process_after_one_refused_request(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.inject_fault("GET", r"^/users/@me$", 401, times=100)
    process = BotProcess(fake, tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log", seed=1)
    try:
        with pytest.raises(RuntimeError, match="the bot exited"):
            await process.start(timeout=90)
        assert await process.exited() != 0
        assert [status for _, status, _ in fake.invalid.seen] == [401]
        assert "LoginFailure" in process.log_tail()
    finally:
        await process.kill()
