"""A move's transaction body (``bot.cogs.conflict.transaction``) runs on both backends, as storage's tests
do: SQLite, and a real PostgreSQL (``tests/conftest.py``)."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Storage
from tests.conftest import BACKENDS, backend_storage


@pytest.fixture(params=BACKENDS)
async def storage(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Storage]:
    async with backend_storage(request, db_path) as opened:
        yield opened
