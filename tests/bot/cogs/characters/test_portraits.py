"""Portraits through the real discord.py dispatch: ``/character portrait``, the sheet card that
shows one, and hostile images, each refused privately with nothing stored.

The fake Discord serves each attachment from its 127.0.0.1 CDN, as Discord does; the bot
downloads it (``discord.Attachment.read``), has a child process decode it with limits and stores
only its own re-encoding (``bot.render.portrait_reader``; the limits themselves are tested in
``test_portrait_limits.py``, and that no thread of the bot decodes in ``test_loop_stalls_pictures.py``).
"""

import base64
import io
import json
from pathlib import Path

import pytest
from PIL import Image, PngImagePlugin

from bot.render.portrait_worker import SIDE, reencode
from bot.render.portraits import FILE_NAME, MAX_UPLOAD_BYTES, portrait_url, portrait_urls
from fake_discord.message_payloads import avatar_hash
from fake_discord.payloads import JSON
from rules.character import export_character, revise_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from testbed.console import run_console
from tests.bot.cogs.characters.builder_support import make_hero

THUMBNAIL, SECTION = 11, 9


def photo(size: tuple[int, int] = (900, 600), *, exif: bool = True) -> bytes:
    """A JPEG photo with a camera's EXIF (maker, GPS) and an ICC profile, as a phone sends one."""
    image = Image.effect_noise(size, 40).convert("RGB")
    tags = Image.Exif()
    tags[0x010F] = "Canon"  # Make
    tags[0x8825] = {1: "N", 2: (59.0, 20.0, 1.0)}  # GPS
    out = io.BytesIO()
    icc = b"\0" * 128 + b"acsp" + b"\0" * 128
    image.save(out, "JPEG", exif=tags.tobytes() if exif else b"", icc_profile=icc, quality=90)
    return out.getvalue()


def png(size: tuple[int, int], mode: str = "1") -> bytes:
    """A PNG of one colour: tiny on disk however many pixels it declares."""
    out = io.BytesIO()
    Image.new(mode, size).save(out, "PNG")
    return out.getvalue()


def written(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def thumbnails(message: JSON) -> list[str]:
    """The media URLs of every thumbnail in a layout message."""
    found: list[str] = []

    def walk(components: list[JSON]) -> None:
        for component in components:
            if component.get("type") == THUMBNAIL:
                found.append(component["media"]["url"])
            inner = [component[k] for k in ("accessory", "component") if isinstance(component.get(k), dict)]
            walk(inner + list(component.get("components") or []))

    walk(message.get("components") or [])
    return found


async def vin_id(env: BotEnv) -> int:
    return (await env.storage.characters.get_by_name(env.guild_id, "Vin")).id


async def test_set_a_portrait_shows_it_on_the_sheet_card_stripped_and_small(
    vin: BotEnv, tmp_path: Path
) -> None:
    path = written(tmp_path, "me.jpg", photo())
    reply = await vin.slash(f'/character portrait image:"{path}"', user="player1")
    assert reply.ephemeral and reply.message is not None
    assert "New portrait for **Vin**" in card_text(reply.message)
    stored = await vin.storage.portraits.get(vin.guild_id, await vin_id(vin))
    assert stored is not None and stored.media_type == "image/webp"
    image = Image.open(io.BytesIO(stored.image))
    assert image.format == "WEBP" and max(image.size) == SIDE
    assert not image.getexif() and not ({"exif", "icc_profile", "xmp"} & set(image.info))
    shown = await vin.slash("/character show name:Vin", user="player2")
    assert shown.message is not None and not shown.ephemeral
    assert thumbnails(shown.message) == [f"attachment://{FILE_NAME}"]
    [attachment] = shown.message["attachments"]
    assert attachment["filename"] == FILE_NAME
    assert vin.harness.fake.file_bytes(attachment) == stored.image
    assert "Physique **2**" in card_text(shown.message)
    assert not vin.harness.violations


async def test_remove_a_portrait_and_the_card_has_no_thumbnail(vin: BotEnv, tmp_path: Path) -> None:
    path = written(tmp_path, "me.png", png((300, 300), "RGB"))
    await vin.slash(f'/character portrait image:"{path}"', user="player1")
    assert await vin.storage.portraits.get(vin.guild_id, await vin_id(vin)) is not None
    removed = await vin.slash("/character portrait remove:true", user="player1")
    assert removed.ephemeral and "Removed the portrait of **Vin**" in removed.content
    assert await vin.storage.portraits.get(vin.guild_id, await vin_id(vin)) is None
    shown = await vin.slash("/character show name:Vin", user="player1")
    assert shown.message is not None and thumbnails(shown.message) == []
    assert not shown.message["attachments"]
    both = await vin.slash(f'/character portrait image:"{path}" remove:true', user="player1")
    assert both.ephemeral and "not both" in both.content


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("oversized", "a portrait may be at most 8 MiB"),
        ("bomb", "decompression bomb"),
        ("not an image", "not an image I can read"),
        ("huge pixels", "more than 24 million"),
        ("cut short", "damaged or cut short"),
    ],
)
async def test_a_hostile_image_is_refused_privately_and_nothing_is_stored(
    vin: BotEnv, tmp_path: Path, kind: str, words: str
) -> None:
    data = {
        "oversized": photo() + b"\0" * MAX_UPLOAD_BYTES,
        "bomb": png((30_000, 30_000)),
        "not an image": b"#!/bin/sh\necho this is not a picture\n" * 10,
        "huge pixels": png((8_000, 5_000)),
        "cut short": photo()[:3000],
    }[kind]
    path = written(tmp_path, "hostile.png", data)
    reply = await vin.slash(f'/character portrait image:"{path}"', user="player1")
    assert reply.ephemeral and words in reply.content, reply.content
    assert await vin.storage.portraits.get(vin.guild_id, await vin_id(vin)) is None
    assert not vin.harness.violations


