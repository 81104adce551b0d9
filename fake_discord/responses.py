"""How the fake Discord answers a REST call: JSON exactly as discord.py reads it, Discord's error
bodies and codes, and the checks every message body goes through (limits, mentions).

Shared by the endpoints of ``fake_discord.routes`` and ``fake_discord.channel_routes``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import web

from fake_discord.backend import Backend, Upload
from fake_discord.records import InteractionRecord
from fake_discord.validate import mention_problems, validate_message

JSON = dict[str, Any]


def reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly `application/json`: discord.py ignores bodies labelled otherwise."""
    return web.Response(
        body=json.dumps(data).encode(),
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


async def read_body(request: web.Request) -> tuple[JSON, list[Upload]]:
    """JSON body, or multipart `payload_json` plus `files[n]` parts in index order."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        payload = json.loads(str(form.get("payload_json") or "{}"))
        uploads: list[tuple[int, Upload]] = []
        for name, part in form.items():
            if (found := re.fullmatch(r"files\[(\d+)\]", name)) and isinstance(part, web.FileField):
                uploads.append((int(found[1]), (part.filename, part.file.read(), part.content_type)))
        return payload, [upload for _, upload in sorted(uploads)]
    text = await request.text()
    return (json.loads(text) if text else {}), []


def check_message(
    fake: Backend, route: str, body: JSON, *, creating: bool, record: InteractionRecord | None = None
) -> web.Response | None:
    """Record limit and mention problems; answer 400 like Discord when limits are enforced."""
    if fake.limits.silent_mentions:
        fake.violate(route, mention_problems(body), rejected=False)
    if problems := validate_message(body, creating=creating):
        fake.violate(route, problems, rejected=fake.limits.reject_invalid)
        if fake.limits.reject_invalid:
            if record is not None:
                record.errors.append({"status": 400, "code": 50035, "message": "; ".join(problems)})
                record.touch()
            return invalid_form(problems)
    return None


def refuse(
    fake: Backend, record: InteractionRecord, route: str, status: int, code: int, text: str, why: str
) -> web.Response:
    fake.violate(route, [why], rejected=True)
    record.errors.append({"status": status, "code": code, "message": text, "problem": why})
    record.touch()
    return error(status, code, text)
