"""Portraits: any accepted image, read with limits and re-encoded small, and where it is shown.

An uploaded image is hostile until decoded: it may be huge, not an image at all, a few
kilobytes that declare a billion pixels (a decompression bomb), a file built to take minutes
or gigabytes to decode (a progressive JPEG whose last scan repeats a thousand times, millions
of empty chunks Pillow reads one by one in Python), or carry a camera's EXIF (GPS included),
an ICC profile or text chunks. So this process never decodes one: it only refuses what the
bytes show at once (:func:`precheck`: past :data:`MAX_UPLOAD_BYTES`, not PNG, JPEG, GIF or
WebP by their first bytes, more than :data:`MAX_PIXELS` by the header), and a child process
with CPU-time and memory limits decodes the rest (``bot.render.portrait_reader``,
``bot.render.portrait_worker``): an animation gives its first frame, the picture is turned
upright by its EXIF orientation, shrunk to fit :data:`SIDE` pixels, and written afresh as WebP
from bare pixels. Nothing of the upload but its pixels is kept.

Pillow, because it is already the project's image library (the /odds charts), reads every
format Discord accepts, and has the bomb guard; the alternatives (pyvips, OpenCV, imageio)
are large native dependencies for one thumbnail, or wrap Pillow anyway.
"""

from collections.abc import Mapping

from PIL import Image

from bot.errors import BotError
from bot.render.portrait_worker import MAX_PIXELS, Refusal, Refused

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
"""The largest image accepted, checked before it is read or decoded."""
BOMB_PIXELS = 2 * (Image.MAX_IMAGE_PIXELS or MAX_PIXELS)
"""Past this many pixels Pillow calls an image a decompression bomb (an error, not a warning)."""
MEDIA_TYPE = "image/webp"
FILE_NAME = "portrait.webp"
"""The name a card attaches the portrait under (``attachment://portrait.webp``)."""
EXTENSION = "webp"

TOO_BIG = (
    "That image is {size:,} KiB; a portrait may be at most {limit} MiB. Send a smaller one "
    "(a screenshot or a photo saved smaller)."
)
REFUSALS = {
    Refusal.NOT_AN_IMAGE: "That file is not an image I can read: send a PNG, JPEG, GIF or WebP picture.",
    Refusal.TOO_MANY_PIXELS: (
        "That image is {width:,}×{height:,} pixels, more than {limit} million: it may be a trick to "
        "exhaust memory, and a portrait needs far fewer. Shrink it and send it again."
    ),
    Refusal.BOMB: (
        "That image declares so many pixels that decoding it could exhaust memory (a decompression "
        "bomb): I refused it. Send an ordinary picture."
    ),
    Refusal.BROKEN: "That image is damaged or cut short: I could not decode it. Save it again and send that.",
    Refusal.TOO_DETAILED: "That image stays too large even shrunk to a thumbnail: send a simpler picture.",
}
"""What a member is told for each :class:`~bot.render.portrait_worker.Refusal`."""


def refusal(refused: Refused) -> BotError:
    """The private answer to a refused picture, in words saying what to send instead."""
    text = REFUSALS[refused.why]
    return BotError(text.format(width=refused.width, height=refused.height, limit=MAX_PIXELS // 1_000_000))


def refuse_size(size: int) -> None:
    """Refuse bytes past :data:`MAX_UPLOAD_BYTES` (a claimed size, before reading; then the real one)."""
    if size > MAX_UPLOAD_BYTES:
        raise BotError(TOO_BIG.format(size=-(-size // 1024), limit=MAX_UPLOAD_BYTES // (1024 * 1024)))


def precheck(data: bytes) -> None:
    """Refuse what the bytes show without decoding: too many of them, no picture format we read
    by its first bytes, too many pixels by its header. A few comparisons and at most
    :data:`JPEG_SEGMENTS` steps, so it runs on the event loop; whatever it cannot tell, the
    child decoding the picture checks again (Pillow's own reading of the header)."""
    refuse_size(len(data))
    size = declared_size(data)
    if size is None:
        return
    width, height = size
    if width * height > BOMB_PIXELS:
        raise refusal(Refused(Refusal.BOMB))
    if width * height > MAX_PIXELS:
        raise refusal(Refused(Refusal.TOO_MANY_PIXELS, width, height))


JPEG_SEGMENTS = 64
"""Segments read before a JPEG's frame header; a camera's file has about ten."""
JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""The markers of a JPEG frame header (SOF0–SOF15, less DHT, JPG and DAC)."""
JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})
"""Markers with no length after them (TEM, RST0–RST7)."""


def declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the header declares them; ``None`` where a deeper read is needed (a
    JPEG with many segments first); :class:`BotError` for no format we read."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return (_be(data, 16, 4), _be(data, 20, 4)) if data[12:16] == b"IHDR" else None
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return _le(data, 6, 2), _le(data, 8, 2)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg_size(data)
    raise refusal(Refused(Refusal.NOT_AN_IMAGE))


def _be(data: bytes, at: int, size: int) -> int:
    return int.from_bytes(data[at : at + size], "big")


def _le(data: bytes, at: int, size: int) -> int:
    return int.from_bytes(data[at : at + size], "little")


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        return _le(data, 24, 3) + 1, _le(data, 27, 3) + 1
    if chunk == b"VP8L":
        bits = _le(data, 21, 4)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":
        return _le(data, 26, 2) & 0x3FFF, _le(data, 28, 2) & 0x3FFF
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    for _ in range(JPEG_SEGMENTS):
        while data[at : at + 1] == b"\xff":
            at += 1
        marker = data[at : at + 1]
        if not marker:
            return None
        if marker[0] in JPEG_STANDALONE:
            at += 1
            continue
        if marker[0] in JPEG_FRAMES:
            return _be(data, at + 6, 2), _be(data, at + 4, 2)
        if marker[0] == 0xDA:  # a scan before any frame header: Pillow decides
            return None
        at += 1 + _be(data, at + 1, 2)
    return None


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