async def test_someone_elses_character_is_refused(vin: BotEnv, tmp_path: Path) -> None:
    path = written(tmp_path, "me.png", png((64, 64), "RGB"))
    refused = await vin.slash(f'/character portrait image:"{path}" name:Vin', user="player2")
    assert refused.ephemeral and "Vin" in refused.content
    assert await vin.storage.portraits.get(vin.guild_id, await vin_id(vin)) is None
    narrator = await vin.slash(f'/character portrait image:"{path}" name:Vin', user="narrator")
    assert narrator.ephemeral and await vin.storage.portraits.get(vin.guild_id, await vin_id(vin))


async def test_export_and_import_keep_the_portrait(vin: BotEnv, tmp_path: Path) -> None:
    path = written(tmp_path, "me.jpg", photo())
    await vin.slash(f'/character portrait image:"{path}"', user="player1")
    original = await vin.storage.portraits.get(vin.guild_id, await vin_id(vin))
    assert original is not None
    exported = await vin.slash("/character export name:Vin", user="player1")
    assert exported.message is not None
    data = vin.harness.fake.file_bytes(exported.message["attachments"][0])
    assert json.loads(data)["portrait"] == base64.b64encode(original.image).decode()
    sheet = written(tmp_path, "vin.json", data)
    imported = await vin.slash(f'/character import file:"{sheet}" name:Valette', user="player1")
    assert imported.message is not None and imported.ephemeral
    assert "Imported **Valette** from this bot, with its portrait." in card_text(imported.message)
    assert thumbnails(imported.message) == [f"attachment://{FILE_NAME}"]
    valette = await vin.storage.characters.get_by_name(vin.guild_id, "Valette")
    copied = await vin.storage.portraits.get(vin.guild_id, valette.id)
    assert copied is not None and copied.token != original.token
    assert Image.open(io.BytesIO(copied.image)).size == Image.open(io.BytesIO(original.image)).size
    assert not vin.harness.violations


@pytest.mark.parametrize("portrait", [b"not an image at all", png((20_000, 20_000))])
async def test_an_imported_portrait_is_checked_again_and_a_bad_one_imports_nothing(
    vin: BotEnv, tmp_path: Path, portrait: bytes
) -> None:
    vin_sheet = (await vin.storage.characters.get_by_name(vin.guild_id, "Vin")).character
    text = export_character(revise_character(vin_sheet, name="Forged"), portrait)
    sheet = written(tmp_path, "forged.json", text.encode())
    refused = await vin.slash(f'/character import file:"{sheet}"', user="player1")
    assert refused.ephemeral and ("not an image" in refused.content or "bomb" in refused.content)
    assert [c.name for c in await vin.storage.characters.list_by_guild(vin.guild_id)] == ["Vin"]


async def test_say_shows_the_portrait_as_the_webhooks_avatar_when_discord_can_fetch_it(
    vin: BotEnv, tmp_path: Path
) -> None:
    path = written(tmp_path, "me.png", png((64, 64), "RGB"))
    await vin.slash(f'/character portrait image:"{path}"', user="player1")
    await vin.slash("/say text:No public address yet.", user="player1")
    public = "https://mistborn.example.org"
    vin.bot.settings = vin.bot.settings.model_copy(update={"web_public_url": public})
    await vin.slash("/say text:Now with my face.", user="player1")
    token = await vin.storage.portraits.token(vin.guild_id, await vin_id(vin))
    url = portrait_url(public, vin.guild_id, await vin_id(vin), token)
    assert url == f"{public}/portraits/{vin.guild_id}/{await vin_id(vin)}-{token}.webp"
    hooks = vin.harness.fake.webhooks
    said = [m for m in vin.harness.fake.messages.values() if int(m.get("webhook_id") or 0) in hooks]
    assert [(m["content"], m["author"]["avatar"]) for m in said] == [
        ("No public address yet.", None),
        ("Now with my face.", avatar_hash(url)),
    ]
    assert portrait_url(None, vin.guild_id, 1, token) is None
    assert portrait_url(public, vin.guild_id, 1, None) is None


