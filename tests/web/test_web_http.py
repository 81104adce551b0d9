"""The web view over HTTP: links and cookies, 403s, headers, and what each role's JSON holds."""

import time
from typing import Any

from bot.web.app import CSP
from bot.web.state import cookie_name
from bot.web.tokens import link_grant, sign, signing_key
from testbed.bot_env import BotEnv
from tests.web.support import (
    HOSTILE,
    SCRIPT,
    link_token,
    logged_in,
    session_token,
    settings_of,
    table_channel,
    web_client,
)

JSON = dict[str, Any]


def fighters(data: JSON) -> dict[str, JSON]:
    [conflict] = data["conflicts"]
    return {p["name"]: p for side in conflict["sides"] for p in side["participants"]}


async def fighters_seen(bot_env: BotEnv) -> dict[str, dict[str, JSON]]:
    """The web view's fighters by name, as player1 and as the Narrator see them."""
    seen = {}
    for user, narrator in (("player1", False), ("narrator", True)):
        async with web_client(bot_env) as client:
            await logged_in(client, bot_env, user, narrator=narrator)
            seen[user] = fighters(await (await client.get(f"/g/{bot_env.guild_id}/data")).json())
    return seen


async def test_a_link_is_swapped_once_for_a_strict_http_only_cookie_of_its_server(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    async with web_client(bot_env) as client:
        token = await link_token(bot_env, "narrator", narrator=True)
        first = await client.get("/login", params={"t": token})
        assert first.status == 200
        assert f'url=/g/{bot_env.guild_id}/"' in await first.text()
        cookie = first.headers["Set-Cookie"]
        assert cookie.startswith(cookie_name(bot_env.guild_id) + "=")
        assert (
            "HttpOnly" in cookie and "SameSite=Strict" in cookie and f"Path=/g/{bot_env.guild_id}/" in cookie
        )
        assert "Secure" not in cookie  # plain http on 127.0.0.1; https adds it
        page = await client.get(f"/g/{bot_env.guild_id}/")
        assert page.status == 200 and "app.js" in await page.text()
        again = await client.get("/login", params={"t": token})
        assert again.status == 403


async def test_forged_expired_and_other_server_tokens_get_403(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    later = time.time() + 16 * 60
    async with web_client(bot_env, clock=lambda: later) as client:
        expired = await client.get(
            "/login", params={"t": await link_token(bot_env, "narrator", narrator=True)}
        )
        assert expired.status == 403
    async with web_client(bot_env) as client:
        token = await link_token(bot_env, "narrator", narrator=True)
        body, mac = token.split(".")
        forged = body + "." + ("A" if mac[0] != "A" else "B") + mac[1:]
        assert (await client.get("/login", params={"t": forged})).status == 403
        assert (await client.get("/login", params={"t": "nonsense"})).status == 403
        assert (await client.get("/login")).status == 403
        other = bot_env.guild_id + 1
        session = await session_token(bot_env, "narrator", narrator=True, guild_id=other)
        for path in ("/", "/data", "/events"):
            stolen = await client.get(
                f"/g/{bot_env.guild_id}{path}",
                headers={"Cookie": f"{cookie_name(bot_env.guild_id)}={session}"},
            )
            assert stolen.status == 403
            bare = await client.get(f"/g/{bot_env.guild_id}{path}")
            assert bare.status == 403
        await logged_in(client, bot_env, "narrator", narrator=True)
        assert (await client.get(f"/g/{bot_env.guild_id}/data")).status == 200
        assert (await client.get(f"/g/{other}/data")).status == 403  # this server's cookie only


async def test_every_response_carries_the_security_headers(bot_env: BotEnv) -> None:
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        for path, status in [
            (f"/g/{bot_env.guild_id}/", 200),
            (f"/g/{bot_env.guild_id}/data", 200),
            ("/static/app.js", 200),
            ("/login?t=x", 403),
            ("/nowhere", 404),
        ]:
            response = await client.get(path)
            assert response.status == status, path
            assert response.headers["Content-Security-Policy"] == CSP
            assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
            assert response.headers["X-Frame-Options"] == "DENY"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers["Referrer-Policy"] == "no-referrer"
        data = await client.get(f"/g/{bot_env.guild_id}/data")
        assert data.headers["Cache-Control"] == "no-store"
        assert data.content_type == "application/json"


async def test_the_narrator_sees_every_number_and_every_sheet(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        data = await (await client.get(f"/g/{bot_env.guild_id}/data")).json()
    thug = fighters(data)["Thug"]
    assert data["narrator"] and thug["shown"]
    assert thug["action_dice"] >= 2 and [r["name"] for r in thug["resiliences"]] == [
        "Health",
        "Reputation",
        "Willpower",
    ]
    assert {s["name"] for s in data["sheets"]} == {"Vin", "Thug", HOSTILE}


async def test_a_players_json_never_holds_the_oppositions_numbers(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    await bot_env.play([("narrator", "/act dice:5 who:Thug")])
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "player2", narrator=False)
        response = await client.get(f"/g/{bot_env.guild_id}/data")
        data = await response.json()
    thug, vin = fighters(data)["Thug"], fighters(data)["Vin"]
    assert not data["narrator"]
    assert set(thug) == {
        "id",
        "name",
        "kind",
        "up",
        "status",
        "declared",
        "surprised",
        "shown",
        "state",
    }  # what a hidden Villain burns is the Narrator's too (§9.9)
    assert not thug["shown"] and thug["state"] == "unhurt"
    assert vin["shown"] and "action_dice" in vin  # a Hero's numbers are the table's
    [conflict] = data["conflicts"]
    assert conflict["pending"]["attacker"] == "Thug" and conflict["pending"]["pool"] is None
    assert data["sheets"] == []  # player2 owns no Hero; Thug's sheet is the Narrator's
    own = None
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "player1", narrator=False)
        own = await (await client.get(f"/g/{bot_env.guild_id}/data")).json()
    assert {s["name"] for s in own["sheets"]} == {"Vin", HOSTILE}


async def test_what_a_hidden_villain_burns_and_its_drag_stay_the_narrators(bot_env: BotEnv) -> None:
    """§9.9: the web view shows a Hero's burns and Pewter drag to the table, a hidden Villain's
    to the Narrator only."""
    pewter = [(f"/edit power-add type:allomancy power:Pewter rating:4 name:{n}", n) for n in ("Vin", "Thug")]
    await bot_env.play(SCRIPT)
    for line, name in pewter:
        await bot_env.play(
            [
                ("narrator", line),
                ("narrator", f"/power burn metal:Pewter name:{name}"),
                ("narrator", f"/power drag name:{name}"),
            ]
        )
    seen = await fighters_seen(bot_env)
    for user in seen:
        assert seen[user]["Vin"]["burning"] == ["Pewter"] and seen[user]["Vin"]["drag"]
    assert "burning" not in seen["player1"]["Thug"] and "drag" not in seen["player1"]["Thug"]
    assert seen["narrator"]["Thug"]["burning"] == ["Pewter"] and seen["narrator"]["Thug"]["drag"]


async def test_what_a_fighter_flares_is_shown_where_its_burns_are(bot_env: BotEnv) -> None:
    """The board says "flaring"; the web view's data says which metals too: a Hero's to the table,
    a hidden Villain's to the Narrator only (docs/rulings.md §9.9, §9.10)."""
    await bot_env.play(SCRIPT)
    for name in ("Vin", "Thug"):
        await bot_env.play(
            [
                ("narrator", f"/edit power-add type:allomancy power:Steel rating:4 name:{name}"),
                ("narrator", f"/edit power-add type:allomancy power:Pewter rating:4 name:{name}"),
                ("narrator", f"/power burn metal:Steel name:{name}"),
                ("narrator", f"/power burn metal:Pewter name:{name}"),
                ("narrator", f"/power flare metal:Pewter name:{name}"),
            ]
        )
    seen = await fighters_seen(bot_env)
    for user in seen:
        assert seen[user]["Vin"]["flared"] == ["Pewter"], seen[user]["Vin"]
    assert "flared" not in seen["player1"]["Thug"]
    assert seen["narrator"]["Thug"]["flared"] == ["Pewter"]


async def test_html_in_a_name_goes_out_as_json_text_only(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "player1", narrator=False)
        page = await (await client.get(f"/g/{bot_env.guild_id}/")).text()
        data = await (await client.get(f"/g/{bot_env.guild_id}/data")).json()
        script = await (await client.get("/static/app.js")).text()
    assert HOSTILE not in page  # the page is static; names arrive as JSON
    assert HOSTILE in [s["name"] for s in data["sheets"]]
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script


async def test_the_event_stream_says_changed_when_a_move_is_saved(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        stream = await client.get(f"/g/{bot_env.guild_id}/events")
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        first = await stream.content.readuntil(b"\n\n")
        assert first == b"retry: 1000\n\n"
        initial = await stream.content.readuntil(b"\n\n")
        assert initial.startswith(b"event: changed\n")
        await bot_env.play([("narrator", "/act dice:5 who:Thug")])
        moved = await stream.content.readuntil(b"\n\n")
        assert moved.startswith(b"event: changed\n") and moved != initial
        stream.close()


async def test_removing_the_narrator_role_demotes_an_open_page(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    keeper = next(role for role in bot_env.world.guild.roles if role.name == "Keeper")  # player2's
    await bot_env.play([("narrator", f"/setup narrator-add role:<@&{keeper.id}>")])
    grant = link_grant(
        bot_env.guild_id,
        bot_env.user_id("player2"),
        narrator=True,
        manages_server=False,
        narrator_roles=(keeper.id,),
        now=time.time(),
        channel_id=table_channel(bot_env),  # asked from #table: a player sees its Conflict
    )
    token = sign(grant, await signing_key(settings_of(bot_env), bot_env.storage))
    async with web_client(bot_env) as client:
        assert (await client.get("/login", params={"t": token})).status == 200
        before = await (await client.get(f"/g/{bot_env.guild_id}/data")).json()
        assert before["narrator"] and fighters(before)["Thug"]["shown"]
        await bot_env.play([("narrator", f"/setup narrator-remove role:<@&{keeper.id}>")])
        after = await (await client.get(f"/g/{bot_env.guild_id}/data")).json()
    assert not after["narrator"] and not fighters(after)["Thug"]["shown"]
