"""Sessions across time: a crash mid-session, a session the quiet closes, ten nights' journals, and
a 1,000-event night within Discord's limits, through the real dispatch."""

from datetime import timedelta

from bot.render.recap import CARD_TEXT
from bot.workers.upkeep import Upkeep
from rules.character import CharacterKind, make_character
from rules.journal import EntryKind, JournalEntry
from storage.places import Origin
from storage.sql import utc_now
from testbed.bot_env import BotEnv, fight_in_a_session_thread
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL, card_text, journal_of


async def vin(env: BotEnv) -> None:
    sheet = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"))
    stored = await env.storage.characters.create(env.guild_id, sheet)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), stored.id)


async def test_a_crash_mid_session_loses_nothing(bot_env: BotEnv) -> None:
    env = bot_env
    await vin(env)
    await env.slash('/session start title:"Before and after"')
    await env.slash("/roll dice:3 label:Q7-BEFORE", user="player1")
    await env.slash("/sheet damage amount:2", user="player1")
    await env.restart()  # the process dies; the database file and Discord stay
    await env.slash("/roll dice:3 label:Q7-AFTER", user="player1")
    await env.slash('/burden add burden:"Q7 limp" severity:serious', user="player1")
    ended = await env.slash("/session end")
    table = card_text(ended.messages[0])
    assert "Vin: 2 damage taken" in table and "Q7 limp" in table
    text = journal_of(env, await env.slash("/session journal", user="player1"))
    assert (
        text.index("Q7-BEFORE") < text.index("took 2 Health") < text.index("Q7-AFTER") < text.index("Q7 limp")
    )


