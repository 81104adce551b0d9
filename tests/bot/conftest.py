"""What only the bot's renderer tests share: the Keep Hasting table, all but Thorrow declared.

``bot_env`` and the other shared fixtures are in ``tests/conftest.py``.
"""

import pytest

from tests.bot.conflict_render_support import keep_hasting_table
from tests.conflict.builders import Table


@pytest.fixture
def table() -> Table:
    """The Keep Hasting Conflict for the renderer tests, all but Thorrow declared."""
    return keep_hasting_table()
