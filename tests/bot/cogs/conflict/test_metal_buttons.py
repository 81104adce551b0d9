"""Burning, flaring and drinking from a turn's prompt through the real dispatch: the buttons do
what ``/burn`` and ``/drink`` do (docs/rulings.md §9.2), for the character's player only."""

from typing import Any

from fake_discord.payloads import JSON
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.prompts import labels, latest_ping
from tests.bot.cogs.conflict.test_conflict_pushes import gathering

STATS: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}
VIAL = {"name": "Steel vial", "implement": {"kind": "vial", "metals": ["Steel"], "charges": 3}}


async def kels_turn(env: BotEnv, allomancy: dict[str, Any], props: list[Any] | None = None) -> JSON:
    """Kel, player1's Coinshot with Steel and Pewter (``allomancy`` as given), facing a Thug who
    declared nothing: the turn prompt pinging player1."""
    kel = make_character(
        name="Kel",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        powers=[{"type": "allomancy", "name": m, "rating": 5} for m in ("Steel", "Pewter")],
        allomancy=allomancy,
        props=props or [],
        **STATS,
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
    return latest_ping(env, "player1")


async def test_a_coinshot_burns_flares_and_drinks_from_the_turn_prompt(bot_env: BotEnv) -> None:
    """The Burn and Flare buttons say the charges left, counted reserves being the table's to see
    on a shown character (docs/rulings.md §9.2, §9.10)."""
    env = bot_env
    allomancy = {
        "tracked": True,
        "reserves": [{"metal": "Steel", "charges": 5}, {"metal": "Pewter", "charges": 2}],
    }
    prompt = await kels_turn(env, allomancy, props=[VIAL])
    assert {"Drink Steel vial", "Burn Steel (5 left)", "Burn Pewter (2 left)"} <= set(labels(prompt))
    stranger = await env.harness.click("Burn Steel (5 left)", message=prompt, user="player2")
    assert refused(stranger) and "player or a Narrator" in stranger.content
    burnt = await env.harness.click("Burn Steel (5 left)", message=prompt, user="player1")
    assert not refused(burnt), burnt.content
    await env.bot.conflicts.idle()
    stored = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    assert stored.character.allomancy.burning == ("Steel",)
    assert stored.character.allomancy.charges("Steel") == 4
    again = latest_ping(env, "player1")
    assert "Flare Steel (4 left)" in labels(again)
    assert not [label for label in labels(again) if label.startswith("Burn Steel")]
    drunk = await env.harness.click("Drink Steel vial", message=again, user="player1")
    assert not refused(drunk), drunk.content
    await env.bot.conflicts.idle()
    drunk_prompt = latest_ping(env, "player1")
    assert "Flare Steel (7 left)" in labels(drunk_prompt), "the reserve is read again after the drink"
    flared = await env.harness.click("Flare Steel (7 left)", message=drunk_prompt, user="player1")
    assert not refused(flared), flared.content
    stored = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    assert stored.character.allomancy.charges("Steel") == 7
    assert stored.character.allomancy.flared == ("Steel",)


async def test_a_hidden_villains_prompt_offers_no_metals(bot_env: BotEnv) -> None:
    """The prompt is posted in the channel: a hidden Villain's Powers stay the Narrator's (§7.1)."""
    env = bot_env
    powers = [{"type": "allomancy", "name": "Steel", "rating": 5}]
    villain = make_character(
        name="Thug",
        kind=CharacterKind.VILLAIN,
        owner_id=env.user_id("narrator"),
        powers=powers,
        **{**STATS, "attributes": {"physique": 5, "charm": 2, "wits": 2}},
    )
    await env.storage.characters.create(env.guild_id, villain)
    await env.play(
        [("player1", "/character create name:Vin physique:7 charm:3 wits:4"), *gathering("player1", "Vin")]
    )
    await env.bot.conflicts.idle()
    [prompt] = [m for m in env.harness.fake.messages.values() if "**Thug** declares" in str(m.get("content"))]
    assert labels(prompt)
    assert not [label for label in labels(prompt) if label.startswith(("Burn", "Flare", "Drink"))]


async def test_the_turn_prompt_lets_a_flare_down_and_stops_a_burn(bot_env: BotEnv) -> None:
    """Saving charges takes no typing: Stop flaring and Stop burning make the moves of
    ``/burn flare:false`` and ``/burn burning:false`` (docs/rulings.md §9.2, §9.10)."""
    env = bot_env
    prompt = await kels_turn(env, {"burning": ["Steel", "Pewter"], "flared": ["Steel"]})
    offered = [label for label in labels(prompt) if label.startswith(("Flare", "Stop"))]
    assert offered == ["Flare Pewter", "Stop flaring Steel", "Stop burning Steel", "Stop burning Pewter"]
    stranger = await env.harness.click("Stop burning Pewter", message=prompt, user="player2")
    assert refused(stranger) and "player or a Narrator" in stranger.content
    eased = await env.harness.click("Stop flaring Steel", message=prompt, user="player1")
    assert not refused(eased), eased.content
    await env.bot.conflicts.idle()
    stored = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    assert stored.character.allomancy.flared == ()
    assert stored.character.allomancy.burning == ("Steel", "Pewter")
    again = latest_ping(env, "player1")
    assert "Flare Steel" in labels(again) and "Stop flaring Steel" not in labels(again)
    stopped = await env.harness.click("Stop burning Pewter", message=again, user="player1")
    assert not refused(stopped), stopped.content
    await env.bot.conflicts.idle()
    stored = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    assert stored.character.allomancy.burning == ("Steel",)
    assert "Burn Pewter" in labels(latest_ping(env, "player1"))
