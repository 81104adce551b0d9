"""Pictures built to be costly to decode (issue 39), made in code: no binary file is committed.

Each is a valid file that Pillow reads to the end, and each costs far more than its size says:

* :func:`scan_bomb`: a real progressive JPEG whose last scan is repeated: each repeat is a few
  bytes that make libjpeg walk every block of the picture again (1,000 at 24 megapixels: about
  30 s of CPU, in C, which nothing in the bot's process could stop);
* :func:`comment_gif`: 4 million one-byte comment blocks before the picture, each read by
  Pillow's Python code (seconds holding the interpreter's lock);
* :func:`chunk_png`: 600,000 empty chunks before the pixels, likewise;
* :func:`canvas_webp`: about a kilobyte that decodes to a canvas at the pixel limit (Pillow's
  WebP decoder keeps it twice: ~400 MB);
* :func:`flat_png`: a flat picture at the pixel limit, 80 KB that decode to 96 MB.

The last two are ordinary pictures at the limits, accepted when their child has the memory; the
first three must be refused within the child's limits.
"""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image

from bot.render.portrait_worker import MAX_PIXELS

SIDE = int(MAX_PIXELS**0.5)
"""The side of the largest square picture accepted."""


def scan_bomb(side: int = SIDE, scans: int = 1000) -> bytes:
    """A progressive JPEG of ``side``² flat pixels whose last scan comes ``scans`` times."""
    out = io.BytesIO()
    Image.new("RGB", (side, side), (120, 130, 140)).save(out, "JPEG", progressive=True)
    data = out.getvalue()
    end = b"\xff\xd9"
    assert data.endswith(end)
    last = data[data.rindex(b"\xff\xda") : -len(end)]
    return data[: -len(end)] + last * scans + end


def comment_gif(blocks: int = 4_000_000) -> bytes:
    """A 1×1 GIF after one comment of ``blocks`` sub-blocks of one byte each (8 MB at 4 million)."""
    screen = b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
    comment = b"\x21\xfe" + b"\x01c" * blocks + b"\0"
    picture = b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00"
    return screen + comment + picture + b"\x3b"


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def chunk_png(chunks: int = 600_000) -> bytes:
    """A 1×1 PNG with ``chunks`` empty private chunks before its pixels (7 MB at 600,000)."""
    header = _chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    pixels = _chunk(b"IDAT", zlib.compress(b"\0\0\0\0"))
    return b"\x89PNG\r\n\x1a\n" + header + _chunk(b"quIT", b"") * chunks + pixels + _chunk(b"IEND", b"")


def canvas_webp(side: int = SIDE) -> bytes:
    """A lossless WebP of ``side``² flat pixels: about a kilobyte."""
    out = io.BytesIO()
    Image.new("RGB", (side, side), (1, 2, 3)).save(out, "WEBP", lossless=True)
    return out.getvalue()


def flat_png(side: int = SIDE) -> bytes:
    """A PNG of ``side``² pixels of one colour: about 80 KB."""
    out = io.BytesIO()
    Image.new("RGB", (side, side), (10, 20, 30)).save(out, "PNG")
    return out.getvalue()


def ordinary_png(side: int = 64) -> bytes:
    """The everyday portrait: a small picture, decoded in a few milliseconds."""
    out = io.BytesIO()
    Image.effect_noise((side, side), 50).convert("RGB").save(out, "PNG")
    return out.getvalue()


def hostile_images() -> dict[str, bytes]:
    """Every picture above at the size the issue measured it."""
    return {
        "progressive JPEG, last scan ×1,000": scan_bomb(),
        "GIF of 4 million comment blocks": comment_gif(),
        "PNG of 600,000 empty chunks": chunk_png(),
        "1 KB WebP of 24 Mpx": canvas_webp(),
        "flat 24 Mpx PNG": flat_png(),
    }
