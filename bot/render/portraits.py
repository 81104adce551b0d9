"""Portraits: any accepted image, decoded with limits and re-encoded small, and where it is shown.

An uploaded image is hostile until decoded: it may be huge, not an image at all, a few
kilobytes that declare a billion pixels (a decompression bomb), or carry a camera's EXIF (GPS
included), an ICC profile or text chunks. So the bytes are capped before anything decodes
them, only PNG, JPEG, GIF and WebP are opened, the pixel count is read from the header and
refused past :data:`MAX_PIXELS` before decoding (Pillow's own bomb guard, an error past twice
its limit that fires while the header is read, is turned into a clear refusal too), an
animation gives its first frame, and the picture is turned upright by its EXIF orientation,
shrunk to fit :data:`SIDE` pixels, and written afresh as WebP from bare pixels: nothing of the
upload but its pixels is kept. Decoding runs in a worker thread (:func:`accept`), so a large
image never holds the event loop.

Pillow, because it is already the project's image library (the /odds charts), reads every
format Discord accepts, and has the bomb guard; the alternatives (pyvips, OpenCV, imageio)
are large native dependencies for one thumbnail, or wrap Pillow anyway.
"""

import asyncio
import io
import weakref
from collections.abc import Mapping

import discord
from PIL import Image, ImageOps, UnidentifiedImageError

from bot.errors import BotError

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
"""The largest image accepted, checked before it is read or decoded."""
MAX_PIXELS = 24_000_000
"""The most pixels an accepted image may declare (a 6000×4000 photo); below Pillow's own
warning (89 million), so an image past it is refused here, in our words, before decoding."""
SIDE = 256
"""A portrait's longest side after re-encoding: a thumbnail's size on any screen."""
MAX_STORED_BYTES = 64 * 1024
"""The most a re-encoded portrait may weigh (it travels in every sheet export, in base64)."""
QUALITIES = (82, 65, 45)
"""WebP qualities tried in turn until the portrait fits :data:`MAX_STORED_BYTES`."""
FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
MEDIA_TYPE = "image/webp"
FILE_NAME = "portrait.webp"
"""The name a card attaches the portrait under (``attachment://portrait.webp``)."""
EXTENSION = "webp"

TOO_BIG = (
    "That image is {size:,} KiB; a portrait may be at most {limit} MiB. Send a smaller one "
    "(a screenshot or a photo saved smaller)."
)
NOT_AN_IMAGE = "That file is not an image I can read: send a PNG, JPEG, GIF or WebP picture."
TOO_MANY_PIXELS = (
    "That image is {width:,}×{height:,} pixels, more than {limit} million: it may be a trick to "
    "exhaust memory, and a portrait needs far fewer. Shrink it and send it again."
)
BOMB = (
    "That image declares so many pixels that decoding it could exhaust memory (a decompression "
    "bomb): I refused it. Send an ordinary picture."
)
BROKEN = "That image is damaged or cut short: I could not decode it. Save it again and send that."
TOO_DETAILED = "That image stays too large even shrunk to a thumbnail: send a simpler picture."


def refuse_size(size: int) -> None:
    """Refuse bytes past :data:`MAX_UPLOAD_BYTES` (a claimed size, before reading; then the real one)."""
    if size > MAX_UPLOAD_BYTES:
        raise BotError(TOO_BIG.format(size=-(-size // 1024), limit=MAX_UPLOAD_BYTES // (1024 * 1024)))


def reencode(data: bytes) -> bytes:
    """The portrait made from ``data``: at most :data:`SIDE` a side, WebP, nothing but its
    pixels; :class:`BotError` with what to do instead for anything refused."""
    refuse_size(len(data))
    try:
        with Image.open(io.BytesIO(data), formats=FORMATS) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise BotError(
                    TOO_MANY_PIXELS.format(width=width, height=height, limit=MAX_PIXELS // 1_000_000)
                )
            image.seek(0)
            image.draft("RGB", (SIDE * 2, SIDE * 2))  # JPEG: decode at a fraction of the size
            pixels = _bare(ImageOps.exif_transpose(image))
    except Image.DecompressionBombError:
        raise BotError(BOMB) from None
    except UnidentifiedImageError:
        raise BotError(NOT_AN_IMAGE) from None
    except (OSError, ValueError, SyntaxError, EOFError):
        raise BotError(BROKEN) from None
    pixels.thumbnail((SIDE, SIDE), Image.Resampling.LANCZOS)
    for quality in QUALITIES:
        out = io.BytesIO()
        pixels.save(out, "WEBP", quality=quality, method=4, exif=b"", icc_profile=None, xmp=b"")
        if out.tell() <= MAX_STORED_BYTES:
            return out.getvalue()
    raise BotError(TOO_DETAILED)


def _bare(image: Image.Image) -> Image.Image:
    """The image's pixels in a new image, RGB or RGBA, carrying none of its ``info`` (EXIF, ICC,
    text chunks, XMP)."""
    has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    mode = "RGBA" if has_alpha else "RGB"
    converted = image.convert(mode)
    return Image.frombytes(mode, converted.size, converted.tobytes())


DECODING_AT_ONCE = 2
"""Images decoded at the same time, in all: one may take a hundred megabytes while it decodes."""
_decoding: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]" = (
    weakref.WeakKeyDictionary()
)
"""Each event loop's semaphore (a semaphore belongs to the loop it first waited on)."""


async def accept(data: bytes) -> bytes:
    """:func:`reencode`, in a worker thread (decoding a large image takes a while), a few at a
    time (:data:`DECODING_AT_ONCE`), so a flood of uploads cannot exhaust memory."""
    refuse_size(len(data))
    loop = asyncio.get_running_loop()
    async with _decoding.setdefault(loop, asyncio.Semaphore(DECODING_AT_ONCE)):
        return await asyncio.to_thread(reencode, data)


async def read_upload(attachment: discord.Attachment) -> bytes:
    """An uploaded image's portrait: its claimed size refused before downloading, then its
    bytes decoded and re-encoded (:func:`accept`)."""
    refuse_size(attachment.size)
    try:
        data = await attachment.read()
    except discord.HTTPException:
        raise BotError("I could not download that image from Discord: send it again.") from None
    return await accept(data)


def portrait_path(guild_id: int, character_id: int, token: str) -> str:
    """Where the web view serves a portrait: unguessable (``token``, 128 random bits) and
    unchanging for one image, so it is served without a session and cached for good."""
    return f"/portraits/{guild_id}/{character_id}-{token}.{EXTENSION}"


def portrait_urls(public_url: str | None, guild_id: int, tokens: Mapping[int, str]) -> dict[int, str]:
    """:func:`portrait_url` of every character in ``tokens`` (``storage.portraits.tokens``), for
    a card that shows several (the Conflict board's thumbnails); empty without a public address."""
    found = {cid: portrait_url(public_url, guild_id, cid, token) for cid, token in tokens.items()}
    return {cid: url for cid, url in found.items() if url is not None}


def portrait_url(public_url: str | None, guild_id: int, character_id: int, token: str | None) -> str | None:
    """A URL Discord can fetch the portrait from (a webhook's avatar, a card's thumbnail): only
    when the web view has a public address (``MISTBORN_WEB_PUBLIC_URL``) and there is a portrait."""
    if not public_url or token is None:
        return None
    return public_url.rstrip("/") + portrait_path(guild_id, character_id, token)
