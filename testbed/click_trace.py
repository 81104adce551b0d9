"""One "Defend with N" click traced through the real dispatch: the map docs/architecture.md shows.

:func:`trace_defence_click` plays the duel of :data:`testbed.bot_env.DUEL` on the fake Discord,
has the Thug attack, and traces Vin's player clicking the largest "Defend with N" with
``sys.setprofile``, from the INTERACTION_CREATE to the moment the bot is idle again (the board's
edit included). Only our own modules are kept (``rules``, ``storage``, ``bot``), and only the
calls made for the click: the background tasks that tick whatever happens (the SQLite
checkpointer, the admission watcher, the upkeep, the catch-up) are left out. A call is a frame
starting at its first instruction: a coroutine resumed after an ``await`` (the profiler sees
each resumption as a call) is not counted again, nor one that began before the click.

:class:`Trace` is the result: every module in the order the click first reached it, how often
its functions were called, and the first of them; :attr:`Trace.reply` is the first module of
the reply's delivery (:data:`REPLY`), so the list reads as "before the reply" and "the reply and
after". ``python -m bench.click_trace`` prints it and writes it into docs/architecture.md;
``tests/bot/test_click_trace.py`` holds the document to the trace.

:func:`trace_roll` traces a ``/roll stat:`` the same way (Vin's player rolling Physique from
the active sheet), the plainest command that reads a sheet and logs before its reply: the
yardstick issue 40 measures a defence click against (``python -m bench.click_trace --roll``).
"""

from __future__ import annotations

import asyncio
import dis
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import CodeType, FrameType
from typing import Any

from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv

OURS = frozenset({"rules", "storage", "bot"})
"""The top packages of the product; the harness, the fake Discord and libraries are not traced."""
BACKGROUND = frozenset({"sqlite-checkpoints", "admission-lag", "upkeep", "catch-up"})
"""Tasks that run on their own clock, not because of the click."""
REPLY = ("bot.cogs.conflict.delivery", "send")
"""The function whose first call starts the reply's delivery (module, qualified name)."""
RESET = [
    ("narrator", "/conflict next-round force:true"),
    ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
    ("player1", "/declare action:attack target:Thug stat:Physique"),
    ("narrator", "/sheet heal amount:20 name:Vin"),
]
"""After a click: the next round, both declare again and Vin is healed (not traced)."""
ROLL = ("player1", "/roll stat:Physique")
"""The traced roll: Vin's player rolls Physique from the active sheet (:func:`trace_roll`)."""
ROLL_REPLY = ("bot.cogs.dice.rolling", "answer")
"""The function whose first call starts the roll's reply (its card, drawn and sent)."""
WARM_ROUNDS = 3
"""Rounds played before the traced one, so caches hold what a bot that has played holds."""
START, END = "<!-- click-trace:start -->", "<!-- click-trace:end -->"
"""The markers of the generated list in docs/architecture.md."""


@dataclass
class Module:
    name: str
    first: str
    """The first function of the module the click called (its qualified name)."""
    calls: int = 0
    after_reply: bool = False


@dataclass
class Trace:
    """What one traced click called, module by module, in first-visit order."""

    modules: dict[str, Module] = field(default_factory=dict)
    functions: set[tuple[str, str]] = field(default_factory=set)
    calls: int = 0
    deepest: int = 0
    reply: str | None = None
    """The function that starts the reply's delivery, once the click reached it."""
    after: str = "the outbox, the board"
    """What runs from the reply on, as the listing names it."""

    def packages(self, *, before_reply: bool = True) -> list[str]:
        """The subpackages of ``bot`` the click reached (before the reply, by default); a
        top-level module of ``bot`` (``bot.replies``, ``bot.access``) is shared, not a package."""
        found: list[str] = []
        for module in self.modules.values():
            if before_reply and module.after_reply:
                continue
            parts = module.name.split(".")
            if parts[0] == "bot" and len(parts) > 2 and ".".join(parts[:2]) not in found:
                found.append(".".join(parts[:2]))
        return found

    def counts(self) -> dict[str, int]:
        by_top = Counter(name.partition(".")[0] for name in self.modules)
        return {top: by_top[top] for top in ("bot", "storage", "rules")}

    def summary(self) -> str:
        counts = self.counts()
        tops = ", ".join(f"{counts[top]} of {top}" for top in counts)
        return (
            f"{len(self.modules)} modules ({tops}), {len(self.functions)} functions, "
            f"{self.calls} calls, {self.deepest} deep"
        )

    def listing(self) -> str:
        """The list docs/architecture.md shows: one module a line, its calls and first function."""
        width = max(len(name) for name in self.modules) + 2
        lines = [
            f"before the reply ({', '.join(self.packages())} of bot; top-level modules are shared):",
        ]
        told = False
        for module in self.modules.values():
            if module.after_reply and not told:
                lines.append(f"the reply ({self.reply}) and after: {self.after}")
                told = True
            lines.append(f"  {module.name.ljust(width)}{module.calls:>5}  {module.first}")
        return "\n".join(lines)


