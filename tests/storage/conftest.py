from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Storage


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "mistborn.sqlite3"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    async with await Storage.open(db_path) as opened:
        yield opened
