"""``/power sense`` through the real dispatch (docs/rulings.md §9.3): a Seeker feels who burns
what in the channel's Conflict, privately; a hidden Villain's metals are the Narrator's (§7.1)."""

from rules.character import CharacterKind
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.powers.test_power_commands import make


async def test_a_seeker_feels_the_burners_a_hidden_villains_metals_to_the_narrator(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, "Marsh", ("allomancy", "Bronze", 5))
    await make(
        env, "Kel", ("allomancy", "Steel", 5), ("allomancy", "Copper", 2), owner_id=env.user_id("player2")
    )
    owner = env.user_id("narrator")
    await make(env, "Inquisitor", ("allomancy", "Iron", 6), kind=CharacterKind.VILLAIN, owner_id=owner)
    unlit = await env.slash("/power sense name:Marsh", user="player1")
    assert refused(unlit) and "must be burning Bronze" in unlit.content
    await env.play(
        [
            ("player1", "/power burn metal:Bronze name:Marsh"),
            ("player2", "/power burn metal:Steel flare:true name:Kel"),
            ("player2", "/power burn metal:Copper name:Kel"),
            ("narrator", "/power burn metal:Iron name:Inquisitor"),
            ("narrator", '/conflict start kind:physical stakes:"The keep"'),
            ("player1", "/character use name:Marsh"),
            ("player1", "/conflict join"),
            ("player2", "/character use name:Kel"),
            ("player2", "/conflict join"),
            ("narrator", "/conflict add character:Inquisitor"),
        ]
    )
    felt = await env.slash("/power sense", user="player1")
    assert felt.ephemeral, felt.content
    assert "Kel: Steel (flared), Copper — through a Copper cloud" in felt.content
    assert "Iron" not in felt.content and "The Narrator tells you" in felt.content
    told = await env.slash("/power sense name:Marsh", user="narrator")
    assert told.ephemeral and "Inquisitor: Iron" in told.content
    stranger = await env.slash("/power sense name:Marsh", user="player2")
    assert refused(stranger)
