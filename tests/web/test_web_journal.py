"""The web view's "Sessions" pages: the list, and each night's journal in the reader's version
(the Narrator's full one, a player's as the table saw it), behind the view's own session rule."""

from testbed.bot_env import BotEnv, fight_in_a_session_thread
from tests.bot.cogs.sessions.test_sessions import SECRETS, night
from tests.web.support import logged_in, web_client


async def pages(env: BotEnv, user: str, *, narrator: bool) -> tuple[str, str]:
    [session] = await env.storage.journal.sessions(env.guild_id)
    async with web_client(env) as client:
        await logged_in(client, env, user, narrator=narrator)
        listed = await client.get(f"/g/{env.guild_id}/sessions")
        assert listed.status == 200
        journal = await client.get(f"/g/{env.guild_id}/sessions/{session.id}")
        assert journal.status == 200
        return await listed.text(), await journal.text()


async def test_the_narrator_reads_every_secret_and_a_player_none(bot_env: BotEnv) -> None:
    env = bot_env
    await night(env)
    listed, full = await pages(env, "narrator", narrator=True)
    assert "The alley" in listed and "the Narrator's version" in full
    _, player = await pages(env, "player1", narrator=False)
    assert "A physical Conflict began, for A brawl in the alley" in player
    for secret, (_, words) in SECRETS.items():
        assert words in full, secret
        assert words not in player, secret


async def test_no_cookie_or_no_such_session_gets_nothing(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash('/session start title:"<b>Loud</b>"')
    await env.slash("/session end")
    [session] = await env.storage.journal.sessions(env.guild_id)
    async with web_client(env) as client:
        assert (await client.get(f"/g/{env.guild_id}/sessions")).status == 403
        assert (await client.get(f"/g/{env.guild_id}/sessions/{session.id}")).status == 403
        await logged_in(client, env, "player1", narrator=False)
        listed = await (await client.get(f"/g/{env.guild_id}/sessions")).text()
        assert "&lt;b&gt;Loud&lt;/b&gt;" in listed and "<b>Loud</b>" not in listed
        assert (await client.get(f"/g/{env.guild_id}/sessions/999999")).status == 404


async def test_a_conflict_in_its_own_thread_reads_back_under_its_channels_session(bot_env: BotEnv) -> None:
    """A fight run in a thread files under the parent channel's session (docs/architecture.md,
    "Sessions"): the web page of that session tells it, from the first round to its end."""
    env = bot_env
    await fight_in_a_session_thread(env)
    await env.slash("/roll dice:3 label:Q9-IN-THREAD", user="player1")
    await env.slash("/conflict end")
    await env.bot.conflicts.idle()
    env.harness.channel = env.world.guild.channels[0]
    await env.slash("/session end")
    for user, narrator in (("player1", False), ("narrator", True)):
        listed, page = await pages(env, user, narrator=narrator)
        assert "Threaded" in listed
        began = page.index("A physical Conflict began, for A brawl")
        assert began < page.index("Q9-IN-THREAD") < page.index("Narrator ended the Conflict"), page
