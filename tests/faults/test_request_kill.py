"""kill -9 just after a request's roll is saved and its roller answered, before the request's
message is edited (docs/rulings.md §6.13): after the restart the roll's card is in the channel
once, and the request's message has caught up with what is saved (the roller shown as rolled,
their button gone) within :data:`CAUGHT_UP_WITHIN` of the bot being ready, however much else it
has to catch up: here the boards of a hundred live Conflicts in the server's other channels.

The bot runs in its own process, as in ``test_kill_points``.
"""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.conflict.transaction import start_conflict
from bot.render.cards import card_texts
from fake_discord.process import BotProcess, RemoteHarness
from fake_discord.server import FakeDiscord
from fake_discord.world import many_guilds_world
from rules.conflict import Join
from storage import Storage
from tests.faults.test_kill_points import KILLED, Table

pytestmark = pytest.mark.slow

CAUGHT_UP_WITHIN = 4.0
"""Seconds after the bot is ready by which the request's message shows the saved roll."""
FIGHTS = 100
"""Live Conflicts elsewhere in the server, whose boards the restarted bot redraws meanwhile."""
JSON = dict[str, Any]


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    """Vin at the table, the Narrator's request for a Physique roll waiting for her, and a fight
    in each of the server's other channels."""
    fake = FakeDiscord(many_guilds_world(1, channels=FIGHTS + 1))
    await fake.start()
    process = BotProcess(fake, tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log", seed=11)
    try:
        await process.start()
        harness = RemoteHarness(fake, process)
        harness.idle = 0.05
        table = Table(harness)
        await table.play(
            [
                ("player1", "/character create name:Vin physique:3 charm:4 wits:5"),
                ("narrator", "/character create name:Thug kind:Villain physique:5"),
                ("narrator", "/request roll stat:Physique difficulty:2 heroes:Vin"),
            ]
        )
        yield table
        assert not fake.violations, fake.violations
    finally:
        await process.kill()
        await fake.stop()


async def fights_elsewhere(table: Table) -> None:
    """A Conflict in every other channel, written while the bot is down (its boards not drawn)."""
    async with await Storage.open(table.process.db_path) as storage:
        cast = [await storage.characters.get_by_name(table.guild_id, name) for name in ("Vin", "Thug")]
        joins = tuple(Join(character_id=stored.id) for stored in cast)
        for channel in table.harness.world.guild.channels[1:]:
            await start_conflict(storage, table.guild_id, channel.id, "physical", "Hold the bridge", joins)


def request_message(table: Table) -> JSON:
    found = [
        m
        for m in table.fake.messages.values()
        if any("The Narrator asks" in text for text in card_texts(m.get("components") or []))
    ]
    assert found, "no request message"
    return table.fake.messages[int(found[-1]["id"])]


def roll_cards(table: Table) -> list[JSON]:
    return [
        m
        for m in table.fake.messages.values()
        if any("For the Narrator's request" in text for text in card_texts(m.get("components") or []))
        and not int(m.get("flags") or 0) & 64
    ]


def buttons(message: JSON) -> list[str]:
    found: list[str] = []

    def walk(components: list[JSON]) -> None:
        for component in components:
            if component.get("type") == 2:
                found.append(str(component.get("label")))
            walk(list(component.get("components") or []))

    walk(list(message.get("components") or []))
    return found


async def test_a_roll_saved_just_before_a_kill_shows_on_the_request_soon_after_the_restart(
    table: Table,
) -> None:
    asked = request_message(table)
    assert "Roll — Vin" in buttons(asked)
    opened = await table.harness.send(table.click("Roll — Vin", "player1", asked))
    builder = opened.message
    assert builder is not None, opened.text
    go = next(label for label in buttons(builder) if label.startswith("Roll"))
    await table.process.control("crash-at request-rolled")
    rolled = await table.fake.send_interaction(table.click(go, "player1", builder))
    assert await table.process.exited() == KILLED, table.process.log_tail()
    assert rolled.response is not None  # the roller saw their roll
    assert "Roll — Vin" in buttons(request_message(table))  # the request's message lags what is saved
    await fights_elsewhere(table)

    await table.process.start()
    loop = asyncio.get_running_loop()
    ready = loop.time()

    async def caught_up() -> bool:
        return "Roll — Vin" not in buttons(request_message(table))

    assert await table.eventually(caught_up, CAUGHT_UP_WITHIN), table.process.log_tail()
    assert loop.time() - ready <= CAUGHT_UP_WITHIN
    assert await table.eventually(lambda: _true(len(roll_cards(table)) == 1), 5), len(roll_cards(table))
    async with await Storage.open(table.process.db_path) as storage:
        request = await storage.requests.get(table.guild_id, 1)
        assert request is not None and request.rollers[0].rolled


async def _true(value: bool) -> bool:
    return value
