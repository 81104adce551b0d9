"""What the bot's tests share: the Keep Hasting table for the renderers, and Vin at the table.

``bot_env`` and the other shared fixtures are in ``tests/conftest.py``.
"""

import pytest

from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from tests.bot.render.conflict_render_support import keep_hasting_table
from tests.rules.conflict.builders import Table


@pytest.fixture
def table() -> Table:
    """The Keep Hasting Conflict for the renderer tests, all but Thorrow declared."""
    return keep_hasting_table()


@pytest.fixture
async def vin(bot_env: BotEnv) -> BotEnv:
    """``bot_env`` where player1's active Hero is Vin, who burns Steel (rating 4)."""
    owner = bot_env.user_id("player1")
    character = make_character(
        name="Vin",
        kind=CharacterKind.HERO,
        owner_id=owner,
        powers=[{"type": "allomancy", "name": "Steel", "rating": 4}],
    )
    stored = await bot_env.storage.characters.create(bot_env.guild_id, character)
    await bot_env.storage.active.set(bot_env.guild_id, owner, stored.id)
    return bot_env
