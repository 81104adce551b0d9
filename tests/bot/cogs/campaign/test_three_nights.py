"""A campaign across three nights through the real dispatch (docs/rulings.md §10.1): each
session's end offers the awards with the Burden trigger filled in, a Long Breather opens one
spend, a spend over a limit is refused and one within it applied once a Narrator approves, a
Mortal Burden eased, a Stunt bought that then changes a roll; the ledger adds up at the end."""

from typing import Any

from rules.burdens import Severity
from rules.character import CharacterKind, make_character
from rules.character.advancement import Advancements
from storage import StoredCharacter
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.campaign.test_advancements import burden_gave_dice
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL

VIN: dict[str, Any] = {
    "kind": CharacterKind.HERO,
    "attributes": {"physique": 6, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
    "burdens": [{"name": "Lost an eye", "severity": Severity.MORTAL}],
    "powers": [{"type": "allomancy", "name": "Pewter", "rating": 3}],
    "allomancy": {"burning": ["Pewter"]},
}
LIFT = "/roll stat:Physique character:Vin task:strength"


async def sheet(env: BotEnv) -> StoredCharacter:
    return await env.storage.characters.get_by_name(env.guild_id, "Vin")


async def night(env: BotEnv, number: int, award: int, *, burden_used: bool) -> None:
    """A night's end: Vin took part (and maybe gave dice by a Burden); the Narrator gives
    ``award`` from the panel the end offers."""
    vin = await sheet(env)
    await env.slash("/sheet damage amount:1 name:Vin", user="player1")
    if burden_used:
        await burden_gave_dice(env, vin, "Lost an eye")
    ended = await env.slash("/session end", user="narrator")
    [panel] = [m for m in ended.messages if m["flags"] & EPHEMERAL and "Tonight's awards" in m["content"]]
    preset = 1 if burden_used else 0
    assert f"**Vin**: {preset}" in panel["content"]
    assert ("Burden trigger 1: Lost an eye" in panel["content"]) is burden_used
    label = f"Vin: {award} Advancement" + ("" if award == 1 else "s")
    await env.harness.select(f"mab:awsel:{number}:{vin.id}", [label], message=panel)
    await env.harness.click("Give these awards", message=panel)
    recap = card_text(env.harness.fake.messages[int(ended.messages[0]["id"])])
    assert f"Vin earns {label.removeprefix('Vin: ')} tonight" in recap


async def approved(env: BotEnv, improvement: str) -> str:
    asked = await env.slash(f"/advancement spend name:Vin improvement:{improvement}", user="player1")
    assert not asked.ephemeral, asked.content
    done = await env.harness.click("Approve", message=asked.message, user="narrator")
    return "\n".join(m["content"] for m in done.followups)


async def test_three_nights_of_awards_and_spends(bot_env: BotEnv) -> None:
    env = bot_env
    character = make_character(name="Vin", owner_id=env.user_id("player1"), **VIN)
    await env.storage.characters.create(env.guild_id, character)

    await env.slash("/session start title:One", user="narrator")
    await night(env, 1, 6, burden_used=True)
    assert (await sheet(env)).character.advancements == Advancements(held=6, earned=6)

    await env.slash("/session start title:Two", user="narrator")
    await env.slash("/sheet breather kind:Long name:Vin", user="narrator")
    over = await env.slash("/advancement spend name:Vin improvement:attribute|physique", user="player1")
    assert over.ephemeral and "not on offer for Vin now" in over.content  # Physique is at its 6
    eased = await approved(env, "ease_mortal|0")
    assert "Vin spends 6 Advancements: Lost an eye eased from Mortal to Grave. Now 0 held." in eased
    assert [b.severity for b in (await sheet(env)).character.burdens] == [Severity.GRAVE]
    await night(env, 2, 5, burden_used=True)

    await env.slash("/session start title:Three", user="narrator")
    await env.slash("/sheet breather kind:Long name:Vin", user="narrator")
    poor = await env.slash("/advancement spend name:Vin improvement:power|0", user="player1")
    assert poor.ephemeral and poor.content == "That costs 6; Vin holds 5 Advancements."
    weak = await env.slash(LIFT, user="player1")
    assert weak.message is not None and "Prodigious Strength" not in card_text(weak.message)
    stunt = await approved(env, 'stunt|0 words:"Prodigious Strength"')
    assert "Vin spends 4 Advancements" in stunt
    assert (await sheet(env)).character.powers[0].stunts == ("Prodigious Strength",)
    strong = await env.slash(LIFT, user="player1")
    assert strong.message is not None and "Prodigious Strength 1" in card_text(strong.message)
    await night(env, 3, 1, burden_used=False)

    assert (await sheet(env)).character.advancements == Advancements(held=2, earned=12, spent=10)
    story = await env.slash("/advancement show name:Vin", user="player2")
    assert story.content == "**Vin**: 2 held of 20 (12 earned, 10 spent)."
