"""A typed ``/burn`` asks the turn's prompt again as the Burn button does (docs/rulings.md §9.2):
the old prompt's buttons would be stale."""

from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.prompts import labels, latest_ping
from tests.bot.cogs.conflict.test_conflict_pushes import gathering

STATS = {
    "attributes": {"physique": 4, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}


async def test_typed_burns_ask_the_prompt_again_with_the_new_choices(bot_env: BotEnv) -> None:
    env = bot_env
    powers = [{"type": "allomancy", "name": "Pewter", "rating": 5}]
    kel = make_character(
        name="Kel", kind=CharacterKind.HERO, owner_id=env.user_id("player1"), powers=powers, **STATS
    )
    await env.storage.characters.create(env.guild_id, kel)
    await env.play(
        [
            ("narrator", "/character create name:Thug template:thug"),
            *gathering("player1", "Kel"),
            ("narrator", "/declare who:Thug action:no-roll"),
        ]
    )
    await env.bot.conflicts.idle()
    assert "Burn Pewter" in labels(latest_ping(env, "player1"))
    steps = (
        ("/burn metal:Pewter", ["Flare Pewter", "Stop burning Pewter"]),
        ("/burn metal:Pewter flare:true", ["Stop flaring Pewter", "Stop burning Pewter"]),
        ("/burn metal:Pewter burning:false", ["Burn Pewter"]),
    )
    for line, offered in steps:
        typed = await env.slash(line, user="player1")
        assert not refused(typed), typed.content
        await env.bot.conflicts.idle()
        shown = [label for label in labels(latest_ping(env, "player1")) if "Pewter" in label]
        assert shown == offered, shown
