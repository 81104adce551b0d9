"""The child process that reads one uploaded picture: ``python -m bot.render.portrait_worker CPU MEMORY``.

A picture is decoded here, never in the bot's process (``bot.render.portrait_reader`` says
why and how the bot drives it). The child imports Pillow, then lowers its own limits: ``CPU``
seconds of CPU time from now (past them the kernel ends it with SIGXCPU) and ``MEMORY`` bytes of
address space (past them an allocation fails with :class:`MemoryError`), and no core file. It
then reads the picture on stdin and answers on stdout, once, and exits:

* exit 0: the portrait, a WebP;
* exit 2: a refusal, one line naming a :class:`Refusal` (and for too many pixels, the size);
* exit 3 (:data:`OVER_MEMORY`): the picture needed more memory than its limit.

Empty input is a child the bot started ahead of need and never used (it closed the pipe, or
died): it exits quietly. This module imports nothing of the bot's but Pillow, so a child starts
in about 0.1 s of CPU (most of it Pillow's import, done before the picture comes).

The decode keeps the full-sized pixels once: a picture already in RGB or RGBA is shrunk in
place, then turned upright and copied bare, so a 24-megapixel PNG peaks near its 96 MB of
pixels, not five copies of them.
"""

import io
import math
import os
import resource
import sys
from enum import StrEnum

from PIL import (
    GifImagePlugin,
    Image,
    ImageOps,
    JpegImagePlugin,
    PngImagePlugin,
    UnidentifiedImageError,
    WebPImagePlugin,
)

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
PLUGINS = (PngImagePlugin, JpegImagePlugin, GifImagePlugin, WebPImagePlugin)
"""Imported here, ahead of any picture: otherwise Pillow's first ``open`` of a WebP imports all
its forty plugins, 0.25 s of a child started ahead to have nothing left to load."""
REFUSED = 2
OVER_MEMORY = 3


class Refusal(StrEnum):
    """Why a picture was refused; the bot words each (``bot.render.portraits.REFUSALS``)."""

    NOT_AN_IMAGE = "not-an-image"
    TOO_MANY_PIXELS = "too-many-pixels"
    BOMB = "bomb"
    BROKEN = "broken"
    TOO_DETAILED = "too-detailed"


class Refused(Exception):
    """A picture refused, and its size when that was why."""

    def __init__(self, why: Refusal, width: int = 0, height: int = 0) -> None:
        super().__init__(why.value)
        self.why, self.width, self.height = why, width, height

    @property
    def line(self) -> str:
        """What the child writes: ``too-many-pixels 8000 5000``."""
        return f"{self.why.value} {self.width} {self.height}"

    @classmethod
    def read(cls, line: str) -> "Refused":
        """The refusal a child wrote (:attr:`line`); :class:`ValueError` for anything else."""
        why, width, height = line.split()
        return cls(Refusal(why), int(width), int(height))


def reencode(data: bytes) -> bytes:
    """The portrait made from ``data``: at most :data:`SIDE` a side, WebP, nothing but its
    pixels; :class:`Refused` for anything refused."""
    try:
        with Image.open(io.BytesIO(data), formats=FORMATS) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise Refused(Refusal.TOO_MANY_PIXELS, width, height)
            image.seek(0)
            image.draft("RGB", (SIDE * 2, SIDE * 2))  # JPEG: decode at a fraction of the size
            pixels = _small(image)
    except Image.DecompressionBombError:
        raise Refused(Refusal.BOMB) from None
    except UnidentifiedImageError:
        raise Refused(Refusal.NOT_AN_IMAGE) from None
    except (OSError, ValueError, SyntaxError, EOFError):
        raise Refused(Refusal.BROKEN) from None
    for quality in QUALITIES:
        out = io.BytesIO()
        pixels.save(out, "WEBP", quality=quality, method=4, exif=b"", icc_profile=None, xmp=b"")
        if out.tell() <= MAX_STORED_BYTES:
            return out.getvalue()
    raise Refused(Refusal.TOO_DETAILED)


def _small(image: Image.Image) -> Image.Image:
    """The first frame shrunk to fit :data:`SIDE`, upright by its EXIF orientation, in RGB or
    RGBA, in a new image carrying none of its ``info`` (EXIF, ICC, text chunks, XMP)."""
    image.load()
    has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    mode = "RGBA" if has_alpha else "RGB"
    pixels = image if image.mode == mode else image.convert(mode)
    pixels.thumbnail((SIDE, SIDE), Image.Resampling.LANCZOS)
    ImageOps.exif_transpose(pixels, in_place=True)
    return Image.frombytes(mode, pixels.size, pixels.tobytes())


def limit(cpu_seconds: int, memory_bytes: int) -> None:
    """Lower this process's limits: ``cpu_seconds`` more of CPU, ``memory_bytes`` of address
    space in all, no core file (never raised past a hard limit already lower)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = math.ceil(used.ru_utime + used.ru_stime)
    _lower(resource.RLIMIT_CPU, spent + cpu_seconds, spent + cpu_seconds + 1)
    _lower(resource.RLIMIT_AS, memory_bytes, memory_bytes)
    _lower(resource.RLIMIT_CORE, 0, 0)


def _lower(kind: int, soft: int, hard: int) -> None:
    _, current = resource.getrlimit(kind)
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(kind, (soft, hard))


def main(argv: list[str]) -> int:
    cpu_seconds, memory_bytes = (int(value) for value in argv)
    limit(cpu_seconds, memory_bytes)
    data = sys.stdin.buffer.read()
    if not data:
        return 0
    try:
        picture = reencode(data)
    except Refused as refused:
        sys.stdout.write(refused.line)
        return REFUSED
    except MemoryError:
        os._exit(OVER_MEMORY)  # at once: anything more might need memory too
    sys.stdout.buffer.write(picture)
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(code)  # nothing to tidy: the bot is waiting for the answer
