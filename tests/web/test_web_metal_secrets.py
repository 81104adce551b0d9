"""A hidden Villain's metals stay the Narrator's (docs/rulings.md §7.1, §9.9), through the real
dispatch: what it burns and the charges it pays reach neither a player's web view nor the
table's recap of the night (the recap keeps no metals; the journal's line for them is the
Narrator's only), while the Narrator's web view shows them."""

from rules.character import CharacterKind
from rules.journal import NARRATOR, TABLE, EntryKind, line_for
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, make
from tests.bot.cogs.sessions.test_sessions import card_text
from tests.bot.cogs.sessions.test_sessions_recap_posted import recaps_in, settled
from tests.web.support import logged_in, table_channel, web_client


async def web_data(env: BotEnv, user: str, *, narrator: bool) -> str:
    async with web_client(env) as client:
        await logged_in(client, env, user, narrator=narrator, channel_id=table_channel(env))
        return await (await client.get(f"/g/{env.guild_id}/data")).text()


async def test_a_hidden_villains_metals_stay_out_of_the_recap_and_a_players_web_view(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    reserves = {"reserves": [{"metal": "Pewter", "charges": 4}], "tracked": True}
    await make(env, "Thug", "narrator", ["Pewter"], kind=CharacterKind.VILLAIN, allomancy=reserves)
    for user, line in [
        ("narrator", '/session start title:"Q41 metals"'),
        *gathering("player1", "Kel"),
        ("narrator", "/burn metal:Pewter flare:true who:Thug"),
        ("player1", "/burn metal:Steel"),
    ]:
        reply = await env.slash(line, user=user)
        assert not refused(reply), (line, reply.content)
    thug = (await env.storage.characters.get_by_name(env.guild_id, "Thug")).character
    assert thug.allomancy.charges("Pewter") == 3 and thug.allomancy.flared == ("Pewter",)
    assert "Pewter" in await web_data(env, "narrator", narrator=True)
    seen = await web_data(env, "player1", narrator=False)
    assert "Thug" in seen and "Pewter" not in seen and "Steel" in seen  # Kel's own burn shows
    await env.play([("narrator", "/conflict end")])
    ended = await env.slash("/session end", user="narrator")
    assert not refused(ended), ended.content
    await settled(env)
    [recap] = recaps_in(env, "Q41 metals")
    assert "Pewter" not in card_text(recap)
    asked = await env.slash("/session recap", user="player1")
    assert not refused(asked) and all("Pewter" not in card_text(m) for m in asked.messages)
    thug_id = (await env.storage.characters.get_by_name(env.guild_id, "Thug")).id
    story = [s.entry for s in await env.storage.journal.of_character(env.guild_id, thug_id)]
    metals = [e for e in story if e.kind is EntryKind.METALS]
    assert metals and all(line_for(e, TABLE) is None for e in metals)
    assert any("Pewter" in (line_for(e, NARRATOR) or "") for e in metals)
