"""The recap card reaches the table through the outbox, once: a session the quiet closes posts
it, and ``/session end`` answers with the very card its transaction queued, through the real
dispatch (docs/architecture.md, "Sessions")."""

from collections.abc import Sequence
from datetime import timedelta

import pytest

from bot.workers import session_end
from bot.workers.session_end import Recaps
from bot.workers.upkeep import Upkeep
from fake_discord.payloads import JSON
from rules.journal import EntryKind, JournalEntry
from storage import Storage
from storage.journal import TableSession
from storage.places import Origin
from storage.sql import fetch_all, utc_now
from testbed.bot_env import BotEnv
from tests.bot.cogs.requests.test_requests import request_message, roll
from tests.bot.cogs.requests.test_requests import table as request_table
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL, card_text, journal_of


def recaps_in(env: BotEnv, title: str) -> list[JSON]:
    """The channel's public messages that show the recap of ``title``."""
    channel = str(env.world.guild.channels[0].id)
    return [
        m
        for m in env.harness.fake.messages.values()
        if m["channel_id"] == channel
        and not int(m.get("flags") or 0) & EPHEMERAL
        and f"The night's recap: {title}" in card_text(m)
    ]


async def settled(env: BotEnv) -> None:
    await env.bot.catch_up.done.wait()
    await env.bot.conflicts.outbox.idle()


async def unsettled(env: BotEnv) -> list[int]:
    rows = await fetch_all(env.storage.database.reader, "SELECT id FROM outbox WHERE delivered_at IS NULL")
    return [int(row[0]) for row in rows]


async def test_the_quiet_posts_the_tables_recap_once(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash('/session start title:"Forgotten"')
    await env.slash("/roll dice:3 label:Q9-SEEN", user="player1")
    await env.slash("/gmroll dice:5 label:Q9-SECRET")
    now = utc_now()
    wake = env.bot.conflicts.outbox.wake
    await Upkeep(env.storage, 90, 12, clock=lambda: now + timedelta(hours=11), wake=wake).prune()
    await settled(env)
    assert recaps_in(env, "Forgotten") == []
    late = Upkeep(env.storage, 90, 12, clock=lambda: now + timedelta(hours=12, minutes=1), wake=wake)
    await late.prune()
    await settled(env)
    [card] = recaps_in(env, "Forgotten")
    text = card_text(card)
    assert "Q9-SEEN" in text and "Q9-SECRET" not in text and "**Rolls** (1)" in text
    assert "Closed by itself after 12 hours of quiet" in text
    assert "The Narrator's full recap: `/session recap`" in text
    await late.prune()  # a second pass closes nothing and posts nothing
    await env.restart()
    await settled(env)
    assert len(recaps_in(env, "Forgotten")) == 1 and await unsettled(env) == []
    narrators = await env.slash("/session recap")
    full = card_text(narrators.messages[0])
    assert "**Rolls** (2)" in full and "Closed by itself" in full  # the /gmroll counts in the Narrator's


async def test_a_quiet_close_saved_before_a_crash_is_posted_after_the_restart(bot_env: BotEnv) -> None:
    """The upkeep's transaction closed the session and queued its card; the process died before
    the outbox posted it (no ``wake``): the next start posts it, once."""
    env = bot_env
    await env.slash('/session start title:"Cut short"')
    await env.slash("/roll dice:3 label:Q9-LAST", user="player1")
    now = utc_now()
    await Upkeep(env.storage, 90, 12, clock=lambda: now + timedelta(hours=13)).prune()
    assert recaps_in(env, "Cut short") == [] and len(await unsettled(env)) == 1
    status = await env.slash("/session status", user="player1")
    assert "No session is open" in status.content
    await env.restart()
    await settled(env)
    [card] = recaps_in(env, "Cut short")
    assert "Q9-LAST" in card_text(card) and await unsettled(env) == []


async def test_session_end_answers_with_the_queued_card_and_never_again(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash('/session start title:"Told once"')
    await env.slash("/roll dice:3 label:Q9-ROLL", user="player1")
    ended = await env.slash("/session end")
    public, private = ended.messages[0], ended.messages[-1]
    assert "`/session recap`" in card_text(public) and int(private.get("flags") or 0) & EPHEMERAL
    await settled(env)
    [card] = recaps_in(env, "Told once")
    assert card["id"] == public["id"] and await unsettled(env) == []
    await env.restart()
    await settled(env)
    assert len(recaps_in(env, "Told once")) == 1


async def test_a_request_and_its_closing_are_the_nights_and_a_secret_ones_the_narrators(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    await request_table(env)
    await env.slash('/session start title:"Asked"')
    await env.slash('/request roll stat:Charm difficulty:2 heroes:"Vin, Elend"')
    await roll(env, "player1", "Vin")
    closed = await env.harness.click("Close", message=request_message(env), user="narrator")
    assert closed.response_type == 7, closed.text
    await env.slash('/request roll stat:Charm heroes:"Elend" secret:true')
    ended = await env.slash("/session end")
    public, private = card_text(ended.messages[0]), card_text(ended.messages[-1])
    asked = "The Narrator asked for a Charm roll from Vin, Elend (Difficulty 2)."
    shut = (
        "The Narrator closed the request for a Charm roll from Vin, Elend (Difficulty 2); Elend never rolled."
    )
    secret = "The Narrator asked for a Charm roll from Elend (Difficulty 1). (secret)"
    assert asked in public and shut in public and "from Elend (Difficulty 1)" not in public
    assert asked in private and shut in private and secret in private
    players = journal_of(env, await env.slash("/session journal", user="player2"))
    assert players.index(asked) < players.index("For the Narrator's request") < players.index(shut)
    assert "from Elend (Difficulty 1)" not in players
    assert secret in journal_of(env, await env.slash("/session journal"))


async def test_an_entry_committed_while_the_recap_was_read_is_in_it(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A roll stamped before the end but committed just after the recap was read: the closing
    transaction sees the count moved, and the card is read again with it."""
    env = bot_env
    await env.slash('/session start title:"Busy"')
    channel = env.world.guild.channels[0].id
    read = session_end.recaps_of
    late: list[str] = []

    async def then_a_roll(
        storage: Storage,
        session: TableSession,
        quiet_hours: float | None = None,
        closing: Sequence[JournalEntry] = (),
    ) -> Recaps:
        recaps = await read(storage, session, quiet_hours, closing)
        if not late:
            late.append("Q9-LATE")
            line = "player1 rolled Q9-LATE"
            entry = JournalEntry(
                at=session.started_at + timedelta(microseconds=1),
                kind=EntryKind.ROLL,
                text=line,
                public=line,
                outcome=2,
            )
            await storage.journal.add(env.guild_id, Origin(channel_id=channel), [entry])
        return recaps

    monkeypatch.setattr(session_end, "recaps_of", then_a_roll)
    ended = await env.slash("/session end")
    assert "Q9-LATE" in card_text(ended.messages[0]) and "**Rolls** (1)" in card_text(ended.messages[0])