async def test_the_builder_offers_a_portrait_form_with_a_file_upload(bot_env: BotEnv, tmp_path: Path) -> None:
    await make_hero(bot_env, "mistborn")
    hero = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")
    opened = await bot_env.harness.click("Add a portrait", user="player1")
    assert opened.modal is not None
    [label] = opened.modal["components"]
    assert label["type"] == 18 and label["component"]["type"] == 19  # a label holding a FileUpload
    image = bot_env.harness.attach(written(tmp_path, "face.jpg", photo()))
    sent = await bot_env.harness.submit({}, user="player1", files={"image": [image]})
    assert sent.message is not None and sent.ephemeral
    assert "New portrait for **Vin**" in card_text(sent.message)
    assert thumbnails(sent.message) == [f"attachment://{FILE_NAME}"]
    stored = await bot_env.storage.portraits.get(bot_env.guild_id, hero.id)
    assert stored is not None and not Image.open(io.BytesIO(stored.image)).getexif()
    assert not bot_env.harness.violations


async def test_the_command_without_a_picture_opens_the_form_and_a_bad_upload_stores_nothing(
    vin: BotEnv, tmp_path: Path
) -> None:
    opened = await vin.slash("/character portrait", user="player1")
    assert opened.modal is not None and opened.modal["title"] == "Portrait of Vin"
    bomb = vin.harness.attach(written(tmp_path, "bomb.png", png((20_000, 20_000))))
    refused = await vin.harness.submit({}, user="player1", files={"image": [bomb]})
    assert refused.ephemeral and "decompression bomb" in refused.content
    assert await vin.storage.portraits.get(vin.guild_id, await vin_id(vin)) is None
    assert not vin.harness.violations


async def test_a_form_sent_after_the_hero_was_given_away_is_refused(vin: BotEnv, tmp_path: Path) -> None:
    opened = await vin.slash("/character portrait", user="player1")
    assert opened.modal is not None
    await vin.slash("/edit owner owner:@player2 name:Vin", user="narrator")
    image = vin.harness.attach(written(tmp_path, "face.png", png((64, 64), "RGB")))
    refused = await vin.harness.submit({}, modal=opened.modal, user="player1", files={"image": [image]})
    assert refused.ephemeral and "Vin" in refused.content and "New portrait" not in refused.content
    assert await vin.storage.portraits.get(vin.guild_id, await vin_id(vin)) is None


def test_at_the_console_a_portrait_is_uploaded_in_the_form_by_a_file_path(tmp_path: Path) -> None:
    (tmp_path / "face.png").write_bytes(png((120, 80), "RGB"))
    script = "/character create name:Vin physique:3 wits:4\n/character portrait\n!submit image:face.png\n"
    result = run_console(script, tmp_path / "console.sqlite3")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    after = result.stdout.split("> !submit image:face.png\n")[1]
    assert "New portrait for **Vin**" in after
    assert f"[image: {FILE_NAME}]" in after  # the card's thumbnail, as the console draws it


def gif_animation() -> bytes:
    frames = [Image.new("P", (40, 30), colour) for colour in (1, 2, 3)]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


def png_with_text_and_alpha() -> bytes:
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "someone@example.org")
    info.add_itxt("XML:com.adobe.xmp", "<x:xmpmeta>secret</x:xmpmeta>")
    out = io.BytesIO()
    Image.new("RGBA", (600, 300), (10, 20, 30, 128)).save(out, "PNG", pnginfo=info)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "size", "mode"),
    [
        (photo((900, 600)), (256, 171), "RGB"),
        (gif_animation(), (40, 30), "RGB"),  # the first frame, never an animation
        (png_with_text_and_alpha(), (256, 128), "RGBA"),  # transparency kept, text chunks gone
        (photo((100, 100), exif=False), (100, 100), "RGB"),  # never enlarged
    ],
)
def test_every_accepted_image_becomes_a_small_bare_webp(
    data: bytes, size: tuple[int, int], mode: str
) -> None:
    image = Image.open(io.BytesIO(reencode(data)))
    assert (image.format, image.size, image.mode) == ("WEBP", size, mode)
    assert getattr(image, "n_frames", 1) == 1
    assert not image.getexif() and not {"exif", "icc_profile", "xmp", "Author"} & set(image.info)


def test_portrait_urls_only_with_a_public_address() -> None:
    tokens = {7: "t" * 22, 9: "u" * 22}
    assert portrait_urls(None, 1, tokens) == {}
    assert portrait_urls("https://x.example/", 1, tokens) == {
        7: "https://x.example/portraits/1/7-" + "t" * 22 + ".webp",
        9: "https://x.example/portraits/1/9-" + "u" * 22 + ".webp",
    }
