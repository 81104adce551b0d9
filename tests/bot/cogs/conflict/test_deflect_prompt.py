"""Deflecting from the defence prompt through the real dispatch (docs/rulings.md §9.3, §9.7): a
Lurcher facing a pushed coin picks "Deflect with N" in the prompt's menu, the move of ``/defend
deflect:true``; Reflect Ranged Attack sends the coin back; nobody else is offered it."""

from rules.character import CharacterKind, Resilience, make_character
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.prompts import labels, latest_ping
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, make, thug

DEFLECT_MENU = "Deflect with Iron…"


async def lurcher_faces_a_coin(env: BotEnv, stunts: list[str], burn: bool = True, act: str = "") -> None:
    iron = [{"type": "allomancy", "name": "Iron", "rating": 4, "stunts": stunts}]
    lurcher = make_character(
        name="Lurcher",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player2"),
        powers=iron,
        attributes={"physique": 4, "charm": 3, "wits": 5},
        standings={"resources": 4, "influence": 3, "spirit": 3},
    )
    await env.storage.characters.create(env.guild_id, lurcher)
    await thug(env, ["Steel"])
    await env.play(
        [
            *gathering("player2", "Lurcher"),
            ("narrator", "/burn metal:Steel who:Thug"),
            *([("player2", "/burn metal:Iron")] if burn else []),
            ("narrator", "/declare who:Thug action:attack target:Lurcher stat:Steel push:small"),
            ("player2", "/declare action:defence stat:Physique"),
            ("narrator", act or "/act who:Thug dice:5"),
        ]
    )
    await env.bot.conflicts.idle()


async def test_a_lurcher_deflects_from_the_prompt(bot_env: BotEnv) -> None:
    env = bot_env
    await lurcher_faces_a_coin(env, [])
    prompt = latest_ping(env, "player2")
    assert DEFLECT_MENU in labels(prompt)
    stranger = await env.harness.select(DEFLECT_MENU, ["Deflect with 2"], message=prompt, user="player1")
    assert refused(stranger) and "player or a Narrator" in stranger.content
    picked = await env.harness.select(DEFLECT_MENU, ["Deflect with 2"], message=prompt, user="player2")
    assert not refused(picked), picked.content
    assert "deflecting with Iron" in picked.text, picked.text
    assert "Lurcher** defends with 2 Defense Dice" in picked.text, picked.text


async def test_reflect_ranged_attack_sends_the_coin_back_at_the_thug(bot_env: BotEnv) -> None:
    """§9.7, our numbers: won with 2 Nudges, the coin strikes the Thug for 1 + its 1, less his
    armour (none); the dice given at the table, the attacker's after the defence (§7.2)."""
    env = bot_env
    await env.slash("/setup table-dice allowed:on", user="narrator")
    await lurcher_faces_a_coin(env, ["Reflect Ranged Attack"], act="/act who:Thug dice:5 table_dice:true")
    deflected = await env.slash('/defend dice:4 deflect:true faces:"5 5 6 6"', user="player2")
    assert not refused(deflected), deflected.content
    await env.bot.conflicts.idle()
    opened = await env.harness.click("Type my dice…", message=latest_ping(env, "narrator"), user="narrator")
    assert opened.modal is not None, opened.content
    thrown = await env.harness.submit({"faces": "3 3 1 1 1"}, user="narrator")
    assert "Lurcher** sends the deflected attack back: **Thug** takes 2 damage" in thrown.text, thrown.text
    stored = await env.storage.characters.get_by_name(env.guild_id, "Thug")
    assert stored.character.damage.get(Resilience.HEALTH) == 2


async def test_a_typed_burn_offers_the_deflection_on_the_waiting_defence(bot_env: BotEnv) -> None:
    """The prompt is asked again when the defender lights Iron by command (§9.2, §9.3)."""
    env = bot_env
    await lurcher_faces_a_coin(env, [], burn=False)
    assert DEFLECT_MENU not in labels(latest_ping(env, "player2"))
    burnt = await env.slash("/burn metal:Iron", user="player2")
    assert not refused(burnt), burnt.content
    await env.bot.conflicts.idle()
    assert DEFLECT_MENU in labels(latest_ping(env, "player2"))


async def test_an_unlit_lurcher_burns_iron_from_the_defence_prompt_then_deflects(bot_env: BotEnv) -> None:
    """§9.2, §9.3: the defence prompt offers the metal that would deflect, and after the click the
    deflection; two picks, nothing typed. Only the defender's player may click it."""
    env = bot_env
    await lurcher_faces_a_coin(env, [], burn=False)
    prompt = latest_ping(env, "player2")
    assert "Burn Iron" in labels(prompt) and DEFLECT_MENU not in labels(prompt)
    assert "Burn Iron to deflect it" in str(prompt.get("content"))
    stranger = await env.harness.click("Burn Iron", message=prompt, user="player1")
    assert refused(stranger) and "Lurcher's player or a Narrator" in stranger.content
    burnt = await env.harness.click("Burn Iron", message=prompt, user="player2")
    assert not refused(burnt), burnt.content
    await env.bot.conflicts.idle()
    again = latest_ping(env, "player2")
    assert DEFLECT_MENU in labels(again) and "Burn Iron" not in labels(again)
    picked = await env.harness.select(DEFLECT_MENU, ["Deflect with 2"], message=again, user="player2")
    assert "deflecting with Iron" in picked.text, picked.text


