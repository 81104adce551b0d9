"""The application's own emojis in the fake Discord, through discord.py's own calls: created
once per name (a second is refused as Discord refuses it, with its code under ``errors.name``),
listed, fetched, renamed and deleted; a bad name or a picture that is none is a violation; and
every answer holds to Discord's OpenAPI description."""

import base64
import io

import discord
import pytest
from discord.http import Route
from PIL import Image

from fake_discord.harness import Harness
from tests.fake_discord.openapi_check import problems, response_schema


def png(colour: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (16, 16), colour).save(out, format="PNG")
    return out.getvalue()


async def test_an_emoji_is_made_listed_renamed_and_deleted(h: Harness) -> None:
    bot = h.bot
    made = await bot.create_application_emoji(name="die_one", image=png())
    assert made.name == "die_one" and str(made) == f"<:die_one:{made.id}>"
    assert h.fake.emoji_images[made.id] == png()
    [listed] = await bot.fetch_application_emojis()
    assert (listed.id, listed.name) == (made.id, made.name)
    assert (await bot.fetch_application_emoji(made.id)).name == "die_one"
    renamed = await made.edit(name="die_first")
    assert renamed.name == "die_first"
    await made.delete()
    assert await bot.fetch_application_emojis() == []
    assert h.violations == []


async def test_a_name_is_the_applications_once(h: Harness) -> None:
    await h.bot.create_application_emoji(name="die_one", image=png())
    with pytest.raises(discord.HTTPException) as refused:
        await h.bot.create_application_emoji(name="die_one", image=png("blue"))
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert len(h.fake.app_emojis) == 1
    assert h.violations == []  # a race between two processes is no mistake of either


PNG_URI = "data:image/png;base64," + base64.b64encode(png()).decode()


@pytest.mark.parametrize(
    ("name", "image", "said"),
    [
        ("d", PNG_URI, "2-32 letters"),
        ("die-one", PNG_URI, "2-32 letters"),
        ("die_one", "data:image/png;base64," + base64.b64encode(b"not a picture").decode(), "are not one"),
        ("die_one", "https://example.com/die.png", "a data URI"),
    ],
)
async def test_what_discord_refuses_is_a_violation(h: Harness, name: str, image: str, said: str) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await h.bot.http.create_application_emoji(h.world.application_id, name, image)
    assert refused.value.status == 400
    assert any(said in violation.problem for violation in h.violations), h.violations
    assert h.fake.app_emojis == {}
    h.fake.violations.clear()


async def test_another_applications_emojis_are_refused(h: Harness) -> None:
    route = Route("GET", "/applications/{application_id}/emojis", application_id=h.world.application_id + 1)
    with pytest.raises(discord.Forbidden):
        await h.bot.http.request(route)


async def test_answers_hold_to_discords_description(h: Harness) -> None:
    app = h.world.application_id
    uri = "data:image/png;base64," + base64.b64encode(png()).decode()
    listing = "/applications/{application_id}/emojis"
    one = "/applications/{application_id}/emojis/{emoji_id}"
    made = await h.bot.http.request(
        Route("POST", "/applications/{a}/emojis", a=app), json={"name": "d1", "image": uri}
    )
    assert problems(made, response_schema(listing, "post", "201")) == []
    at = Route("GET", "/applications/{a}/emojis/{e}", a=app, e=made["id"])
    assert problems(await h.bot.http.request(at), response_schema(one)) == []
    listed = await h.bot.http.request(Route("GET", "/applications/{a}/emojis", a=app))
    assert problems(listed, response_schema(listing)) == []
    renamed = await h.bot.http.request(
        Route("PATCH", "/applications/{a}/emojis/{e}", a=app, e=made["id"]), json={"name": "d_one"}
    )
    assert problems(renamed, response_schema(one, "patch")) == [] and renamed["name"] == "d_one"
    assert h.violations == []
