"""``/sheet`` and ``/burden`` through the real dispatch: what the table sees, what is stored."""

from typing import Any

import pytest

from fake_discord.payloads import JSON
from rules.burdens import Severity
from rules.character import CharacterKind, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv
from testbed.cards import card_text


async def make(env: BotEnv, name: str = "Vin", owner: str = "player1", **fields: Any) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    character = make_character(name=name, owner_id=env.user_id(owner), **fields)
    return await env.storage.characters.create(env.guild_id, character)


async def stored(env: BotEnv, name: str = "Vin") -> StoredCharacter:
    return await env.storage.characters.get_by_name(env.guild_id, name)


def field(embed: JSON, name: str) -> str:
    value: str = next(f["value"] for f in embed["fields"] if f["name"] == name)
    return value


HARDY: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 3},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}


async def test_damage_leaves_a_wound_burden(bot_env: BotEnv) -> None:
    await make(bot_env, **HARDY)
    reply = await bot_env.slash("/sheet damage amount:4 name:Vin", user="player1")
    embed = reply.embeds[0]
    assert not reply.ephemeral and embed["title"] == "Vin: 4 Health damage"
    assert "Health: 8 → **4**" in embed["description"] and "A Grave wound." in embed["description"]
    assert "Wounded (Health) — Grave" in field(embed, "Burdens added")
    character = (await stored(bot_env)).character
    assert character.damage.health == 4
    assert [(b.name, b.severity) for b in character.burdens] == [("Wounded (Health)", Severity.GRAVE)]


async def test_defeat_with_a_mortal_burden_is_stored(bot_env: BotEnv) -> None:
    await make(bot_env, **HARDY)
    reply = await bot_env.slash(
        "/sheet damage amount:20 name:Vin resilience:Willpower defeat_burden:Mortal", user="player1"
    )
    embed = reply.embeds[0]
    assert "Devastated: −2 dice on Power rolls" in field(embed, "Defeated")
    assert "(14 more found nothing left to take.)" in embed["description"]
    character = (await stored(bot_env)).character
    assert character.damage.willpower == 6
    assert {b.name: b.severity for b in character.burdens} == {
        "Wounded (Willpower)": Severity.GRAVE,
        "Devastated": Severity.MORTAL,
    }
    sheet = await bot_env.slash("/character show name:Vin")
    assert sheet.message is not None
    assert "Willpower **0**/6 — Devastated" in card_text(sheet.message).split("**Resiliences**")[1]
    assert "-# Devastated: −2 dice on Power rolls" in card_text(sheet.message)


async def test_pewter_raises_health_for_the_hit(bot_env: BotEnv) -> None:
    await make(bot_env, powers=[{"type": "allomancy", "name": "Pewter", "rating": 5}], **HARDY)
    reply = await bot_env.slash("/sheet damage amount:4 pewter:true name:Vin", user="player1")
    assert "Health: 13 → **9**" in reply.embeds[0]["description"]
    assert "Serious" in field(reply.embeds[0], "Burdens added")
    no_pewter = await bot_env.slash("/sheet damage amount:1 pewter:true name:Vin", user="narrator")
    assert no_pewter.embeds  # the Narrator may apply it too


async def test_damage_to_an_extras_group_defeats_members(bot_env: BotEnv) -> None:
    await make(bot_env, "Guards", owner="narrator", kind=CharacterKind.EXTRA, size=4)
    reply = await bot_env.slash("/sheet damage amount:3 name:Guards")
    assert reply.embeds[0]["description"] == "**Guards** are hit: now gravely wounded."  # hidden: §7.1
    [full] = [m for m in reply.messages if m["flags"] & 64]
    assert full["embeds"][0]["title"] == "Guards: 3 members defeated"
    assert (await stored(bot_env, "Guards")).character.members_left == 1
    last = await bot_env.slash("/sheet damage amount:5 name:Guards")
    [full] = [m for m in last.messages if m["flags"] & 64]
    assert "The whole group is out of the scene." in field(full["embeds"][0], "Defeated")
    await bot_env.slash("/sheet heal amount:2 name:Guards")
    assert (await stored(bot_env, "Guards")).character.members_left == 2


