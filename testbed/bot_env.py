"""Our bot in this process on the fake Discord, with its storage at hand, and checks of its board.

:func:`running_bot_env` starts what the tests' ``bot_env`` fixture yields (``tests/conftest.py``)
and what ``bench/soak_faults.py --slow-board`` drives: a :class:`BotEnv` with the harness to act
as the narrator or the players, and the bot's storage to assert on what was stored. A
:class:`Snapshot` is such a bot's database file and the Discord it talked to, so that many tests
can start from one expensive setup (``running_snapshot``) instead of replaying it each time. The
board helpers compare the Conflict board card in the fake with what ``board_card`` renders
for the stored Conflict (by the text of its text displays);
``tests/faults/test_board_faults.py`` and the soak run share them. It
lives in ``testbed/`` because benchmarks may not import the tests, while both may import this.
"""

from __future__ import annotations

import copy
import random
import shutil
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app import MistbornBot
from bot.config import Settings
from bot.render.rows import one_line
from bot.workers.board import Boards
from bot.workers.board_state import own_buttons, stored_board
from fake_discord import payloads
from fake_discord.backend import Limits
from fake_discord.commandline import find_command
from fake_discord.harness import Harness, running_bot
from fake_discord.layout import IS_COMPONENTS_V2, is_layout, texts, walk
from fake_discord.payloads import Resolved
from fake_discord.records import InteractionRecord
from fake_discord.world import FakeRole, Snowflakes, World, default_world
from storage import Storage

JSON = dict[str, Any]

DISCORD_TRIES = 5
"""discord.py's tries per request (``HTTPClient.request``) before it raises."""
Script = list[tuple[str, str]]
"""Slash commands as (who types, what they type)."""

DUEL: Script = [
    ("player1", "/character create name:Vin physique:3 wits:4"),
    ("narrator", "/character create name:Thug kind:Villain physique:5"),
    ("narrator", '/conflict start kind:physical stakes:"A brawl"'),
    ("player1", "/conflict join"),
    ("narrator", "/conflict add character:Thug"),
    ("narrator", "/conflict begin"),
    ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
    ("player1", "/declare action:attack target:Thug stat:Physique"),
]
"""The smallest Conflict: Vin (player1) and the Narrator's Thug have declared attacks on each
other, so the board is up; ``THUG_ATTACKS`` then leaves a defence prompt waiting for Vin."""
THUG_ATTACKS = ("narrator", "/act dice:5 who:Thug")
ALLEY_BRAWL: Script = [
    ("narrator", '/conflict start kind:physical stakes:"A brawl in the alley"'),
    ("player1", "/conflict join"),
    ("narrator", "/conflict add character:Thug"),
    ("narrator", "/conflict begin"),
    ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
    ("player1", "/declare action:attack target:Thug stat:Physique"),
]
"""``DUEL``'s fight for sheets a test made itself (player1's active Vin, the Narrator's Thug):
opened, and both have declared attacks."""


SEED = 1234
"""The bot's dice seed unless a test asks for another."""


@dataclass
class BotEnv:
    harness: Harness
    bot: MistbornBot
    storage: Storage
    world: World
    db_path: Path
    sync_global: bool = False
    web_port: int | None = None
    dice_emojis: bool = False

    def new_bot(self, seed: int = SEED) -> MistbornBot:
        settings = make_settings(
            self.db_path, self.world.guild.id, web_port=self.web_port, dice_emojis=self.dice_emojis
        )
        return MistbornBot(
            settings=settings,
            storage=self.storage,
            rng=random.Random(seed),
            sync_global=self.sync_global,
        )

    async def restart(self, seed: int = SEED) -> MistbornBot:
        """As if the bot process were restarted: a new bot and a newly opened database file;
        the fake Discord, its messages and their buttons stay."""

        async def reopen() -> MistbornBot:
            await self.storage.close()
            self.storage = await Storage.open(self.db_path)
            return self.new_bot(seed)

        bot = await self.harness.restart(reopen)
        assert isinstance(bot, MistbornBot)
        self.bot = bot
        return bot

    @property
    def guild_id(self) -> int:
        return self.world.guild.id

    def user_id(self, name: str) -> int:
        return self.harness.member(name).user.id

    async def slash(self, line: str, user: str = "narrator") -> InteractionRecord:
        return await self.harness.slash(line, user=user)

    async def play(self, script: Script) -> list[InteractionRecord]:
        """Type each line as its user, in turn; every one must be accepted, not refused."""
        replies = []
        for user, line in script:
            reply = await self.slash(line, user=user)
            assert not refused(reply), f"{line!r} was refused: {reply.content}"
            replies.append(reply)
        return replies

    async def slash_overriding_visibility(
        self, name: str, options: list[dict[str, Any]], user: str
    ) -> InteractionRecord:
        """Send a command Discord would hide from ``user`` by default, as a server that changed
        its integration permissions would let them: the bot's own checks must still hold."""
        command = find_command(self.harness.commands, name)
        payload = payloads.slash_command(self.world, self.harness.actor(user), command, options, Resolved())
        return await self.harness.send(payload)


