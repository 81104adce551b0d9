"""The fake Discord's application emojis (``/applications/{id}/emojis``), as Discord keeps them:
the app's own, shared by every server and DM, and no server's emoji slots.

Listing answers ``{"items": [...]}``. Creating takes a ``name`` of 2-32 letters, digits and
underscores, unique within the application, and an ``image`` given as a data URI of a PNG,
JPEG or GIF of at most 256 KiB; a name already used is refused as Discord refuses it (400, code
50035, ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN`` under ``errors.name``), which is no mistake of
the bot's: two processes starting at once both ask. An application keeps at most 2,000. Another
application's path is refused (403, 50001, as for commands). Bodies are also held against
Discord's OpenAPI description by the server (``fake_discord.openapi``).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.responses import error, invalid_form, read_body, reply, spec_problems
from fake_discord.world_json import user_json

JSON = dict[str, Any]
NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
IMAGE = re.compile(r"data:image/(png|jpeg|gif);base64,(.+)", re.S)
SIGNATURES = {"png": b"\x89PNG\r\n\x1a\n", "jpeg": b"\xff\xd8\xff", "gif": b"GIF8"}
MAX_IMAGE = 256 * 1024
MAX_EMOJIS = 2000


def emoji_problems(body: JSON) -> list[str]:
    """What Discord refuses in a new emoji beyond the description's shapes."""
    problems: list[str] = []
    if not NAME.fullmatch(str(body.get("name") or "")):
        problems.append("name must be 2-32 letters, digits or underscores")
    found = IMAGE.fullmatch(str(body.get("image") or ""))
    if found is None:
        return [*problems, "image must be a data URI of a PNG, JPEG or GIF"]
    try:
        data = base64.b64decode(found[2], validate=True)
    except binascii.Error:
        return [*problems, "image is not valid base64"]
    if not data.startswith(SIGNATURES[found[1]]):
        problems.append(f"image says image/{found[1]} but its bytes are not one")
    if len(data) > MAX_IMAGE:
        problems.append(f"image is {len(data)} bytes (max {MAX_IMAGE})")
    return problems


def image_bytes(data_uri: str) -> bytes:
    """The picture a data URI already checked by :func:`emoji_problems` holds."""
    return base64.b64decode(data_uri.split(",", 1)[1])


def name_taken() -> web.Response:
    said = {"code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "message": "Emoji name already taken"}
    taken = {"_errors": [said]}
    return error(400, 50035, "Invalid Form Body", {"name": taken})


def _own(fake: Backend, application: str) -> bool:
    return int(application) == fake.world.application_id


async def application_emojis(
    fake: Backend, request: web.Request, route: str, application: str
) -> web.StreamResponse:
    if not _own(fake, application):
        return error(403, 50001, "Missing Access")
    if request.method == "GET":
        return reply({"items": list(fake.app_emojis.values())})
    body, _ = await read_body(request)
    if problems := emoji_problems(body) or spec_problems(request):
        fake.violate(route, problems, rejected=True)
        return invalid_form(problems)
    if any(e["name"] == body["name"] for e in fake.app_emojis.values()):
        return name_taken()
    if len(fake.app_emojis) >= MAX_EMOJIS:
        fake.violate(route, [f"more than {MAX_EMOJIS} application emojis"], rejected=True)
        return error(400, 30008, "Maximum number of emojis reached")
    emoji_id = fake.world.ids.next()
    emoji: JSON = {
        "id": str(emoji_id),
        "name": body["name"],
        "roles": [],
        "user": user_json(fake.world.bot),
        "require_colons": True,
        "managed": False,
        "animated": body["image"].startswith("data:image/gif"),
        "available": True,
    }
    fake.app_emojis[emoji_id] = emoji
    fake.emoji_images[emoji_id] = image_bytes(str(body["image"]))
    return reply(emoji, status=201)


async def application_emoji(
    fake: Backend, request: web.Request, route: str, application: str, emoji_id: str
) -> web.StreamResponse:
    if not _own(fake, application):
        return error(403, 50001, "Missing Access")
    emoji = fake.app_emojis.get(int(emoji_id))
    if emoji is None:
        return error(404, 10014, "Unknown Emoji")
    if request.method == "GET":
        return reply(emoji)
    if request.method == "DELETE":
        del fake.app_emojis[int(emoji_id)]
        fake.emoji_images.pop(int(emoji_id), None)
        return web.Response(status=204)
    body, _ = await read_body(request)
    name = str(body.get("name") or "")
    if not NAME.fullmatch(name):
        fake.violate(route, ["name must be 2-32 letters, digits or underscores"], rejected=True)
        return invalid_form(["name must be 2-32 letters, digits or underscores"])
    if any(e["name"] == name and e is not emoji for e in fake.app_emojis.values()):
        return name_taken()
    emoji["name"] = name
    return reply(emoji)
