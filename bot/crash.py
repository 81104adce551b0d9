"""Crash points: where the crash tests kill this very process, ``kill -9`` style, on purpose.

A crash test must stop the bot at an exact moment of a move (just after the commit, just
after the reply…), which a ``kill`` sent from outside can only hit by luck. So the edges of a
move (``bot.cogs.conflict`` and the reply it sends) call :func:`crash_point` with the name of where they
are; once that point is armed, reaching it sends this process SIGKILL: no ``finally``, no
flush, no clean close, exactly as a crash.

Nothing is armed in production, and then a crash point costs one truth test of a module
global. A point is armed by the environment at start (``MISTBORN_CRASH_AT=after-commit`` or
``after-commit:3`` for its third visit; several separated by commas) or by the test runner at
run time (:func:`arm`; ``fake_discord.remote`` does it on a control line from the test).

The points:

* ``move-received`` — a Conflict move's interaction has arrived, nothing is written yet;
* ``after-commit`` — the move's transaction (state, sheets, outbox) is committed, nothing sent;
* ``after-reply`` — the interaction was answered with the outcome, not yet marked delivered;
* ``board-edit`` — the board message was edited, its new version not yet saved;
* ``outbox-post`` — the deliverer posted one queued message, not yet marked delivered;
* ``session-ended`` — a session's end and its recap's outbox row are committed, nothing sent
  (``bot.workers.session_end``);
* ``request-rolled`` — a request's roll (its claim, the roll log, its card's outbox row) is
  committed and the roller answered; the request's message is not yet edited
  (``bot.cogs.requests``).
"""

import logging
import os
import signal

log = logging.getLogger(__name__)

ENV = "MISTBORN_CRASH_AT"
POINTS = frozenset(
    {
        "move-received",
        "after-commit",
        "after-reply",
        "board-edit",
        "outbox-post",
        "session-ended",
        "request-rolled",
    }
)

_armed: dict[str, int] = {}
"""Each armed point and the visits left before it kills (1: the next one)."""


def arm(spec: str) -> None:
    """Arm the points of ``spec`` (``point[:visit]``, comma-separated); unknown names raise."""
    for part in filter(None, (piece.strip() for piece in spec.split(","))):
        name, _, visit = part.partition(":")
        if name not in POINTS:
            raise ValueError(f"unknown crash point {name!r}; known: {', '.join(sorted(POINTS))}")
        _armed[name] = int(visit or "1")
    if _armed:
        log.warning("Crash points armed: %s", _armed)


def disarm() -> None:
    _armed.clear()


def crash_point(name: str) -> None:
    """Die here, at once, if ``name`` is armed and this is the visit it waits for."""
    if not _armed:
        return
    left = _armed.get(name)
    if left is None:
        return
    if left > 1:
        _armed[name] = left - 1
        return
    os.kill(os.getpid(), signal.SIGKILL)


arm(os.environ.get(ENV, ""))