async def fight_in_a_session_thread(env: BotEnv) -> None:
    """``DUEL`` with Conflict threads on, begun after ``/session start title:"Threaded"`` in the
    table's channel: the fight runs in its own thread, where the harness then types, up to
    ``THUG_ATTACKS`` (Vin's defence prompt waiting)."""
    await env.slash("/setup conflict-threads setting:on")
    await env.play(DUEL[:2])
    await env.slash('/session start title:"Threaded"')
    await env.play(DUEL[2:3])
    table = env.world.guild.channels[0]
    [thread] = [c for c in env.world.guild.channels if c.parent_id == table.id]
    env.harness.channel = thread
    await env.bot.conflicts.idle()
    await env.play([*DUEL[3:], THUG_ATTACKS])


def refused(reply: InteractionRecord) -> bool:
    """Refusals are private text; confirmations (some private too) carry an embed or a card."""
    card = int((reply.message or {}).get("flags") or 0) & IS_COMPONENTS_V2  # a secret roll's card
    return reply.ephemeral and not reply.embeds and not card


def make_settings(
    db_path: Path, guild_id: int, *, web_port: int | None = None, dice_emojis: bool = False
) -> Settings:
    """The test bot's settings; with ``web_port`` it serves the web view there (0: a free port).
    Dice are written as text unless a test asks for the app's emojis (``dice_emojis``)."""
    return Settings(
        token=None,
        db_path=db_path,
        dev_guild_id=guild_id,
        web_port=web_port,
        dice_emojis=dice_emojis,
        _env_file=None,
    )


def table_world() -> World:
    """The fake's default server plus a Keeper role held by player2: a role that is not the
    Narrator's, so a test can tell "has some role" from "is a Narrator"."""
    world = default_world()
    keeper = FakeRole(world.ids.next(), "Keeper", permissions=0, position=1)
    world.guild.roles.append(keeper)
    member = world.guild.member("player2")
    assert member is not None
    member.role_ids.append(keeper.id)
    return world


@asynccontextmanager
async def running_bot_env(
    db_path: Path,
    world: World,
    *,
    seed: int = SEED,
    sync_global: bool = False,
    messages: Mapping[int, JSON] | None = None,
    limits: Limits | None = None,
    web_port: int | None = None,
    dice_emojis: bool = False,
) -> AsyncIterator[BotEnv]:
    """Open the database at `db_path` and connect our bot to a new fake Discord hosting `world`.

    `messages` are put in the fake's channels first, as if the bot had posted them before (see
    :class:`Snapshot`). On leaving, the bot and the database are closed, and the block fails if
    the fake received anything real Discord would have rejected.
    """
    storage = await Storage.open(db_path)
    env: BotEnv | None = None

    def make_bot() -> MistbornBot:
        settings = make_settings(db_path, world.guild.id, web_port=web_port, dice_emojis=dice_emojis)
        return MistbornBot(
            settings=settings, storage=storage, rng=random.Random(seed), sync_global=sync_global
        )

    try:
        async with running_bot(make_bot, world=world, limits=limits) as harness:
            assert isinstance(harness.bot, MistbornBot)
            if messages:
                fake = harness.fake
                fake.messages = {**copy.deepcopy(dict(messages)), **fake.messages}
            env = BotEnv(harness, harness.bot, storage, world, db_path, sync_global, web_port, dice_emojis)
            yield env
            assert not harness.violations, harness.violations
            # Every click goes to bot.clicks, once: discord.py must not have learnt a button of
            # ours from a view sent unstopped, or it would run the click a second time.
            assert not harness.bot._connection._view_store._dynamic_items, "a view was sent unstopped"
    finally:
        await (env.storage if env is not None else storage).close()


