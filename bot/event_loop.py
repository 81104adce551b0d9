"""The event loop the bot runs on: uvloop where it is installed, else asyncio's own.

Under load, most of the bot's one thread goes to the loop's own machinery (socket reads and
writes for the gateway and every REST call, callbacks, timers) rather than to our code.
uvloop does that work in libuv and Cython, and with it the bot's process spends less CPU per
interaction (``bench/load_bench.py``, docs/benchmarks.md). It is a dependency wherever it has
wheels (Linux and macOS); on Windows the bot runs on asyncio's loop, unchanged.
"""

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

try:
    import uvloop
except ImportError:  # pragma: no cover - platforms without uvloop (Windows)
    HAVE_UVLOOP = False
else:
    HAVE_UVLOOP = True

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on a new loop, as :func:`asyncio.run` does."""
    if HAVE_UVLOOP:
        return uvloop.run(main)
    return asyncio.run(main)


def running_name() -> str:
    """Which loop runs this code ("uvloop" or "asyncio"), for the start-up log."""
    module = type(asyncio.get_running_loop()).__module__
    return "uvloop" if module.startswith("uvloop") else "asyncio"
