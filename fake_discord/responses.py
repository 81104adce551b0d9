"""How the fake Discord answers a REST call: JSON exactly as discord.py reads it, Discord's error
bodies and codes, and the checks every message body goes through (limits, mentions).

Shared by the endpoints of ``fake_discord.routes`` and ``fake_discord.channel_routes``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import orjson
from aiohttp import web

from fake_discord.backend import Backend, Upload
from fake_discord.layout import edit_problems
from fake_discord.records import InteractionRecord
from fake_discord.validate import mention_problems, validate_message

JSON = dict[str, Any]


def reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly `application/json`: discord.py ignores bodies labelled otherwise."""
    return web.Response(
        body=orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS),
        status=status,
        headers={"Content-Type": "application/json"} | (headers or {}),
    )


def error(status: int, code: int, message: str, errors: JSON | None = None) -> web.Response:
    body: JSON = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return reply(body, status)


def invalid_form(problems: list[str]) -> web.Response:
    errors = {
        "limits": {str(i): {"_errors": [{"code": "LIMIT", "message": p}]} for i, p in enumerate(problems)}
    }
    return error(400, 50035, "Invalid Form Body", errors)


BODY = web.RequestKey("fake_discord.body", tuple)
SPEC = web.RequestKey("fake_discord.openapi", list)


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """JSON body, or multipart `payload_json` plus `files[n]` parts in index order.

    Read once per request: the OpenAPI check (``fake_discord.openapi``) reads it before the handler.
    """
    if BODY not in request:
        request[BODY] = await _parse_body(request)
    found: tuple[Any, list[Upload]] = request[BODY]
    return found


def spec_problems(request: web.Request) -> list[str]:
    """What Discord's OpenAPI description refused in this request's body (already recorded as
    violations by the server): the handler refuses with it when its own checks found nothing."""
    found: list[str] = request.get(SPEC, [])
    return found


async def _parse_body(request: web.Request) -> tuple[Any, list[Upload]]:
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        payload = orjson.loads(str(form.get("payload_json") or "{}"))
        uploads: list[tuple[int, Upload]] = []
        for name, part in form.items():
            if (found := re.fullmatch(r"files\[(\d+)\]", name)) and isinstance(part, web.FileField):
                uploads.append((int(found[1]), (part.filename, part.file.read(), part.content_type)))
        return payload, [upload for _, upload in sorted(uploads)]
    raw = await request.read()
    return (orjson.loads(raw) if raw else {}), []


def check_message(
    fake: Backend,
    route: str,
    body: JSON,
    *,
    creating: bool,
    record: InteractionRecord | None = None,
    spec: Sequence[str] = (),
    editing: JSON | None = None,
) -> web.Response | None:
    """Record limit and mention problems; answer 400 like Discord when limits are enforced, with
    our own limits' words when they found something, else with the description's (``spec``).
    ``editing``: the stored message an edit changes (a layout message stays one)."""
    if fake.limits.silent_mentions:
        fake.violate(route, mention_problems(body), rejected=False)
    problems = validate_message(body, creating=creating)
    problems += edit_problems(editing, body) if editing is not None else []
    if problems:
        fake.violate(route, problems, rejected=fake.limits.reject_invalid)
    return refuse_form(fake, problems or list(spec), record)


def refuse_form(
    fake: Backend, problems: list[str], record: InteractionRecord | None = None
) -> web.Response | None:
    """400 Invalid Form Body for these (already recorded) problems, when limits are enforced."""
    if not problems or not fake.limits.reject_invalid:
        return None
    if record is not None:
        record.errors.append({"status": 400, "code": 50035, "message": "; ".join(problems)})
        record.touch()
    return invalid_form(problems)


def refuse(
    fake: Backend, record: InteractionRecord, route: str, status: int, code: int, text: str, why: str
) -> web.Response:
    fake.violate(route, [why], rejected=True)
    record.errors.append({"status": status, "code": code, "message": text, "problem": why})
    record.touch()
    return error(status, code, text)
