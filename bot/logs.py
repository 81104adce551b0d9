"""Logs never hold a token, at any level.

An interaction's token lets whoever reads it post as the bot in that channel for 15 minutes,
and discord.py logs them at DEBUG: every gateway event it receives (an INTERACTION_CREATE
carries ``"token": "…"``) and every REST route it calls (``/interactions/<id>/<token>/callback``,
``/webhooks/<application>/<token>/messages/…``). :class:`RedactTokens` rewrites each record a
handler is about to write, whatever its level or logger, so the token is replaced before it
reaches the file; ``python -m bot`` installs it on every handler it sets up
(:func:`redact_handlers`), and so does the offline console.
"""

import logging
import re
from collections.abc import Iterable

REDACTED = "[token]"
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(/interactions/\d+/)[^/\s'\"?]+"), rf"\g<1>{REDACTED}"),
    (re.compile(r"(/webhooks/\d+/)[^/\s'\"?]+"), rf"\g<1>{REDACTED}"),
    (re.compile(r"""(["']token["']\s*:\s*["'])[^"']*(["'])"""), rf"\g<1>{REDACTED}\g<2>"),
    (re.compile(r"(Authorization['\"]?\s*[:=]\s*['\"]?Bot\s+)[\w.\-]+"), rf"\g<1>{REDACTED}"),
)
"""Interaction and webhook tokens in a URL, ``"token": "…"`` in a payload (JSON or a Python
repr), and a bot token in an Authorization header."""


def redact(text: str) -> str:
    """``text`` with every token it holds replaced by ``[token]``."""
    for pattern, replacement in PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactTokens(logging.Filter):
    """A handler filter: the record's message (arguments merged in) and any traceback, redacted.

    It always lets the record through; it only rewrites what will be written.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def redact_handlers(handlers: Iterable[logging.Handler] | None = None) -> None:
    """Install :class:`RedactTokens` on ``handlers`` (default: the root logger's), once each."""
    for handler in logging.getLogger().handlers if handlers is None else handlers:
        if not any(isinstance(f, RedactTokens) for f in handler.filters):
            handler.addFilter(RedactTokens())
