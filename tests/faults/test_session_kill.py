"""kill -9 during a session: in its middle, just after a Conflict move is committed, and at its
end, just after ``/session end`` closed it and queued its recap (``session-ended``, before the
card is sent). After the restart the recap holds everything committed, and the table's card is
in the channel exactly once.

The bot runs in its own process, as in ``test_kill_points``: the fake Discord keeps every
message across the kill, and the test reads the bot's file from this process.
"""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.render.cards import card_texts
from bot.workers.session_end import recaps_of
from fake_discord.server import FakeDiscord
from storage import Storage
from storage.journal import TableSession
from storage.sql import fetch_all
from testbed.bot_env import DUEL, THUG_ATTACKS
from tests.faults.test_kill_points import Table, table_process

pytestmark = pytest.mark.slow

TITLE = "The night of the kill"
EPHEMERAL = 64


@pytest.fixture
async def table(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    """A session started, then the duel played up to the Thug's attack on Vin."""
    async with table_process(fake, tmp_path) as table:
        await table.play([("narrator", f'/session start title:"{TITLE}"'), *DUEL, THUG_ATTACKS])
        yield table


def recap_cards(table: Table) -> list[dict[str, Any]]:
    """The channel's public messages that show the session's recap."""
    return [
        m
        for m in table.fake.messages.values()
        if m["channel_id"] == str(table.channel_id)
        and not int(m.get("flags") or 0) & EPHEMERAL
        and any(TITLE in text for text in card_texts(m.get("components") or []))
    ]


async def the_session(storage: Storage, table: Table) -> TableSession:
    [session] = await storage.journal.sessions(table.guild_id, table.channel_id)
    return session


async def journal_count(table: Table) -> int:
    async with await Storage.open(table.process.db_path) as storage:
        return await storage.journal.count(await the_session(storage, table))


async def complete_and_once(table: Table) -> None:
    """The table's card is posted once and says exactly what every committed entry makes of
    the night; its outbox row names it; nothing is left to post."""
    async with await Storage.open(table.process.db_path) as storage:
        session = await the_session(storage, table)
        assert not session.open
        wanted = (await recaps_of(storage, session)).public

        async def posted() -> bool:
            return len(recap_cards(table)) == 1

        assert await table.eventually(posted, 10), table.process.log_tail()
        [card] = recap_cards(table)
        assert card_texts(card["components"]) == wanted
        unsettled = "SELECT id FROM outbox WHERE delivered_at IS NULL"
        assert not await fetch_all(storage.database.reader, unsettled)
        named = "SELECT id FROM outbox WHERE message_id = ?"
        assert len(await fetch_all(storage.database.reader, named, (int(card["id"]),))) == 1


async def test_a_kill_after_a_move_is_committed_loses_nothing_of_the_night(table: Table) -> None:
    before = await journal_count(table)
    prompt, _ = table.harness.find_component("Don't defend", table.harness.member("player1"))
    click = await table.crash("after-commit", table.click("Don't defend", "player1", prompt))
    assert click.response is None
    await table.restart(table.shown_once)
    assert await journal_count(table) > before  # the killed move's entries were committed with it
    warned = await table.harness.send(table.typed("/session end", "narrator"))
    assert warned.ephemeral and "still running" in warned.content, warned.text  # the duel goes on
    ended = await table.harness.send(table.click("End the session anyway", "narrator", warned.message))
    assert ended.response is not None and not ended.errors, ended.text
    await complete_and_once(table)
    public = "\n".join(card_texts(recap_cards(table)[0]["components"]))
    assert "A physical Conflict began, for A brawl" in public
    assert "The physical Conflict for A brawl was still running when the session ended" in public


async def test_a_kill_after_the_session_ended_posts_its_recap_once(table: Table) -> None:
    await table.play([("narrator", "/conflict end")])
    ended = await table.crash("session-ended", table.typed("/session end", "narrator"))
    assert ended.response is None and recap_cards(table) == []

    async def closed(storage: Storage) -> None:
        assert not (await the_session(storage, table)).open  # its end was committed before the kill

    await table.restart(closed)
    await complete_and_once(table)
    again = await table.harness.send(table.typed("/session end", "narrator"))
    assert again.ephemeral and "No session is open" in again.content
    assert len(recap_cards(table)) == 1
