"""A picture must not hold the table (issue 39): pictures are read by a child with limits, a few
at a time, a few a minute for each member; every refusal is private and stores nothing.

Through the real dispatch (``bot_env``): a progressive JPEG whose last scan repeats a thousand
times is refused by a child the kernel stops at its CPU limit; a picture past the child's memory
is refused in words; past the waiting room, "busy"; past a member's pictures a minute, when to
try again (the command and the form alike); an import whose portrait is such a picture imports
nothing; removing a portrait there is not writes nothing. ``bot.render.portraits.precheck``
reads each format's header as Pillow does, and refuses junk without starting a child.
"""

import asyncio
import functools
import io
import os
import signal
from pathlib import Path

import pytest
from PIL import Image

from bot.errors import BotError
from bot.render.portrait_reader import (
    BUSY,
    NICENESS,
    SLOW_AFTER,
    TOO_LARGE,
    TOO_SLOW,
    WALL_SECONDS,
    MemberTurns,
    PortraitReader,
)
from bot.render.portraits import declared_size, precheck
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, export_character, make_character, revise_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from testbed.hostile_images import canvas_webp, ordinary_png, scan_bomb
from testbed.stalls import answer_of, sent_in
from tests.bot.test_bad_input import db_rows

KILLED = (-signal.SIGXCPU, -signal.SIGKILL)
"""A child ended by the kernel at its CPU limit, or by the bot at its wall-clock limit."""
ANSWERED = WALL_SECONDS + 15
"""Seconds within which a costly picture is answered, however starved of CPU its child is."""


@functools.cache
def bomb() -> bytes:
    """4 megapixels whose last scan comes 1,750 times: ~48 KB, small enough for the portrait of a
    sheet file (64 KiB in base64), and nearly twice the child's 2 s of CPU to decode even on a
    fast core (1,000 scans were decoded within the limit on one)."""
    return scan_bomb(side=2000, scans=1750)


