"""Small tools the tests share that are neither fixtures nor about one layer."""

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(work: Coroutine[Any, Any, T]) -> T:
    """Run `work` to the end on an event loop of its own, in a thread of its own.

    For module- and session-scoped fixtures that do async work once (play a long setup through
    the bot, say): their loop and everything bound to it (sockets, aiosqlite's thread, the fake
    Discord) is gone before any test's own loop starts, whichever loop scope pytest-asyncio
    gives the tests.
    """
    with ThreadPoolExecutor(1, thread_name_prefix="run-apart") as pool:
        return pool.submit(asyncio.run, work).result()
