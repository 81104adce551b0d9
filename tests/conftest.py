"""Fixtures every test folder shares: a database file, its storage, and our bot on the fake Discord.

``storage`` is a real SQLite file in ``tmp_path`` (``db_path``), opened through the same
``Storage.open`` the bot uses. ``bot_env`` is the bot end to end: real discord.py, the fake
Discord on 127.0.0.1, its own SQLite file in ``tmp_path``; it yields a :class:`BotEnv` with the
harness (slash commands, clicks and menus as the narrator or the players) and the bot's storage
(to assert on what was stored), and fails the test if the bot sent anything Discord would
reject. How it starts lives in ``testbed/bot_env.py`` (``running_bot_env``) because the soak
benchmark starts the same bot and benchmarks may not import the tests (``tests/README.md``).

Everything here is per test and per ``tmp_path``, so tests run side by side under pytest-xdist:
each worker is its own process, the fake listens on a port the system picks, and discord.py's
redirection to it (``fake_discord/patch.py``) is process-wide but only one bot runs at a time
in a worker. Under xdist the ``slow`` tests are handed out first, so that the longest ones do
not start last and leave one worker running alone at the end.
"""

import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from storage import Storage
from testbed.bot_env import BotEnv, running_bot_env, table_world
from testbed.pg_server import PgServer, PgUnavailable, missing, start_server

settings.register_profile("shared-cores", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.load_profile("shared-cores")
"""Hypothesis times how long it takes to draw examples and to run each one, and a sheet with
Powers, Props and texts takes long on two cores shared with other test workers: a slow draw or
example is the machine's, not a failure of what is tested (speed is measured in ``bench/``,
never in a unit test), so the too-slow health check and the per-example deadline are off; the
other health checks stay on."""

BACKENDS = ("sqlite", "postgres")
"""The storage suite, the Conflict runner's among it, runs on each (``tests/storage/conftest.py``)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the PostgreSQL runs of tests marked ``sqlite_only``; in an xdist worker, put
    the ``slow`` tests first (every worker sorts the same way)."""
    dropped = [item for item in items if _sqlite_only_on_postgres(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say once, in words, when the PostgreSQL half of the suite could not run here."""
    reason = missing()
    if reason is not None:
        terminalreporter.write_line(f"PostgreSQL half skipped (the tests marked [postgres]): {reason}.")


def _sqlite_only_on_postgres(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    on_postgres = callspec is not None and callspec.params.get("storage") == "postgres"
    return on_postgres and item.get_closest_marker("sqlite_only") is not None


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where ``storage`` keeps its file: in a folder that does not exist yet, as on first start."""
    return tmp_path / "data" / "mistborn.sqlite3"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    async with await Storage.open(db_path) as opened:
        yield opened


@pytest.fixture
async def bot_env(tmp_path: Path) -> AsyncIterator[BotEnv]:
    """The bot on the fake Discord's table (``table_world``), its database in ``tmp_path``."""
    async with running_bot_env(tmp_path / "bot.sqlite3", table_world()) as env:
        yield env


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server per test process, started the first time a test asks for it.

    Without PostgreSQL on this machine the tests that need it are skipped, saying so; under
    ``CI=true`` (``.ci/run``) they fail instead, so CI proves both backends.
    """
    try:
        server = start_server()
    except PgUnavailable as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs PostgreSQL: {error}")
        pytest.skip(f"PostgreSQL half skipped: {error}")
    try:
        yield server
    finally:
        server.stop()


@asynccontextmanager
async def backend_storage(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Storage]:
    """``Storage`` on the backend the test is parametrised with: the SQLite file at ``db_path``,
    or a fresh database on the session's PostgreSQL server (dropped afterwards)."""
    if request.param == "sqlite":
        async with await Storage.open(db_path) as opened:
            yield opened
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = await server.create_database()
    try:
        async with await Storage.open(url=url) as opened:
            yield opened
    finally:
        await server.drop_database(url)
