"""A night longer than the recap reads (``storage.journal.MAX_ENTRIES``): the recap card says it
is built from the first entries, and the journal file and the web page have every one."""

from datetime import timedelta

from rules.journal import EntryKind, JournalEntry
from storage.journal import MAX_ENTRIES
from storage.places import Origin
from testbed.bot_env import BotEnv
from tests.bot.cogs.sessions.test_sessions import card_text, journal_of
from tests.web.test_web_journal import pages

LONG = MAX_ENTRIES + 7


async def test_a_night_longer_than_the_recap_says_so_and_the_journal_has_it_all(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash('/session start title:"The longest night"')
    channel = env.world.guild.channels[0].id
    session = await env.storage.journal.open_in(env.guild_id, channel)
    assert session is not None
    entries = [
        JournalEntry(
            at=session.started_at + timedelta(microseconds=n + 1),
            kind=EntryKind.ROLL,
            text=f"Q9 event {n:05d}",
            public=f"Q9 event {n:05d}",
            outcome=n % 7 - 3,
        )
        for n in range(LONG)
    ]
    await env.storage.journal.add(env.guild_id, Origin(channel_id=channel), entries)
    ended = await env.slash("/session end")
    cut = f"built from the first {MAX_ENTRIES:,} of {LONG:,} entries"
    for message in ended.messages:
        assert cut in card_text(message)
    again = await env.slash("/session recap", user="player1")
    assert cut in card_text(again.messages[0])
    journal = journal_of(env, await env.slash("/session journal", user="player1"))
    lines = [line for line in journal.splitlines() if "Q9 event" in line]
    assert len(lines) == LONG and lines[-1].endswith(f"Q9 event {LONG - 1:05d}")
    _, page = await pages(env, "player1", narrator=False)
    assert page.count("Q9 event") == LONG