async def test_heal_spend_and_recover(bot_env: BotEnv) -> None:
    await make(bot_env, damage={"health": 5, "reputation": 2}, **HARDY)
    healed = await bot_env.slash("/sheet heal amount:3 name:Vin", user="narrator")
    assert "Health **6**/8" in field(healed.embeds[0], "Resiliences")
    await bot_env.slash("/sheet heal amount:9 resilience:Reputation name:Vin", user="narrator")
    character = (await stored(bot_env)).character
    assert character.damage.health == 2 and character.damage.reputation == 0
    spent = await bot_env.slash("/sheet spend standing:Resources name:Vin", user="player1")
    assert spent.embeds[0]["description"] == "Spent Resources: 3 left."
    await bot_env.slash("/sheet spend standing:Resources name:Vin", user="player1")
    await bot_env.slash("/sheet spend standing:Influence name:Vin", user="player1")
    assert (await stored(bot_env)).character.spent.resources == 2
    some = await bot_env.slash("/sheet recover standing:Resources amount:1 name:Vin", user="narrator")
    assert some.embeds[0]["description"] == "Recovered 1 point of Resources."
    assert (await stored(bot_env)).character.spent.resources == 1
    await bot_env.slash("/sheet recover name:Vin", user="narrator")
    spent_after = (await stored(bot_env)).character.spent
    assert (spent_after.resources, spent_after.influence) == (0, 0)


async def test_breathers(bot_env: BotEnv) -> None:
    burdens = [
        {"name": "Wounded (Health)", "severity": "grave"},
        {"name": "Shamed", "severity": "serious"},
        {"name": "Curse", "severity": "mortal"},
    ]
    await make(bot_env, damage={"health": 5, "reputation": 3, "willpower": 1}, burdens=burdens, **HARDY)
    short = await bot_env.slash("/sheet breather kind:Short name:Vin", user="narrator")
    assert (
        short.embeds[0]["title"] == "Vin: Short Breather"
        and "Reputation +2" in short.embeds[0]["description"]
    )
    assert (await stored(bot_env)).character.damage.health == 5
    await bot_env.slash("/sheet breather kind:Short resting:true name:Vin", user="narrator")
    assert (await stored(bot_env)).character.damage.health == 2
    eased = await bot_env.slash("/sheet breather kind:Long burden:shamed name:Vin", user="narrator")
    assert "Burden Shamed eased: now gone." in eased.embeds[0]["description"]
    character = (await stored(bot_env)).character
    assert character.damage.health == 0 and [b.name for b in character.burdens] == [
        "Wounded (Health)",
        "Curse",
    ]
    await bot_env.slash("/sheet breather kind:Long name:Vin", user="narrator")
    assert (await stored(bot_env)).character.burdens[0].severity is Severity.SERIOUS


async def test_burden_add_step_and_remove(bot_env: BotEnv) -> None:
    await make(bot_env)
    added = await bot_env.slash('/burden add burden:"Broken arm" severity:Serious name:Vin', user="player1")
    assert added.embeds[0]["description"] == "New Serious Burden: Broken arm."
    assert "Broken arm — Serious (+1 against)" in field(added.embeds[0], "Burdens")
    up = await bot_env.slash('/burden step burden:"broken ARM" direction:up name:Vin', user="player1")
    assert up.embeds[0]["description"] == "The Burden Broken arm is now Grave."
    assert (await stored(bot_env)).character.burdens[0].severity is Severity.GRAVE
    await bot_env.slash('/burden step burden:"Broken arm" direction:down name:Vin', user="narrator")
    down = await bot_env.slash('/burden step burden:"Broken arm" direction:down name:Vin', user="narrator")
    assert down.embeds[0]["description"] == "The Burden Broken arm is gone."
    assert (await stored(bot_env)).character.burdens == ()
    await bot_env.slash("/burden add burden:Hunted severity:Mortal name:Vin", user="player1")
    removed = await bot_env.slash("/burden remove burden:hunted name:Vin", user="narrator")
    assert removed.embeds[0]["description"] == "Removed the Burden Hunted."
    assert (await stored(bot_env)).character.burdens == ()


