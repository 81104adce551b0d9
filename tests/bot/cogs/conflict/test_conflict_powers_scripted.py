"""Fights of the Powers scripted through the real dispatch (docs/rulings.md §9.2, §9.3, §9.5):
a Coinshot's coin against a Thug on flared Pewter, an Inquisitor whose Steel spike adds to its
Steel, and a Pewterarm who runs dry and collapses."""

from rules.character import CharacterKind, Resilience
from rules.character.stats import resilience_max
from testbed.bot_env import BotEnv, board_message, refused
from testbed.cards import card_text
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, make, thug
from tests.bot.cogs.powers.test_emotion_rolls import Faces


async def test_a_coin_at_a_thug_on_flared_pewter_meets_his_flared_rating(bot_env: BotEnv) -> None:
    """§9.3: a coin is +1; Pewter adds its rating to Physique, and so to Health, flared +1 (6):
    the Thug's full defence from Physique is 5 + 6 Defense Dice, and his Health 11 + Resources 4,
    of which the coin takes 1 + 1."""
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, ["Pewter"])
    await env.play(
        [
            *gathering("player1", "Kel"),
            ("narrator", "/burn metal:Pewter flare:true who:Thug"),
        ]
    )
    guard = await env.slash("/declare who:Thug action:full-defence stat:Physique", user="narrator")
    assert not refused(guard), guard.content
    assert "11 Defense Dice — Physique 5 + Pewter 5 + Flared 1" in str(guard.messages)
    await env.play([("player1", "/burn metal:Steel")])
    declared = await env.slash("/declare action:attack target:Thug stat:Steel push:small", user="player1")
    assert not refused(declared), declared.content
    acted = await env.slash("/act dice:3", user="player1")
    assert not refused(acted), acted.content
    rolled = await env.slash('/defend dice:2 attacker_faces:"5 5 1" faces:"1 2"', user="narrator")
    assert not refused(rolled), rolled.content
    said = str(rolled.messages)
    assert "pushed small object 1" in said, said
    sheet = (await env.storage.characters.get_by_name(env.guild_id, "Thug")).character
    assert sheet.damage.get(Resilience.HEALTH) == 1 + 1
    assert resilience_max(sheet, Resilience.HEALTH) == 15


async def test_an_inquisitors_steel_spike_adds_to_its_steel_past_10_as_free_nudges(bot_env: BotEnv) -> None:
    """§9.5: a Steel spike stealing Steel adds its rating to the Steel already held (5 + 7 = 12
    Action Dice, which a Conflict keeps uncapped, §4, a pool taking at most 10 of them); §9.1: on
    a roll the 2 past 10 become free Nudges (no 6 thrown, 2 Nudges)."""
    env = bot_env
    await make(env, "Kel", "player1", [])
    spike = {"metal": "Steel", "power": "Steel", "rating": 7}
    await make(
        env, "Inquisitor", "narrator", ["Steel"], kind=CharacterKind.VILLAIN, hemalurgy={"spikes": [spike]}
    )
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"The keep"'),
            ("player1", "/character use name:Kel"),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Inquisitor"),
            ("narrator", "/conflict begin"),
            ("narrator", "/burn metal:Steel who:Inquisitor"),
            ("player1", "/declare action:no-roll"),
        ]
    )
    declared = await env.slash(
        "/declare who:Inquisitor action:attack target:Kel stat:Steel push:small", user="narrator"
    )
    assert not refused(declared), declared.content
    assert "12 Action Dice — Steel 5 + Steel spike 7" in str(declared.messages)
    acted = await env.slash("/act who:Inquisitor dice:10", user="narrator")
    assert not refused(acted), acted.content
    rolled = await env.slash("/defend dice:0", user="player1")
    assert not refused(rolled), rolled.content
    assert "with 10 dice" in str(acted.messages)
    env.bot.rng = Faces(2, 2, 3, 3, 4, 4, 1, 1, 2, 3)
    outside = await env.slash("/roll stat:Steel character:Inquisitor", user="narrator")
    assert outside.message is not None, outside.content
    assert "**Pool:** 10 dice" in card_text(outside.message)
    assert "**Nudges:** 2" in card_text(outside.message)


async def test_a_pewterarm_runs_dry_as_time_moves_on_and_collapses(bot_env: BotEnv) -> None:
    """§9.2: a burn the Conflict paid for cannot run dry in it, but time the Narrator moves on
    (`/power time`) drains Pewter like any other; its end leaves Health (8) under the 10 taken
    while Pewter held it at 12, so Ham collapses and his Tin goes out with it. Only the
    Conflict's own blows defeat a fighter in it: he stays in, burning nothing, for the Narrator
    to take out."""
    env = bot_env
    reserves = [{"metal": "Pewter", "charges": 2}, {"metal": "Tin", "charges": 3}]
    await make(env, "Ham", "player1", ["Pewter", "Tin"], allomancy={"reserves": reserves, "tracked": True})
    await thug(env, [])
    await env.play(
        [
            *gathering("player1", "Ham"),
            ("player1", "/burn metal:Pewter"),
            ("player1", "/burn metal:Tin"),
            ("narrator", "/sheet damage amount:10 name:Ham"),
        ]
    )
    lit = (await env.storage.characters.get_by_name(env.guild_id, "Ham")).character
    assert set(lit.allomancy.burning) == {"Pewter", "Tin"} and lit.damage.get(Resilience.HEALTH) == 10
    dry = await env.slash("/power time minutes:10 name:Ham", user="narrator")
    assert not refused(dry), dry.content
    said = str(dry.messages)
    assert "Ham's Pewter runs out." in said and "Pewter fades and Ham collapses: no Health left." in said
    ham = (await env.storage.characters.get_by_name(env.guild_id, "Ham")).character
    assert ham.allomancy.burning == () and ham.allomancy.charges("Tin") == 1  # Tin had charge to spare
    await env.bot.conflicts.idle()
    row = next(r for r in card_text(await board_message(env)).splitlines() if r.startswith("**Ham**"))
    assert "Health 0/8" in row and "burning" not in row and "defeated" not in row, row
