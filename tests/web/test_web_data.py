"""The page's data: which Conflicts a player's page lists, and its cost bounded (each sheet
built once per change, a first look built a few sheets at a time, fetched at a bounded rate,
streams capped in all)."""

import asyncio
import time
from typing import Any

import orjson
import pytest

from bot.access import Caller
from bot.web import sheets, snapshot
from bot.web.limits import BURST, PER_SECOND
from bot.web.state import MAX_STREAMS
from rules.character import CharacterKind, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv
from testbed.stalls import StallMeter, measured
from tests.web.support import HOSTILE, SCRIPT, logged_in, table_channel, web_client

FULL_SHEET = {
    "concept": "Half-skaa street thief",
    "attributes": {"physique": 3, "charm": 3, "wits": 5},
    "standings": {"resources": 4, "influence": 3, "spirit": 5},
    "traits": {"drive": "Survive", "profession": "Thief", "extras": ["Quick", "Stubborn"]},
    "powers": [{"type": "allomancy", "name": "Steel", "rating": 4, "stunts": ["Coinshot"]}],
    "burdens": [{"name": "Cracked rib", "severity": "serious"}],
    "props": [{"name": "Glass knives", "weapon": 1}],
    "destiny": "Kill the Lord Ruler",
}

SECRET_COUNCIL = [
    ("narrator", "/character create name:Spy kind:Villain physique:3"),
    ("narrator", '/conflict start kind:physical stakes:"Secret council"'),
    ("narrator", "/conflict add character:Spy"),
]
"""A second Conflict, in #ooc, that no player's Hero is in."""


async def two_conflicts(env: BotEnv) -> int:
    """The brawl in #table (Vin, player1's Hero, against the Thug) and a council in #ooc."""
    await env.play(SCRIPT)
    ooc = env.world.guild.channel("ooc")
    assert ooc is not None
    env.harness.channel = ooc
    await env.play(SECRET_COUNCIL)
    env.harness.channel = env.world.guild.channels[0]
    return ooc.id


async def stakes_seen(env: BotEnv, user: str, *, narrator: bool, asked_from: int) -> set[str]:
    async with web_client(env) as client:
        await logged_in(client, env, user, narrator=narrator, channel_id=asked_from)
        data = await (await client.get(f"/g/{env.guild_id}/data")).json()
    return {c["stakes"] for c in data["conflicts"]}


async def test_a_player_sees_only_their_heroes_conflicts_and_the_channel_they_asked_from(
    bot_env: BotEnv,
) -> None:
    ooc = await two_conflicts(bot_env)
    table = table_channel(bot_env)
    both = {"A brawl", "Secret council"}
    cases: list[tuple[str, bool, int, set[str]]] = [
        ("narrator", True, table, both),
        ("player2", False, table, {"A brawl"}),  # no Hero anywhere: the channel asked from only
        ("player2", False, ooc, {"Secret council"}),
        ("player1", False, table, {"A brawl"}),  # Vin's Conflict, which is also this channel's
        ("player1", False, ooc, both),
    ]
    for user, narrator, asked_from, expected in cases:
        seen = await stakes_seen(bot_env, user, narrator=narrator, asked_from=asked_from)
        assert seen == expected, (user, asked_from)