async def test_a_forgotten_session_closes_itself_after_the_quiet(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash('/session start title:"Forgotten"')
    await env.slash("/roll dice:3 label:Q7-LAST", user="player1")
    now = utc_now()
    early = Upkeep(env.storage, 90, 12, clock=lambda: now + timedelta(hours=11))
    await early.prune()
    assert "Forgotten" in (await env.slash("/session status", user="player1")).content
    late = Upkeep(env.storage, 90, 12, clock=lambda: now + timedelta(hours=12, minutes=1))
    await late.prune()
    status = await env.slash("/session status", user="player1")
    assert status.ephemeral and "No session is open" in status.content
    journal = await env.slash("/session journal", user="player1")
    text = journal_of(env, journal)
    assert "closed by itself" in text and "Q7-LAST" in text
    recap = await env.slash("/session recap", user="player1")
    assert recap.ephemeral and "Forgotten" in card_text(recap.messages[0])
    narrators = await env.slash("/session recap")
    assert "Narrator's version" in card_text(narrators.messages[0]) and "Q7-LAST" in card_text(
        narrators.messages[0]
    )
    again = await env.slash('/session start title:"Next week"')
    assert not again.ephemeral, again.text


async def test_ten_nights_each_read_back_alone_and_in_order(bot_env: BotEnv) -> None:
    env = bot_env
    ids = []
    for night in range(1, 11):
        started = await env.slash(f'/session start title:"Night {night}"')
        ids.append(int(started.content.split("#")[1].split(" ")[0]))
        for turn in range(3):
            await env.slash(f"/roll dice:2 label:Q7-N{night}-T{turn}", user="player1")
        await env.slash("/session end")
    for night, session_id in enumerate(ids, 1):
        text = journal_of(env, await env.slash(f"/session journal session:{session_id}", user="player2"))
        assert text.startswith(f"# Night {night}\n")
        labels = [line.split("Q7-")[1].split(":")[0] for line in text.splitlines() if "Q7-" in line]
        assert labels == [f"N{night}-T{turn}" for turn in range(3)]
    missing = await env.slash("/session journal session:9999", user="player2")
    assert missing.ephemeral and "no session #9999" in missing.content


async def test_a_thousand_event_night_fits_discords_limits(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash('/session start title:"The long night"')
    kinds = [
        EntryKind.CONFLICT_ENDED,
        EntryKind.BURDEN_GAINED,
        EntryKind.CONTEST,
        EntryKind.REQUEST,
        EntryKind.ROLL,
    ]
    channel = env.world.guild.channels[0].id
    session = await env.storage.journal.open_in(env.guild_id, channel)
    assert session is not None
    entries = [
        JournalEntry(
            at=session.started_at + timedelta(microseconds=n + 1),
            kind=kinds[n % len(kinds)],
            text=f"Q7 event {n:04d} " + "x" * 150,
            public=f"Q7 event {n:04d} " + "x" * 150,
            outcome=n % 7 - 3,
        )
        for n in range(1000)
    ]
    await env.storage.journal.add(env.guild_id, Origin(channel_id=channel), entries)
    ended = await env.slash("/session end")
    for message in ended.messages:
        text = card_text(message)
        assert len(text) <= CARD_TEXT and "more in the journal" in text
    assert int(ended.messages[-1].get("flags") or 0) & EPHEMERAL
    journal = journal_of(env, await env.slash("/session journal", user="player1"))
    assert sum(1 for line in journal.splitlines() if "Q7 event" in line) == 1000


async def test_a_heros_story_spans_sessions_and_outlives_the_sheet(bot_env: BotEnv) -> None:
    env = bot_env
    await vin(env)
    for night, line in enumerate(["/sheet damage amount:2", "/edit attribute attribute:Wits value:4"], 1):
        await env.slash(f'/session start title:"Night {night}"')
        await env.slash(f"/roll dice:3 label:Q7-NIGHT{night}", user="player1")
        await env.slash(line, user="player1")
        await env.slash("/gmroll dice:3 label:Q7-GM", user="narrator")
        await env.slash("/session end")
    history = await env.slash("/sheet history", user="player1")
    story = journal_of(env, history)
    for words in ("took 2 Health damage", "Vin's sheet changed: Attributes"):
        assert words in story, story
    assert "Q7-GM" not in story  # the Narrator's secret roll is neither Vin's nor the table's
    await env.slash("/character delete name:Vin", user="player1")
    await env.harness.click("Delete", user="player1")
    [_latest, first] = await env.storage.journal.sessions(env.guild_id)
    kept = journal_of(env, await env.slash(f"/session journal session:{first.id}", user="player2"))
    assert "Vin took 2 Health damage" in kept and "Q7-NIGHT1" in kept


async def test_old_sessions_go_with_the_roll_log(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash('/session start title:"Long ago"')
    await env.slash("/roll dice:3 label:Q7-OLD", user="player1")
    await env.slash("/session end")
    now = utc_now()
    await Upkeep(env.storage, 90, 12, clock=lambda: now + timedelta(days=89)).prune()
    assert len(await env.storage.journal.sessions(env.guild_id)) == 1
    await Upkeep(env.storage, 90, 12, clock=lambda: now + timedelta(days=91)).prune()
    assert await env.storage.journal.sessions(env.guild_id) == []
    gone = await env.slash("/session journal", user="player1")
    assert gone.ephemeral and "No session" in gone.content


async def test_a_conflict_in_its_own_thread_is_the_channels_night(bot_env: BotEnv) -> None:
    env = bot_env
    await fight_in_a_session_thread(env)
    await env.harness.click("Don't defend", user="player1")
    await env.slash("/roll dice:3 label:Q7-IN-THREAD", user="player1")
    await env.slash("/conflict end")
    await env.bot.conflicts.idle()
    env.harness.channel = env.world.guild.channels[0]
    ended = await env.slash("/session end")
    recap = card_text(ended.messages[0])
    assert "A physical Conflict began, for A brawl" in recap and "Vin: " in recap, recap
    assert "Narrator ended the Conflict" in recap
    assert "Q7-IN-THREAD" in journal_of(env, await env.slash("/session journal", user="player1"))


async def test_a_hidden_villains_story_is_the_narrators(bot_env: BotEnv) -> None:
    env = bot_env
    thug = make_character(name="Thug", kind=CharacterKind.VILLAIN, owner_id=env.user_id("narrator"))
    await env.storage.characters.create(env.guild_id, thug)
    await env.slash("/sheet damage amount:2 name:Thug", user="narrator")
    refused = await env.slash("/sheet history name:Thug", user="player1")
    assert refused.ephemeral and not refused.message.get("attachments"), refused.text  # type: ignore[union-attr]
    assert "Thug took 2 Health damage" in journal_of(env, await env.slash("/sheet history name:Thug"))
