"""A DEBUG-level run through the real dispatch leaves no interaction token in the log.

discord.py logs every gateway event (an INTERACTION_CREATE carries its token) and every REST
call (the callback and followup URLs carry it) at DEBUG. The same run is logged twice: through
a bare handler, which shows the tokens are really there, and through a handler set up the way
``python -m bot`` sets its handlers up (``bot.logs.redact_handlers``), which must hold none.
"""

import io
import logging
import sys
from collections.abc import Iterator

import pytest

from bot.logs import REDACTED, RedactTokens, redact, redact_handlers
from testbed.bot_env import BotEnv


@pytest.fixture
def debug_logs() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    raw, kept = io.StringIO(), io.StringIO()
    bare, redacted = logging.StreamHandler(raw), logging.StreamHandler(kept)
    for handler in (bare, redacted):
        handler.setLevel(logging.DEBUG)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    redact_handlers([redacted])
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(bare)
    root.addHandler(redacted)
    try:
        yield raw, kept
    finally:
        root.removeHandler(bare)
        root.removeHandler(redacted)
        root.setLevel(level)


async def test_a_debug_log_holds_no_interaction_token(
    bot_env: BotEnv, debug_logs: tuple[io.StringIO, io.StringIO]
) -> None:
    raw, kept = debug_logs
    env = bot_env
    await env.slash("/character create name:Vin physique:2", user="player1")
    await env.slash("/gmroll dice:3 label:Ambush", user="narrator")  # a reply and a followup
    await env.slash("/conflict start kind:physical stakes:Alley", user="narrator")
    await env.slash("/conflict join", user="player1")
    await env.bot.conflicts.boards.idle()
    tokens = [record.token for record in env.harness.fake.interactions.values()]
    assert len(tokens) >= 4
    everything, written = raw.getvalue(), kept.getvalue()
    assert any(token in everything for token in tokens), "discord.py logged no token: the test proves nothing"
    assert "/interactions/" in written and REDACTED in written
    leaked = [token for token in tokens if token in written]
    assert not leaked, f"{len(leaked)} interaction tokens in the log"


@pytest.mark.parametrize(
    "line",
    [
        "POST https://discord.com/api/v10/interactions/123/aW50ZXJhY3Rpb24abc-_.x/callback with {}",
        "PATCH https://discord.com/api/v10/webhooks/456/aW50ZXJhY3Rpb24abc/messages/@original",
        "WebSocket Event: {'t': 'INTERACTION_CREATE', 'd': {'token': 'aW50ZXJhY3Rpb24abc', 'id': '1'}}",
        'payload {"token": "aW50ZXJhY3Rpb24abc"}',
    ],
)
def test_every_form_of_a_token_is_redacted(line: str) -> None:
    assert "aW50ZXJhY3Rpb24abc" not in redact(line) and REDACTED in redact(line)


def test_a_traceback_is_redacted_too() -> None:
    try:
        raise RuntimeError("failed at /webhooks/1/aW50ZXJhY3Rpb24abc/messages")
    except RuntimeError:
        record = logging.LogRecord("bot", logging.ERROR, __file__, 1, "boom %s", ("x",), None)
        record.exc_info = sys.exc_info()
    assert RedactTokens().filter(record)
    assert record.exc_text is not None and "aW50ZXJhY3Rpb24abc" not in record.exc_text
    assert record.getMessage() == "boom x"