@dataclass(frozen=True)
class Snapshot:
    """A closed bot's database file and what its Discord held: a setup to start tests from.

    Build one by playing the setup once in :func:`running_bot_env` and calling :meth:`take`
    after the block; :func:`running_snapshot` then starts a new bot on a copy of the file, in
    a copy of the world with the same messages. The copy is what a restarted bot would see:
    the database and Discord as they were, and nothing of the old bot's memory.
    """

    db_file: Path
    world: World
    messages: Mapping[int, JSON]

    @classmethod
    def take(cls, env: BotEnv, messages: Mapping[int, JSON]) -> Snapshot:
        """`env` must be closed (its database file complete, no write-ahead log left)."""
        assert not env.db_path.with_name(env.db_path.name + "-wal").exists(), "close the env first"
        return cls(env.db_path, env.world, copy.deepcopy(dict(messages)))

    def world_copy(self) -> World:
        """The same server, members and ids; new ids come from a fresh counter, later in time."""
        fresh: dict[int, object] = {id(self.world.ids): Snowflakes()}
        return copy.deepcopy(self.world, fresh)


@asynccontextmanager
async def running_snapshot(snapshot: Snapshot, db_path: Path, *, seed: int = SEED) -> AsyncIterator[BotEnv]:
    """A new bot on a copy of the snapshot's database at `db_path`, as :func:`running_bot_env`."""
    shutil.copyfile(snapshot.db_file, db_path)
    async with running_bot_env(db_path, snapshot.world_copy(), seed=seed, messages=snapshot.messages) as env:
        yield env


# -- The Conflict board ------------------------------------------------------------------------


def boards(env: BotEnv) -> Boards:
    return env.bot.conflicts.boards


async def board_message(env: BotEnv) -> JSON:
    message_id = await env.storage.boards.get(env.guild_id, env.world.guild.channels[0].id)
    assert message_id is not None
    message: JSON = env.harness.fake.messages[message_id]
    return message


async def expected_board(env: BotEnv) -> JSON:
    return await expected_board_of(env.storage, env.guild_id, env.world.guild.channels[0].id)


async def expected_board_of(storage: Storage, guild_id: int, channel_id: int) -> JSON:
    """The public board card of the stored Conflict (the Narrator's secret sheets as plain
    states), as the JSON of a message."""
    board = await stored_board(storage, guild_id, channel_id)
    assert board is not None
    card = board[1].card(own_buttons(board[1]))
    components: list[JSON] = card.to_components()  # type: ignore[no-untyped-call]
    return {"content": "", "embeds": [], "components": components}


def is_board(message: JSON) -> bool:
    """Whether ``message`` is a Conflict board card (live or closed), not a reply or prompt."""
    if not is_layout(message) or message.get("interaction_metadata"):
        return False
    first = next(iter(texts(message.get("components") or [])), "")
    return first.startswith(("### Conflict — round", "### Conflict over"))


def embeds_text(embeds: list[JSON]) -> str:
    """What embeds say, as plain text, the board's phone rows read as one line
    (``bot.render.rows.one_line``): for checking words without caring where rows end."""
    parts: list[str] = []
    for embed in embeds:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
        parts.append(str((embed.get("footer") or {}).get("text") or ""))
    return one_line("\n".join(parts))


def controls(message: JSON) -> list[JSON]:
    """The buttons and menus of ``message`` in the order shown, however deep a card nests them."""
    return [c for c in walk(message.get("components") or []) if "custom_id" in c]


def text_displays(message: JSON) -> list[str]:
    """The text of each text display of a card, in order."""
    return texts(message.get("components") or [])


def shown(message: JSON) -> str:
    """What a board card says (its words and numbers, phone rows as one line), to compare two
    boards."""
    assert not message.get("embeds") and not message.get("content"), "a board is a card, nothing beside it"
    return one_line("\n".join(texts(message.get("components") or [])))


async def board_is_correct(env: BotEnv) -> bool:
    return await board_matches(
        env.storage, env.harness.fake.messages, env.guild_id, env.world.guild.channels[0].id
    )


async def board_matches(
    storage: Storage, messages: Mapping[int, JSON], guild_id: int, channel_id: int
) -> bool:
    """Whether the channel's board message (in ``messages``, the fake's) shows its stored Conflict."""
    message_id = await storage.boards.get(guild_id, channel_id)
    message = messages.get(message_id) if message_id is not None else None
    if message is None:
        return False
    expected = await expected_board_of(storage, guild_id, channel_id)
    return shown(message) == shown(expected)
