"""Our bot in this process on the fake Discord, with its storage at hand, and checks of its board.

:class:`BotEnv` is what the bot tests' ``bot_env`` fixture yields (``tests/bot/conftest.py``) and
what ``bench/soak_faults.py --slow-board`` builds by hand: the harness to act as the narrator or
the players, and the bot's storage to assert on what was stored. The board helpers compare the
Conflict board message in the fake with what ``status_embed`` renders for the stored Conflict;
``tests/faults/test_board_faults.py`` and the soak run share them. It lives under ``bench/``
because benchmarks may not import the tests, while the tests may import this.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app import MistbornBot
from bot.config import Settings
from bot.flow.board import Boards, board_of
from fake_discord import payloads
from fake_discord.commandline import find_command
from fake_discord.harness import Harness
from fake_discord.payloads import Resolved
from fake_discord.records import InteractionRecord
from fake_discord.world import World
from storage import Storage

JSON = dict[str, Any]

DISCORD_TRIES = 5
"""discord.py's tries per request (``HTTPClient.request``) before it raises."""


@dataclass
class BotEnv:
    harness: Harness
    bot: MistbornBot
    storage: Storage
    world: World
    db_path: Path

    def new_bot(self, seed: int = 1234) -> MistbornBot:
        return MistbornBot(
            settings=make_settings(self.db_path, self.world.guild.id),
            storage=self.storage,
            rng=random.Random(seed),
        )

    async def restart(self, seed: int = 1234) -> MistbornBot:
        """As if the bot process were restarted: a new bot and a newly opened database file;
        the fake Discord, its messages and their buttons stay."""

        async def reopen() -> MistbornBot:
            await self.storage.close()
            self.storage = await Storage.open(self.db_path)
            return self.new_bot(seed)

        self.bot = await self.harness.restart(reopen)  # type: ignore[assignment]
        return self.bot

    @property
    def guild_id(self) -> int:
        return self.world.guild.id

    def user_id(self, name: str) -> int:
        return self.harness.member(name).user.id

    async def slash(self, line: str, user: str = "narrator") -> InteractionRecord:
        return await self.harness.slash(line, user=user)

    async def slash_overriding_visibility(
        self, name: str, options: list[dict[str, Any]], user: str
    ) -> InteractionRecord:
        """Send a command Discord would hide from ``user`` by default, as a server that changed
        its integration permissions would let them: the bot's own checks must still hold."""
        command = find_command(self.harness.commands, name)
        payload = payloads.slash_command(self.world, self.harness.actor(user), command, options, Resolved())
        return await self.harness.send(payload)


def make_settings(db_path: Path, guild_id: int) -> Settings:
    return Settings(token=None, db_path=db_path, dev_guild_id=guild_id, _env_file=None)


# -- The Conflict board ------------------------------------------------------------------------


def boards(env: BotEnv) -> Boards:
    return env.bot.conflicts.boards


async def board_message(env: BotEnv) -> JSON:
    message_id = await env.storage.boards.get(env.guild_id, env.world.guild.channels[0].id)
    assert message_id is not None
    message: JSON = env.harness.fake.messages[message_id]
    return message


async def expected_board(env: BotEnv) -> JSON:
    """The public board of the stored Conflict (the Narrator's secret sheets as plain states)."""
    board = await board_of(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert board is not None
    embed: JSON = dict(board[1].to_dict())
    return embed


def shown(message: JSON) -> tuple[object, object, object]:
    [embed] = message["embeds"]
    return embed.get("title"), embed.get("description"), embed.get("fields")


async def board_is_correct(env: BotEnv) -> bool:
    expected = await expected_board(env)
    return shown(await board_message(env)) == (
        expected.get("title"),
        expected.get("description"),
        expected.get("fields"),
    )
