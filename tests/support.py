"""Small tools the tests of several folders share that are neither fixtures nor about one layer."""

import asyncio
import os
import sys
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from storage import Storage
from storage.sql import fetch_all

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]
"""The repository: where ``python -m tests.…`` finds the tests package."""


def run_apart(work: Coroutine[Any, Any, T]) -> T:
    """Run `work` to the end on an event loop of its own, in a thread of its own.

    For module- and session-scoped fixtures that do async work once (play a long setup through
    the bot, say): their loop and everything bound to it (sockets, aiosqlite's thread, the fake
    Discord) is gone before any test's own loop starts, whichever loop scope pytest-asyncio
    gives the tests.
    """
    with ThreadPoolExecutor(1, thread_name_prefix="run-apart") as pool:
        return pool.submit(asyncio.run, work).result()


async def start_test_module(module: str, *args: str, stdin: bool = False) -> asyncio.subprocess.Process:
    """``python -m module args…`` in a process of its own (to be killed), its stdout piped.

    Run from the repository with it on ``PYTHONPATH``, so the child imports ``tests`` and our
    packages exactly as pytest does, whatever directory pytest was started from.
    """
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        *args,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=asyncio.subprocess.PIPE if stdin else None,
        stdout=asyncio.subprocess.PIPE,
    )


async def integrity(storage: Storage) -> list[tuple[str, ...]]:
    """SQLite's own check of the whole file: ``[("ok",)]`` when nothing is corrupt."""
    return [tuple(row) for row in await fetch_all(storage.database.reader, "PRAGMA integrity_check")]