def written(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


async def vin_portrait(env: BotEnv) -> bytes | None:
    vin = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    found = await env.storage.portraits.get(env.guild_id, vin.id)
    return None if found is None else found.image


async def first_child(reader: PortraitReader) -> asyncio.subprocess.Process:
    """The first child to start reading a picture."""
    async with asyncio.timeout(30):
        while not reader.children:
            await asyncio.sleep(0.005)
    return reader.children[0]


async def test_a_scan_bomb_is_refused_privately_by_a_child_stopped_at_its_limit(
    vin: BotEnv, tmp_path: Path
) -> None:
    vin.harness.settle_timeout = ANSWERED
    path = written(tmp_path, "bomb.jpg", bomb())
    before = await db_rows(vin.storage)
    sent = asyncio.create_task(vin.slash(f'/character portrait image:"{path}"', user="player1"))
    child = await first_child(vin.bot.portrait_reader)
    await asyncio.sleep(SLOW_AFTER + 0.3)
    below = os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
    assert os.getpriority(os.PRIO_PROCESS, child.pid) == below, "a slow child gives way to the bot"
    reply = await sent
    assert reply.ephemeral and TOO_SLOW in reply.content, reply.text
    assert child.returncode in KILLED
    assert await db_rows(vin.storage) == before, "a refused picture writes nothing"
    assert not vin.harness.violations


async def test_a_picture_past_the_childs_memory_is_refused_in_words(vin: BotEnv, tmp_path: Path) -> None:
    """A kilobyte of WebP that decodes to a 24-megapixel canvas (Pillow keeps it twice) in a
    child allowed 256 MiB: the child fails cleanly, the member is told so, nothing is stored;
    an ordinary picture still fits."""
    vin.bot.portrait_reader = PortraitReader(per_minute=0, memory_bytes=256 * 2**20)  # closed with the bot
    path = written(tmp_path, "canvas.webp", canvas_webp())
    reply = await vin.slash(f'/character portrait image:"{path}"', user="player1")
    assert reply.ephemeral and TOO_LARGE in reply.content, reply.text
    assert await vin_portrait(vin) is None
    path = written(tmp_path, "face.png", ordinary_png())
    reply = await vin.slash(f'/character portrait image:"{path}"', user="player1")
    assert "New portrait for **Vin**" in card_text(reply.message or {}), reply.text


async def test_past_the_waiting_room_a_picture_is_refused_at_once(vin: BotEnv, tmp_path: Path) -> None:
    """One child at a time and one picture waiting: a third member's picture, sent meanwhile, is
    answered "busy" privately while the first is still being read."""
    env = vin
    reader = env.bot.portrait_reader = PortraitReader(per_minute=0, at_once=1, waiting=1, cpu_seconds=1)
    elend = make_character(name="Elend", kind=CharacterKind.HERO, owner_id=env.user_id("player2"))
    stored = await env.storage.characters.create(env.guild_id, elend)
    await env.storage.active.set(env.guild_id, env.user_id("player2"), stored.id)
    path = written(tmp_path, "bomb.jpg", bomb())
    here = env.world.guild
    first = await sent_in(env, here, "player1", f'/character portrait image:"{path}"')
    child = await first_child(reader)
    waiting = await sent_in(env, here, "player2", f'/character portrait image:"{path}"')
    async with asyncio.timeout(30):
        while not reader._queued:
            await asyncio.sleep(0.005)
    before = await db_rows(env.storage)
    _, busy = await answer_of(
        await sent_in(env, here, "narrator", f'/character portrait image:"{path}" name:Vin'), 30
    )
    assert busy.ephemeral and BUSY in busy.content, busy.text
    assert child.returncode is None, "refused while the first was still being read"
    assert await db_rows(env.storage) == before
    for record in (first, waiting):
        _, answered = await answer_of(record, ANSWERED)
        assert TOO_SLOW in answered.content, answered.text


async def refused_rate(reply: InteractionRecord) -> None:
    assert reply.ephemeral and "You may send 2 pictures a minute: try again in" in reply.content, reply.text


async def test_a_member_has_a_few_pictures_read_a_minute_by_command_or_form(
    vin: BotEnv, tmp_path: Path
) -> None:
    vin.bot.portrait_reader.turns.per_minute = 2
    path = written(tmp_path, "face.png", ordinary_png())
    for _ in range(2):
        reply = await vin.slash(f'/character portrait image:"{path}"', user="player1")
        assert "New portrait" in card_text(reply.message or {}), reply.text
    kept = await vin_portrait(vin)
    before = await db_rows(vin.storage)
    await refused_rate(await vin.slash(f'/character portrait image:"{path}"', user="player1"))
    opened = await vin.slash("/character portrait", user="player1")
    assert opened.modal is not None, "opening the form reads no picture"
    image = vin.harness.attach(path)
    await refused_rate(await vin.harness.submit({}, user="player1", files={"image": [image]}))
    assert await db_rows(vin.storage) == before and await vin_portrait(vin) == kept
    narrator = await vin.slash(f'/character portrait image:"{path}" name:Vin', user="narrator")
    assert "New portrait" in card_text(narrator.message or {}), "each member has pictures of their own"


@pytest.mark.parametrize(
    ("per_minute", "sent", "at", "wait"),
    [
        (2, [0.0], 1.0, 0.0),  # room for one more
        (2, [0.0, 10.0], 20.0, 40.0),  # full until the first is a minute old
        (2, [0.0, 10.0], 60.0, 0.0),  # the first has left the minute
        (2, [0.0, 10.0, 65.0], 66.0, 4.0),  # the second and third fill it again
        (0, [0.0] * 50, 1.0, 0.0),  # no limit
    ],
)
def test_a_members_pictures_are_counted_over_the_last_minute(
    per_minute: int, sent: list[float], at: float, wait: float
) -> None:
    turns = MemberTurns(per_minute)
    for moment in sent:
        assert turns.wait(7, moment) == 0.0
        turns.take(7, moment)
    assert turns.wait(7, at) == pytest.approx(wait)
    assert turns.wait(8, at) == 0.0, "another member's are their own"


async def test_an_import_whose_portrait_is_a_scan_bomb_imports_nothing(vin: BotEnv, tmp_path: Path) -> None:
    """A file of ours carries our own small WebP: one carrying a crafted picture was forged, and
    the whole import is refused, as for any refused portrait."""
    vin_sheet = (await vin.storage.characters.get_by_name(vin.guild_id, "Vin")).character
    text = export_character(revise_character(vin_sheet, name="Forged"), bomb())
    sheet = written(tmp_path, "forged.json", text.encode())
    vin.harness.settle_timeout = ANSWERED
    before = await db_rows(vin.storage)
    refused = await vin.slash(f'/character import file:"{sheet}"', user="player1")
    assert refused.ephemeral and TOO_SLOW in refused.content, refused.text
    assert await db_rows(vin.storage) == before


async def test_removing_a_portrait_there_is_not_is_refused_and_writes_nothing(vin: BotEnv) -> None:
    before = await db_rows(vin.storage)
    refused = await vin.slash("/character portrait remove:true", user="player1")
    assert await db_rows(vin.storage) == before, "not even the interaction as handled"
    assert refused.ephemeral and "**Vin** has no portrait to remove." in refused.content


def saved(image: Image.Image, kind: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **options)
    return out.getvalue()


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("PNG", {}),
        ("GIF", {}),
        ("JPEG", {}),
        ("JPEG", {"progressive": True, "exif": b"Exif\0\0" + b"\0" * 64}),
        ("WEBP", {}),  # VP8: lossy
        ("WEBP", {"lossless": True}),  # VP8L
        ("WEBP", {"exif": b"Exif\0\0" + b"\0" * 64}),  # VP8X: a chunk more than the frame
    ],
)
@pytest.mark.parametrize("size", [(1, 1), (317, 53), (4000, 3001)])
def test_the_header_declares_the_size_pillow_reads(
    kind: str, options: dict[str, object], size: tuple[int, int]
) -> None:
    data = saved(Image.new("RGB", size, (9, 8, 7)), kind, **options)
    assert declared_size(data) == Image.open(io.BytesIO(data)).size


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"#!/bin/sh\necho not a picture\n", "not an image I can read"),
        (b"", "not an image I can read"),
        (saved(Image.new("1", (8000, 5000)), "PNG"), "more than 24 million"),
        (saved(Image.new("1", (30_000, 30_000)), "PNG"), "decompression bomb"),
    ],
)
async def test_junk_is_refused_before_any_child_starts(
    data: bytes, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader = PortraitReader(per_minute=0)

    async def no_child() -> None:
        raise AssertionError("a child was started")

    monkeypatch.setattr(reader, "_start", no_child)
    with pytest.raises(BotError, match=words):
        precheck(data)
    with pytest.raises(BotError, match=words):
        await reader.read(data, member_id=1)