async def test_no_deflection_against_a_blow_that_is_no_metal(bot_env: BotEnv) -> None:
    env = bot_env
    iron = [{"type": "allomancy", "name": "Iron", "rating": 4}]
    lurcher = make_character(
        name="Lurcher",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player2"),
        powers=iron,
        attributes={"physique": 3, "charm": 3, "wits": 5},
        standings={"resources": 4, "influence": 3, "spirit": 3},
    )
    await env.storage.characters.create(env.guild_id, lurcher)
    await thug(env, [])
    await env.play(
        [
            *gathering("player2", "Lurcher"),
            ("player2", "/burn metal:Iron"),
            ("narrator", "/declare who:Thug action:attack target:Lurcher stat:Physique"),
            ("player2", "/declare action:defence stat:Physique"),
            ("narrator", "/act who:Thug dice:5"),
        ]
    )
    await env.bot.conflicts.idle()
    assert DEFLECT_MENU not in labels(latest_ping(env, "player2"))


async def test_no_burn_is_offered_against_a_blow_that_is_no_metal(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, "Lurcher", "player2", ["Iron"])
    await thug(env, [])
    await env.play(
        [
            *gathering("player2", "Lurcher"),
            ("narrator", "/declare who:Thug action:attack target:Lurcher stat:Physique"),
            ("player2", "/declare action:defence stat:Physique"),
            ("narrator", "/act who:Thug dice:5"),
        ]
    )
    await env.bot.conflicts.idle()
    prompt = latest_ping(env, "player2")
    assert "Defend with 2" in labels(prompt) and "Burn Iron" not in labels(prompt)


async def test_a_hidden_villain_deflects_from_the_narrators_private_prompt(bot_env: BotEnv) -> None:
    """§7.1: the public prompt does not tell the table the Thug burns Iron; **Its dice
    (Narrator)** offers the deflection privately, and picking it makes the move."""
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, ["Iron"])
    await env.play(
        [
            *gathering("player1", "Kel"),
            ("player1", "/burn metal:Steel"),
            ("narrator", "/burn metal:Iron who:Thug"),
            ("narrator", "/declare who:Thug action:defence stat:Physique"),
            ("player1", "/declare action:attack target:Thug stat:Steel push:small"),
            ("player1", "/act dice:4"),
        ]
    )
    await env.bot.conflicts.idle()
    prompt = latest_ping(env, "narrator")
    assert "Deflect with Iron…" not in labels(prompt) and "Iron" not in str(prompt.get("content"))
    private = await env.harness.click("Its dice (Narrator)", message=prompt, user="narrator")
    assert private.ephemeral and private.message is not None, private.content
    assert DEFLECT_MENU in labels(private.message)
    picked = await env.harness.select(
        DEFLECT_MENU, ["Deflect with 2"], message=private.message, user="narrator"
    )
    assert "deflecting with Iron" in str(picked.followups) + picked.text, picked.messages


async def test_a_busy_lurcher_reacting_with_a_trait_deflects_with_iron_and_the_trait(bot_env: BotEnv) -> None:
    """§4.11, §9.3: busy elsewhere, the Lurcher's Defense Dice come from Iron 4 (+1 die for the
    Trait picked), offered in the Traits menu's private answer."""
    env = bot_env
    iron = [{"type": "allomancy", "name": "Iron", "rating": 4}]
    lurcher = make_character(
        name="Lurcher",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player2"),
        powers=iron,
        attributes={"physique": 2, "charm": 3, "wits": 5},
        standings={"resources": 4, "influence": 3, "spirit": 3},
        traits={"specialty": "coin dodger"},
    )
    await env.storage.characters.create(env.guild_id, lurcher)
    await thug(env, ["Steel"])
    await env.play(
        [
            *gathering("player2", "Lurcher"),
            ("narrator", "/burn metal:Steel who:Thug"),
            ("player2", "/burn metal:Iron"),
            ("narrator", "/declare who:Thug action:attack target:Lurcher stat:Steel push:small"),
            ("player2", "/declare action:no-roll"),
            ("narrator", "/act who:Thug dice:5"),
        ]
    )
    await env.bot.conflicts.idle()
    prompt = latest_ping(env, "player2")
    menu = "React with Traits (+1 die each)…"
    reacted = await env.harness.select(menu, ["coin dodger"], message=prompt, user="player2")
    assert reacted.message is not None, reacted.content
    assert "Deflect with Iron…" in labels(reacted.message)
    options = [
        o["label"]
        for row in reacted.message["components"]
        for c in row["components"]
        for o in c.get("options", [])
    ]
    assert options[-1] == "Deflect with 5"  # Iron 4 + the Trait's die
    picked = await env.harness.select(
        "Deflect with Iron…", ["Deflect with 5"], message=reacted.message, user="player2"
    )
    said = picked.text + str(picked.followups)
    assert "deflecting with Iron" in said, said
