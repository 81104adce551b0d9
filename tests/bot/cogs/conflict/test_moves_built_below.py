"""Every Conflict move's command is built in the move builders
(``bot.cogs.conflict.declare_build``, ``mover_build``, ``answer_build``, ``turn_build``), never in
a closure of the module answering the interaction: that module only turns its options into a
builder, so no cog code runs inside the move's transaction (docs/architecture.md, the path of
``/act``)."""

from typing import Any

import pytest

from bot.cogs.conflict.move import Move
from bot.cogs.conflict.service import ConflictFlow
from testbed.bot_env import BotEnv
from tests.bot.cogs.conflict.test_conflict_flow import duel

__all__ = ["duel"]

BUILDERS = {
    "bot.cogs.conflict.declare_build",
    "bot.cogs.conflict.mover_build",
    "bot.cogs.conflict.answer_build",
    "bot.cogs.conflict.turn_build",
}


@pytest.fixture
def builders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The module of every move handed to the move service."""
    seen: list[str] = []
    original = ConflictFlow.run

    async def spy(self: ConflictFlow, interaction: Any, move: Move, **kwargs: Any) -> Any:
        seen.append(type(move).__module__)
        return await original(self, interaction, move, **kwargs)

    monkeypatch.setattr(ConflictFlow, "run", spy)
    return seen


@pytest.mark.parametrize(
    ("user", "line"),
    [
        ("narrator", "/act dice:5 who:Thug"),
        ("player1", "/pass"),
        ("player1", "/burn metal:Pewter"),
        ("player1", "/switch action:attack stat:Physique target:Thug"),
        ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
        ("player1", "/nudges damage:1"),
        ("player1", "/defend dice:2"),
    ],
)
async def test_a_typed_move_is_built_in_bot_moves(
    duel: BotEnv, builders: list[str], user: str, line: str
) -> None:
    await duel.slash(line, user=user)  # refused or applied, the command is built the same way
    assert builders and set(builders) <= BUILDERS, builders