async def test_a_page_builds_again_only_the_sheets_that_changed(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    await bot_env.play(SCRIPT)
    built: list[str] = []
    original = sheets.sheet_data

    def counting(stored: StoredCharacter) -> dict[str, Any]:
        built.append(stored.character.name)
        return original(stored)

    monkeypatch.setattr(sheets, "sheet_data", counting)
    url = f"/g/{bot_env.guild_id}/data"
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        first = await (await client.get(url)).json()
        assert sorted(built) == sorted(s["name"] for s in first["sheets"]) == sorted(["Vin", "Thug", HOSTILE])
        built.clear()
        await bot_env.play([("narrator", "/edit text field:notes value:Limping name:Thug")])
        second = await (await client.get(url)).json()
        assert built == ["Thug"] and second["mark"] != first["mark"]
        thug = next(s for s in second["sheets"] if s["name"] == "Thug")
        assert thug["notes"] == "Limping"
        assert [s for s in second["sheets"] if s["name"] != "Thug"] == [
            s for s in first["sheets"] if s["name"] != "Thug"
        ]
        await logged_in(client, bot_env, "player1", narrator=False)
        own = await (await client.get(url)).json()
        assert {s["name"] for s in own["sheets"]} == {"Vin", HOSTILE} and built == ["Thug"]


async def test_the_data_goes_gzipped_to_whoever_reads_gzip(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    url = f"/g/{bot_env.guild_id}/data"
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        packed = await client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
        plain = await client.get(url, headers={"Accept-Encoding": "identity"})
        assert packed.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
        assert await packed.json() == await plain.json()
        assert {s["name"] for s in (await plain.json())["sheets"]} == {"Vin", "Thug", HOSTILE}


async def test_kept_sheets_stay_within_their_budget_and_a_page_stays_whole(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    kept = sheets.SheetPages(budget=1500)  # about two of these sheets
    narrator = Caller(guild_id=bot_env.guild_id, user_id=bot_env.user_id("narrator"), narrator=True)
    for _ in range(3):
        page = orjson.loads(await kept.sheets(bot_env.storage, narrator, {}))
        assert sorted(s["name"] for s in page) == sorted(["Vin", "Thug", HOSTILE])
        assert 0 < kept.size <= kept.budget


async def test_a_first_look_at_a_server_of_many_sheets_holds_the_loop_under_50_ms(bot_env: BotEnv) -> None:
    """600 full sheets never read before: the page reads and builds them a few at a time."""
    narrator = bot_env.user_id("narrator")
    async with bot_env.storage.transaction() as tx:
        for number in range(600):
            sheet = make_character(
                FULL_SHEET, name=f"Crowd {number:04d}", kind=CharacterKind.VILLAIN, owner_id=narrator
            )
            await tx.characters.create(bot_env.guild_id, sheet)
    with StallMeter().measuring() as meter:
        async with web_client(bot_env) as client:
            await logged_in(client, bot_env, "narrator", narrator=True)
            stall, response = await measured(bot_env, meter, client.get(f"/g/{bot_env.guild_id}/data"))
            data = await response.json()
    assert len(data["sheets"]) == 600
    assert stall.cpu < 0.050, stall


async def test_a_session_fetching_too_often_is_told_when_to_come_back(bot_env: BotEnv) -> None:
    now = [time.time()]
    async with web_client(bot_env, lambda: now[0]) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        url = f"/g/{bot_env.guild_id}/data"
        statuses = [(await client.get(url)).status for _ in range(int(BURST))]
        assert statuses == [200] * int(BURST)
        refused = await client.get(url)
        assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
        now[0] += 1 / PER_SECOND
        assert (await client.get(url)).status == 200


async def test_open_streams_are_capped_in_all_and_the_page_can_ask_why(bot_env: BotEnv) -> None:
    async with web_client(bot_env, max_streams_in_all=2) as narrator:
        await logged_in(narrator, bot_env, "narrator", narrator=True)
        url = f"/g/{bot_env.guild_id}/events"
        first = await narrator.get(url)
        assert first.status == 200
        assert (await (await narrator.get(f"/g/{bot_env.guild_id}/session")).json())["streams"] == "free"
        second = await narrator.get(url)
        assert second.status == 200 and MAX_STREAMS > 2  # the per-member bound is not what refuses
        assert (await narrator.get(url)).status == 503
        state = await (await narrator.get(f"/g/{bot_env.guild_id}/session")).json()
        assert state == {"narrator": True, "streams": "busy"}
        first.close()
        second.close()
    async with web_client(bot_env) as stranger:
        assert (await stranger.get(f"/g/{bot_env.guild_id}/session")).status == 403


async def test_narrators_pages_share_one_build_per_change(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    await bot_env.play(SCRIPT)
    builds: list[bool] = []
    original = snapshot.build_page

    def counting(caller: Any, *args: Any) -> bytes:
        builds.append(caller.narrator)
        return original(caller, *args)

    monkeypatch.setattr(snapshot, "build_page", counting)
    url = f"/g/{bot_env.guild_id}/data"
    async with web_client(bot_env) as client:  # one view; each login replaces the cookie
        await logged_in(client, bot_env, "narrator", narrator=True)
        pages = await asyncio.gather(*(client.get(url) for _ in range(3)))
        assert [p.status for p in pages] == [200, 200, 200] and builds == [True]
        await logged_in(client, bot_env, "narrator", narrator=True)  # another Narrator's page
        assert (await client.get(url)).status == 200 and builds == [True]
        await logged_in(client, bot_env, "player1", narrator=False)
        assert (await client.get(url)).status == 200 and builds == [True, False]  # a player's own
        await bot_env.play([("narrator", "/act dice:5 who:Thug")])
        await logged_in(client, bot_env, "narrator", narrator=True)
        moved = await (await client.get(url)).json()
        assert moved["mark"] != (await pages[0].json())["mark"] and builds == [True, False, True]
