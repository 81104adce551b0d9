"""Portraits on the web view: served without a session at an unguessable, cacheable address,
and named on the page beside the sheets and fighters the caller may see."""

import io
from pathlib import Path

from PIL import Image

from bot.render.portraits import portrait_path
from testbed.bot_env import BotEnv
from tests.web.support import SCRIPT, logged_in, web_client


def picture(tmp_path: Path) -> Path:
    path = tmp_path / "face.png"
    Image.new("RGB", (400, 300), (200, 40, 40)).save(path)
    return path


async def test_a_portrait_is_served_by_its_address_alone_and_cached(bot_env: BotEnv, tmp_path: Path) -> None:
    await bot_env.play(SCRIPT)
    await bot_env.slash(f'/character portrait image:"{picture(tmp_path)}" name:Vin', user="player1")
    vin = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")
    stored = await bot_env.storage.portraits.get(bot_env.guild_id, vin.id)
    assert stored is not None
    path = portrait_path(bot_env.guild_id, vin.id, stored.token)
    async with web_client(bot_env) as client:
        served = await client.get(path)  # no cookie: the token is the key
        assert served.status == 200 and served.content_type == "image/webp"
        assert await served.read() == stored.image
        assert "immutable" in served.headers["Cache-Control"]
        wrong = path.replace(stored.token, "A" * len(stored.token))
        assert (await client.get(wrong)).status == 404
        other_server = portrait_path(bot_env.guild_id + 1, vin.id, stored.token)
        assert (await client.get(other_server)).status == 404
        await logged_in(client, bot_env, "player1", narrator=False)
        data = await (await client.get(f"/g/{bot_env.guild_id}/data")).json()
    [sheet] = [s for s in data["sheets"] if s["name"] == "Vin"]
    assert sheet["portrait"] == path
    fighters = [p for c in data["conflicts"] for side in c["sides"] for p in side["participants"]]
    assert [p.get("portrait") for p in fighters if p["name"] == "Vin"] == [path]
    await bot_env.slash("/character portrait name:Vin remove:true", user="player1")
    async with web_client(bot_env) as client:
        assert (await client.get(path)).status == 404  # removed: its address is gone with it
    Image.open(io.BytesIO(stored.image)).verify()


async def test_a_secret_villains_portrait_shows_to_the_narrator_only(bot_env: BotEnv, tmp_path: Path) -> None:
    await bot_env.play(SCRIPT)
    await bot_env.slash(f'/character portrait image:"{picture(tmp_path)}" name:Thug', user="narrator")
    pages = {}
    async with web_client(bot_env) as client:
        for user, narrator in (("player1", False), ("narrator", True)):
            await logged_in(client, bot_env, user, narrator=narrator)
            pages[user] = await (await client.get(f"/g/{bot_env.guild_id}/data")).json()
    for user, expected in (("player1", [None]), ("narrator", [True])):
        fighters = [p for c in pages[user]["conflicts"] for side in c["sides"] for p in side["participants"]]
        thug = [p.get("portrait") for p in fighters if p["name"] == "Thug"]
        assert [bool(url) or None for url in thug] == expected, user
    assert "Thug" not in [s["name"] for s in pages["player1"]["sheets"]]
