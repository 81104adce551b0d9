"""What the page says of a sheet: every Trait, Destiny and Tragedy, Props with their bonuses, an
Extras group's members, in the card's own words (``bot.render.sheet_words``); a hidden sheet's
Destiny and Tragedy never reach a player. Over HTTP against the bot's own server."""

from typing import Any

from aiohttp import ClientSession, CookieJar

from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.web.test_web_command import link_of

VIN: dict[str, Any] = {
    "traits": {
        "drive": "Survive",
        "profession": "Thief",
        "specialty": "Locks",
        "feature": "Scarred hands",
        "personality": "Wary",
        "extras": ["Quick"],
    },
    "destiny": "Kill the Lord Ruler",
    "tragedy": "Lost her brother",
    "props": [{"name": "Glass knives", "weapon": 2}, {"name": "Mistcloak", "armour": 1}],
}
SPY: dict[str, str] = {"destiny": "Betray the Assembly", "tragedy": "Sold out his house"}
"""The hidden Villain's texts, which no player's page may hold."""
TRAITS = [
    {"label": "Drive", "text": "Survive"},
    {"label": "Profession", "text": "Thief"},
    {"label": "Specialty", "text": "Locks"},
    {"label": "Feature", "text": "Scarred hands"},
    {"label": "Personality", "text": "Wary"},
    {"label": "", "text": "Quick"},
]
MEMBERS: dict[str, Any] = {"label": "Members", "left": 3, "size": 6, "text": "3 of 6 standing"}


async def table_of_three(env: BotEnv) -> None:
    """player1's full Vin, the Narrator's hidden Spy and a group of six Crew (three down), the
    Crew in a Conflict in #table with Vin."""
    table: list[tuple[str, CharacterKind, str, dict[str, Any]]] = [
        ("Vin", CharacterKind.HERO, "player1", VIN),
        ("Spy", CharacterKind.VILLAIN, "narrator", SPY),
        ("Crew", CharacterKind.EXTRA, "narrator", {"size": 6, "members_down": 3}),
    ]
    for name, kind, owner, sheet in table:
        character = make_character(sheet, name=name, kind=kind, owner_id=env.user_id(owner))
        stored = await env.storage.characters.create(env.guild_id, character)
        if kind is CharacterKind.HERO:
            await env.storage.active.set(env.guild_id, env.user_id(owner), stored.id)
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"A brawl"'),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Crew"),
            ("narrator", "/conflict add character:Spy"),
        ]
    )


async def page_of(env: BotEnv, user: str) -> tuple[bytes, dict[str, Any]]:
    """The raw data and its JSON, as ``user``'s ``/web`` link opens it on the bot's own server."""
    url = link_of(await env.slash("/web", user=user))
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as http:  # an IP address
        assert (await http.get(url)).status == 200
        response = await http.get(url.split("/login")[0] + f"/g/{env.guild_id}/data")
        assert response.status == 200
        return await response.read(), await response.json()


def sheet(data: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [s for s in data["sheets"] if s["name"] == name]
    assert len(found) == 1, name
    return found[0]


async def test_the_page_says_every_part_of_a_sheet_as_the_card_does(web_env: BotEnv) -> None:
    await table_of_three(web_env)
    _, data = await page_of(web_env, "narrator")
    vin, crew = sheet(data, "Vin"), sheet(data, "Crew")
    assert vin["traits"] == TRAITS
    assert (vin["destiny"], vin["tragedy"]) == (VIN["destiny"], VIN["tragedy"])
    assert vin["props"] == [
        {"name": "Glass knives", "bonuses": "weapon +2"},
        {"name": "Mistcloak", "bonuses": "armour 1"},
    ]
    assert crew["members"] == MEMBERS
    [conflict] = data["conflicts"]
    [fighter] = [p for side in conflict["sides"] for p in side["participants"] if p["name"] == "Crew"]
    assert fighter["members"] == MEMBERS
    card = card_text((await web_env.slash("/character show name:Vin", user="player1")).message or {})
    for trait in TRAITS:
        assert trait["text"] in card and trait["label"] in card
    for prop in vin["props"]:
        assert f"{prop['name']} ({prop['bonuses']})" in card
    crew_card = card_text((await web_env.slash("/character show name:Crew")).message or {})
    assert MEMBERS["label"] in crew_card and MEMBERS["text"] in crew_card


async def test_a_hidden_sheets_destiny_and_tragedy_never_reach_a_player(web_env: BotEnv) -> None:
    await table_of_three(web_env)
    raw, data = await page_of(web_env, "player1")
    assert [s["name"] for s in data["sheets"]] == ["Vin"]
    assert sheet(data, "Vin")["tragedy"] == VIN["tragedy"]  # their own Hero's, in full
    for text in SPY.values():
        assert text.encode() not in raw
    narrator, _ = await page_of(web_env, "narrator")
    assert all(text.encode() in narrator for text in SPY.values())