class Tracer:
    """A ``sys.setprofile`` hook keeping the first call of every function of ours."""

    def __init__(self, reply: tuple[str, str]) -> None:
        self.trace = Trace()
        self.reply_at = reply
        self._starts: dict[CodeType, int] = {}

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if module.partition(".")[0] not in OURS or frame.f_lasti != self._start(frame.f_code):
            return
        task = asyncio.current_task()
        if task is not None and task.get_name() in BACKGROUND:
            return
        trace = self.trace
        name = frame.f_code.co_qualname
        if trace.reply is None and (module, name) == self.reply_at:
            trace.reply = ".".join(self.reply_at)
        seen = trace.modules.get(module)
        if seen is None:
            seen = trace.modules[module] = Module(module, name, after_reply=trace.reply is not None)
        seen.calls += 1
        trace.calls += 1
        trace.functions.add((module, name))
        trace.deepest = max(trace.deepest, _depth(frame))

    def _start(self, code: CodeType) -> int:
        """Where a fresh frame of ``code`` stands when the profiler is told of it: its first
        RESUME (after a coroutine's or generator's prologue); a resumed one stands elsewhere."""
        found = self._starts.get(code)
        if found is None:
            found = next((i.offset for i in dis.get_instructions(code) if i.opname == "RESUME"), 0)
            self._starts[code] = found
        return found


def _depth(frame: FrameType | None) -> int:
    depth = 0
    while frame is not None:
        if frame.f_globals.get("__name__", "").partition(".")[0] in OURS:
            depth += 1
        frame = frame.f_back
    return depth


@contextmanager
def tracing(reply: tuple[str, str] = REPLY) -> Iterator[Trace]:
    tracer = Tracer(reply)
    sys.setprofile(tracer)
    try:
        yield tracer.trace
    finally:
        sys.setprofile(None)


async def _round(env: BotEnv, reply: tuple[str, str] | None) -> Trace | None:
    """The Thug attacks, Vin's player clicks the largest defence (traced when ``reply`` is
    given), then the next round is set up."""
    attack = await env.slash(THUG_ATTACKS[1], user=THUG_ATTACKS[0])
    await env.bot.conflicts.idle()
    buttons = [
        str(b.get("custom_id"))
        for row in (attack.message or {}).get("components") or []
        for b in row.get("components") or []
        if str(b.get("custom_id") or "").startswith("mab:defend:")
    ]
    assert buttons, f"the attack asked no defence: {attack.content}"
    largest = max(buttons, key=lambda custom_id: int(custom_id.rsplit(":", 1)[1]))
    traced: Trace | None = None
    if reply is None:
        await env.harness.click(largest, message=attack.message, user="player1")
    else:
        with tracing(reply) as traced:
            await env.harness.click(largest, message=attack.message, user="player1")
            await env.bot.conflicts.idle()
    await env.bot.conflicts.idle()
    await env.play(RESET)
    await env.bot.conflicts.idle()
    return traced


async def trace_defence_click(env: BotEnv, reply: tuple[str, str] = REPLY) -> Trace:
    """The duel played to Vin's defence, warmed up, then one click traced (see the module doc)."""
    await env.play(DUEL)
    for _ in range(WARM_ROUNDS):
        await _round(env, None)
    traced = await _round(env, reply)
    assert traced is not None and traced.reply is not None, "the click never reached its reply"
    return traced


async def trace_roll(env: BotEnv, reply: tuple[str, str] = ROLL_REPLY) -> Trace:
    """Vin made, a few rolls warm the caches, then one ``/roll stat:Physique`` traced."""
    await env.play(DUEL[:1])
    for _ in range(WARM_ROUNDS):
        await env.play([ROLL])
    with tracing(reply) as traced:
        await env.play([ROLL])
    assert traced.reply is not None, "the roll never reached its reply"
    traced.after = "its card"
    return traced
