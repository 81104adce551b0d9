"""``/advancement spend``: one improvement per Long Breather, offered only when it can be bought,
checked again when made, approved by a Narrator unless the server trusts players (docs/rulings.md
§10.1), through the real dispatch."""

from bot.errors import APOLOGY
from rules.burdens import Severity
from rules.character import CharacterKind, make_character
from rules.character.advancement import Advancements
from rules.character.names import BASIC_METALS
from storage import StoredCharacter
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.sessions.test_sessions import journal_of

VIN = {
    "kind": CharacterKind.HERO,
    "attributes": {"physique": 6, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
    "burdens": [{"name": "Lost an eye", "severity": Severity.MORTAL}],
    "advancements": {"held": 12, "earned": 12},
}


async def vin(env: BotEnv) -> StoredCharacter:
    character = make_character(name="Vin", owner_id=env.user_id("player1"), **VIN)
    return await env.storage.characters.create(env.guild_id, character)


async def sheet(env: BotEnv) -> StoredCharacter:
    return await env.storage.characters.get_by_name(env.guild_id, "Vin")


async def test_a_spend_waits_for_a_long_breather_and_a_narrators_approval(bot_env: BotEnv) -> None:
    env = bot_env
    await vin(env)
    await env.slash("/session start", user="narrator")
    closed = await env.slash("/advancement spend name:Vin improvement:attribute|wits", user="player1")
    assert closed.ephemeral and "Vin has no spend open" in closed.content
    await env.slash("/sheet breather kind:Long name:Vin", user="narrator")
    assert (await sheet(env)).character.advancements.spend_open
    offered = await env.harness.autocomplete("/advancement spend name:Vin improvement:", user="player1")
    labels = [c["name"] for c in offered.choices]
    assert "+1 Attribute: Wits 4 → 5 (5)" in labels and not any("Physique" in label for label in labels)
    assert not any(label.startswith("Keeper") for label in labels)  # not Terris
    over = await env.slash("/advancement spend name:Vin improvement:attribute|physique", user="player1")
    assert over.ephemeral and "not on offer for Vin now" in over.content
    asked = await env.slash("/advancement spend name:Vin improvement:attribute|wits", user="player1")
    assert not asked.ephemeral and "Vin asks to spend 5 Advancements on +1 Wits" in asked.content
    assert (await sheet(env)).character.attributes.wits == 4  # nothing yet
    player = await env.harness.click("Approve", message=asked.message, user="player1")
    assert player.ephemeral and "Only a Narrator" in player.content
    approved = await env.harness.click("Approve", message=asked.message, user="narrator")
    told = [m["content"] for m in approved.followups]
    assert "Vin spends 5 Advancements: +1 Wits. Now 7 held." in told
    after = (await sheet(env)).character
    assert after.attributes.wits == 5
    assert after.advancements == Advancements(held=7, earned=12, spent=5)
    again = await env.slash("/advancement spend name:Vin improvement:attribute|charm", user="player1")
    assert again.ephemeral and "no spend open" in again.content  # one improvement a Breather
    await env.slash("/session end", user="narrator")
    text = journal_of(env, await env.slash("/session journal", user="player2"))
    assert "Vin spends 5 Advancements: +1 Wits. Now 7 held." in text


async def test_a_mortal_burden_eased_when_players_spend_alone(bot_env: BotEnv) -> None:
    env = bot_env
    await vin(env)
    await env.slash("/setup players-spend setting:on", user="narrator")
    await env.slash("/advancement allow name:Vin", user="narrator")
    eased = await env.slash("/advancement spend name:Vin improvement:ease_mortal|0", user="player1")
    assert not eased.ephemeral
    assert eased.content == "Vin spends 6 Advancements: Lost an eye eased from Mortal to Grave. Now 6 held."
    burdens = (await sheet(env)).character.burdens
    assert [(b.name, b.severity) for b in burdens] == [("Lost an eye", Severity.GRAVE)]


async def test_a_rules_secret_unlocks_a_metal_that_a_mistborn_then_buys(bot_env: BotEnv) -> None:
    env = bot_env
    powers = [{"type": "allomancy", "name": m, "rating": 4} for m in BASIC_METALS]
    character = make_character(name="Vin", owner_id=env.user_id("player1"), **(VIN | {"powers": powers}))
    await env.storage.characters.create(env.guild_id, character)
    await env.slash("/setup players-spend setting:on", user="narrator")
    await env.slash("/advancement allow name:Vin", user="narrator")
    await env.slash(
        '/secret add title:"The eleventh metal" text:"Duralumin burns" kind:rules metal:Duralumin'
    )
    line = "/advancement spend name:Vin improvement:"
    before = await env.harness.autocomplete(line, user="player1")
    assert not any("Duralumin" in c["name"] for c in before.choices)
    locked = await env.slash(line + "learn_metal|allomancy:Duralumin", user="player1")
    assert locked.ephemeral and "not on offer for Vin now" in locked.content
    await env.slash('/secret reveal title:"The eleventh metal" hero:Vin')
    after = await env.harness.autocomplete(line + "Dura", user="player1")
    assert [c["value"] for c in after.choices] == ["learn_metal|allomancy:Duralumin"]
    bought = await env.slash(line + "learn_metal|allomancy:Duralumin", user="player1")
    assert not bought.ephemeral and "Vin spends 6 Advancements" in bought.content
    learnt = [p for p in (await sheet(env)).character.powers if p.name == "Duralumin"]
    assert [(p.type.value, p.rating) for p in learnt] == [("allomancy", 4)]
    assert (await sheet(env)).character.advancements == Advancements(held=6, earned=12, spent=6)


async def test_a_stunt_is_bought_from_its_metals_catalogue_and_then_changes_a_roll(bot_env: BotEnv) -> None:
    env = bot_env
    pewter = {
        "powers": [{"type": "allomancy", "name": "Pewter", "rating": 3}],
        "allomancy": {"burning": ["Pewter"]},
    }
    character = make_character(name="Vin", owner_id=env.user_id("player1"), **(VIN | pewter))
    await env.storage.characters.create(env.guild_id, character)
    await env.slash("/setup players-spend setting:on", user="narrator")
    line = "/advancement spend name:Vin improvement:stunt|0 words:"
    await env.slash("/sheet breather kind:Long name:Vin", user="narrator")
    offered = await env.harness.autocomplete(line, user="player1")
    assert [c["value"] for c in offered.choices] == ["Denser Tissues", "Prodigious Strength", "Extreme Speed"]
    assert "Prodigious Strength — +1 die on strength rolls" in [c["name"] for c in offered.choices]
    trait = await env.harness.autocomplete(
        "/advancement spend name:Vin improvement:new_trait|extra words:", user="player1"
    )
    assert trait.choices == []  # a Trait's words are the player's own
    wrong = await env.slash(line + '"Long Range"', user="player1")
    assert wrong.ephemeral and "Long Range is a Stunt of Allomantic Steel or Iron" in wrong.content
    lift = "/roll stat:Physique character:Vin task:strength"
    weak = await env.slash(lift, user="player1")
    assert weak.message is not None and "Prodigious Strength" not in card_text(weak.message)

    bought = await env.slash(line + '"Prodigious Strength"', user="player1")
    assert bought.content == (
        "Vin spends 4 Advancements: the Stunt “Prodigious Strength” (+1 die on strength rolls) for "
        "Pewter (Allomancy). Now 8 held."
    )
    strong = await env.slash(lift, user="player1")
    assert strong.message is not None and "Prodigious Strength 1" in card_text(strong.message)

    await env.slash("/sheet breather kind:Long name:Vin", user="narrator")
    twice = await env.slash(line + '"prodigious strength"', user="player1")  # it may be taken twice
    assert not twice.ephemeral, twice.content
    assert (await sheet(env)).character.powers[0].stunts == ("Prodigious Strength", "Prodigious Strength")
    stronger = await env.slash(lift, user="player1")
    assert stronger.message is not None and "Prodigious Strength 2" in card_text(stronger.message)
    then = await env.harness.autocomplete(line, user="player1")
    assert [c["value"] for c in then.choices] == ["Denser Tissues", "Extreme Speed"]


async def hero_with(env: BotEnv, held: int = 12, **parts: object) -> None:
    """Vin with ``parts`` and ``held`` Advancements, a spend open, on a server that lets players
    spend alone."""
    ledger = {"advancements": {"held": held, "earned": held}}
    character = make_character(name="Vin", owner_id=env.user_id("player1"), **(VIN | ledger | parts))
    await env.storage.characters.create(env.guild_id, character)
    await env.slash("/setup players-spend setting:on", user="narrator")
    await env.slash("/advancement allow name:Vin", user="narrator")


async def spent(env: BotEnv, improvement: str) -> str:
    bought = await env.slash(f"/advancement spend name:Vin {improvement}", user="player1")
    assert not bought.ephemeral, bought.content
    return bought.content


async def rolled(env: BotEnv, stat: str) -> str:
    roll = await env.slash(f"/roll stat:{stat} character:Vin", user="player1")
    assert roll.message is not None, roll.content
    return card_text(roll.message)


async def test_a_bought_blessing_of_potency_shows_on_a_physique_roll(bot_env: BotEnv) -> None:
    env = bot_env
    await hero_with(env, held=15, powers=[{"type": "kandra", "name": "Mimicry", "rating": 5}])
    assert "**Pool:** Physique 6 = **6**" in await rolled(env, "Physique")
    told = await spent(env, "improvement:blessing|Potency")
    assert told == "Vin spends 15 Advancements: the Blessing of Potency. Now 0 held."
    assert "**Pool:** Physique 6 + Potency 2 = **8**" in await rolled(env, "Physique")  # +2, to 8
    after = (await sheet(env)).character
    assert after.attributes.physique == 6 and after.powers[0].stunts == ()  # the Blessing, not words


async def test_a_bought_savant_shows_its_free_nudges(bot_env: BotEnv) -> None:
    env = bot_env
    await hero_with(env, powers=[{"type": "allomancy", "name": "Tin", "rating": 7}])
    assert "Savant" not in await rolled(env, "Tin")
    assert "Savant in Tin (Allomancy)" in await spent(env, "improvement:savant|0")
    savant = await rolled(env, "Tin")
    assert "Tin Savant: 2 free Nudges on a success." in savant and "2 free)" in savant
    assert (await sheet(env)).character.allomancy.savants == ("Tin",)


async def test_a_bought_spike_shows_its_rating_and_costs_spirit_once(bot_env: BotEnv) -> None:
    env = bot_env
    await hero_with(env)
    line = "/advancement spend name:Vin improvement:spike"
    offered = await env.harness.autocomplete(line, user="player1")
    assert "Spike: Steel spike (Allomantic Iron) (4 or 2 × rating)" in [c["name"] for c in offered.choices]
    told = await spent(env, "improvement:spike|Steel:Iron rating:5")
    assert told == "Vin spends 10 Advancements: a Steel spike (Allomantic Iron) at 5. Now 2 held."
    assert "**Pool:** Iron 5 = **5**" in await rolled(env, "Iron")  # the stolen Power at its rating
    assert "**Pool:** Spirit 3 − Spikes 1 = **2**" in await rolled(env, "Spirit")  # its Spirit, once
    after = (await sheet(env)).character
    assert after.standings.spirit == 3 and after.attributes.charm == 3  # never off the sheet as well


async def test_a_bought_spikes_power_is_listed_takes_a_stunt_and_goes_with_the_spike(bot_env: BotEnv) -> None:
    """§9.5: a Steel spike of Allomantic Iron on a Hero without Iron lists Iron (Allomancy) at the
    spike's rating, counted once, so the Stunt menu offers Iron's catalogue; torn out, both go."""
    env = bot_env
    await hero_with(env, held=20, allomancy={"burning": ["Iron"]})
    await spent(env, "improvement:spike|Steel:Iron rating:5")
    listed = (await sheet(env)).character.powers
    assert [(p.full_label, p.rating, p.from_spike) for p in listed] == [("Iron (Allomancy)", 5, True)]
    assert "**Pool:** Iron 5 = **5**" in await rolled(env, "Iron")
    shown = await env.slash("/character show name:Vin", user="player1")
    assert shown.message is not None and "Iron (Allomancy) **5**, from a spike" in card_text(shown.message)
    await env.slash("/advancement allow name:Vin", user="narrator")
    line = "/advancement spend name:Vin improvement:stunt|0 words:"
    offered = await env.harness.autocomplete(line, user="player1")
    assert "Improved Redirection" in [c["value"] for c in offered.choices]
    assert "the Stunt “Long Range”" in await spent(env, 'improvement:stunt|0 words:"Long Range"')
    assert (await sheet(env)).character.powers[0].stunts == ("Long Range",)
    torn = await env.slash("/power spike metal:Steel remove:true name:Vin", user="narrator")
    assert not torn.ephemeral, torn.content
    after = (await sheet(env)).character
    assert after.powers == () and after.hemalurgy.spikes == ()


async def test_a_typed_target_int_cannot_read_is_refused_plainly(bot_env: BotEnv) -> None:
    """``improvement`` is free text beside its suggestions: a target of digits ``int`` cannot read
    ("²" passes ``isdigit``) is not on offer, said privately, and the sheet is unchanged."""
    env = bot_env
    await vin(env)
    await env.slash("/setup players-spend setting:on", user="narrator")
    await env.slash("/advancement allow name:Vin", user="narrator")
    for improvement in ("ease_mortal|²", "ease_mortal|٣", "stunt|² words:Leap"):
        refused = await env.slash(f"/advancement spend name:Vin improvement:{improvement}", user="player1")
        assert refused.ephemeral and refused.content != APOLOGY, improvement
        assert "not on offer for Vin now" in refused.content, refused.content
    assert (await sheet(env)).character.advancements.held == 12