@pytest.mark.parametrize(
    ("line", "advice"),
    [
        # A Mortal Burden eases only through an Advancement or strong magic (docs/rulings.md §5.10).
        (
            '/burden step burden:"Lost an eye" direction:down',
            "a Mortal one eases only through an Advancement",
        ),
        ('/burden remove burden:"Lost an eye"', "a Mortal one eases only through an Advancement"),
        ("/burden step burden:Limp direction:down", "Long Breather they call (`/scene breather kind:long`)"),
        ("/burden remove burden:limp", "Long Breather they call (`/scene breather kind:long`)"),
    ],
)
async def test_easing_a_burden_is_the_narrators_call(bot_env: BotEnv, line: str, advice: str) -> None:
    """Easing or removing a Burden is recovery, the Narrator's call (docs/rulings.md §5.10–§5.12),
    even on a player's own Hero; adding and worsening stay open to the player (issue 39)."""
    burdens = [{"name": "Lost an eye", "severity": "mortal"}, {"name": "Limp", "severity": "serious"}]
    before = await make(bot_env, burdens=burdens, **HARDY)
    await bot_env.storage.active.set(bot_env.guild_id, bot_env.user_id("player1"), before.id)
    refused = await bot_env.slash(line, user="player1")
    assert refused.ephemeral and "Only a Narrator can ease or remove the Burden" in refused.content
    assert advice in refused.content, refused.content
    assert (await stored(bot_env)).version == before.version  # nothing changed
    worse = await bot_env.slash("/burden step burden:Limp direction:up", user="player1")
    assert worse.embeds[0]["description"] == "The Burden Limp is now Grave."
    eased = await bot_env.slash(f"{line} name:Vin", user="narrator")
    assert not eased.ephemeral and eased.embeds, eased.content


REFUSALS = [
    ("player2", "/sheet damage amount:3 name:Vin", "not yours"),
    ("player2", "/burden add burden:Hex severity:Grave name:Vin", "not yours"),
    ("player2", "/sheet breather kind:Long name:Vin", "not yours"),
    ("player1", "/sheet spend standing:Influence name:Vin", "needs 2 or more"),
    ("player1", "/sheet breather kind:Short burden:Curse name:Vin", "Only a Long Breather"),
    ("narrator", "/sheet breather kind:Long burden:Curse name:Vin", "Curse is Mortal"),
    ("player1", "/burden add burden:curse severity:Serious name:Vin", "already has a Burden called"),
    ("player1", "/burden step burden:Curse direction:up name:Vin", "already Mortal"),
    ("player1", "/burden remove burden:Nothing name:Vin", "no Burden called 'Nothing'"),
    ("player1", "/sheet heal amount:3 name:Nobody", "no character named Nobody"),
]


@pytest.mark.parametrize(("user", "line", "message"), REFUSALS)
async def test_refusals_change_nothing(bot_env: BotEnv, user: str, line: str, message: str) -> None:
    before = await make(
        bot_env, spent={"influence": 2}, burdens=[{"name": "Curse", "severity": "mortal"}], **HARDY
    )
    reply = await bot_env.slash(line, user=user)
    assert reply.ephemeral and message in reply.content, reply.content
    after = await stored(bot_env)
    assert after.character == before.character and after.version == before.version


async def test_a_full_sheet_skips_the_wound_burden_but_takes_the_damage(bot_env: BotEnv) -> None:
    burdens = [{"name": f"Burden {i}", "severity": "serious"} for i in range(10)]
    await make(bot_env, burdens=burdens, **HARDY)
    reply = await bot_env.slash("/sheet damage amount:6 name:Vin", user="player1")
    assert "Wounded (Health) — Grave" in field(reply.embeds[0], "No room on the sheet for")
    character = (await stored(bot_env)).character
    assert character.damage.health == 6 and len(character.burdens) == 10
