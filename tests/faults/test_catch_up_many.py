"""A start with 1,000 live Conflicts: caught up within Discord's limits, interactions answered at once.

100 servers of 10 channels, each channel a Conflict whose board was never drawn, so the
restarted bot has 1,000 boards to post. The fake Discord enforces Discord's rate limits here
(``fake_discord.ratelimits``: 5 per bucket per 5 s, 50 a second in all, 429 beyond): the
catch-up must never be refused, and a member's ``/roll`` sent in the middle of it must be
answered within Discord's 3 seconds, indeed as fast as on an idle bot. A burst of 429s that
Discord answers anyway (injected) is sat out and the catch-up goes on.
"""

from pathlib import Path

import pytest

from bot.cogs.conflict.transaction import start_conflict
from bot.workers.pacing import BOT_BURST, BOT_PER_SECOND
from fake_discord.backend import Limits
from fake_discord.ratelimits import RateLimits
from fake_discord.server import FakeDiscord
from fake_discord.world import FakeGuild, World, many_guilds_world
from rules.character import Character, CharacterKind
from rules.conflict import Join
from storage import Storage
from testbed.bot_env import running_bot_env
from testbed.cards import is_card

pytestmark = pytest.mark.slow

GUILDS, CHANNELS = 100, 10
DISCORD_GLOBAL = 50


def member(guild: FakeGuild, name: str) -> int:
    found = guild.member(name)
    assert found is not None
    return found.user.id


async def seed(db_path: Path, world: World) -> None:
    """A duel in every channel of every server, as a previous run of the bot left them."""
    async with await Storage.open(db_path) as storage:
        for guild in world.guilds:
            vin = Character(name="Vin", kind=CharacterKind.HERO, owner_id=member(guild, "player1"))
            thug = Character(name="Thug", kind=CharacterKind.VILLAIN, owner_id=member(guild, "narrator"))
            made = [await storage.characters.create(guild.id, sheet) for sheet in (vin, thug)]
            joins = tuple(Join(character_id=stored.id) for stored in made)
            for channel in guild.channels:
                await start_conflict(storage, guild.id, channel.id, "physical", "Hold the bridge", joins)


def boards_posted(fake: FakeDiscord) -> int:
    return sum(
        1
        for kind, message_id in fake.activity
        if kind == "create" and "interaction_metadata" not in fake.messages.get(message_id, {"x": 1})
    )


async def test_a_start_with_1000_live_conflicts_is_paced_and_answers_at_once(tmp_path: Path) -> None:
    world = many_guilds_world(GUILDS, channels=CHANNELS)
    db_path = tmp_path / "bot.sqlite3"
    await seed(db_path, world)
    limits = Limits(rate_limits=RateLimits(global_per_second=DISCORD_GLOBAL))
    async with running_bot_env(db_path, world, limits=limits) as env:
        fake = env.harness.fake
        assert await fake.wait_for(lambda: boards_posted(fake) >= 30, 10), "the catch-up did not start"
        rolled = await env.slash("/roll dice:4 label:meanwhile", user="player1")
        assert rolled.ack_latency is not None and rolled.ack_latency < 0.5, rolled.ack_latency
        assert not rolled.ephemeral and is_card(rolled.message)

        fake.inject_fault("POST", r"/channels/\d+/messages$", 429, times=3, retry_after=0.2)
        posted = boards_posted(fake)
        assert await fake.wait_for(lambda: boards_posted(fake) >= posted + 30, 10)
        assert fake.faults[-1].remaining == 0  # refused three times, sat out, and went on

        assert not env.bot.catch_up.done.is_set(), "1,000 boards take a while at this pace: still going"
        limiter = fake.rate_limiter
        assert limiter is not None and limiter.refused == []
        # At most the bucket's burst over its rate, with the login's own requests: never Discord's 50.
        assert limiter.peak_per_second <= BOT_BURST + BOT_PER_SECOND + 5 <= DISCORD_GLOBAL
        assert len(await env.storage.conflicts.live(0, 2000)) == GUILDS * CHANNELS
