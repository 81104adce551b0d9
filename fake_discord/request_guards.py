"""What stands between a REST request and the fake's route: a fault a test injected, Discord's
OpenAPI description, and its rate limits.

Apart from the server (``fake_discord.server``), which routes the request and holds the state;
each guard here either answers in the route's place or lets the request through.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from fake_discord import openapi, responses
from fake_discord.backend import Backend
from fake_discord.ratelimits import RateLimiter
from fake_discord.routes import Handler

JSON = dict[str, Any]


@dataclass
class Fault:
    """An answer a test injected (``FakeDiscord.inject_fault``) for the next matching requests."""

    method: str
    path: re.Pattern[str]
    status: int
    remaining: int
    retry_after: float
    global_limit: bool = False
    """A 429 of the bot's global limit (``X-RateLimit-Global``), not of one route's bucket."""


def injected(faults: list[Fault], method: str, path: str) -> web.Response | None:
    """The injected answer to ``method path`` (no /api/v10), if a fault still matches it."""
    for fault in faults:
        if fault.remaining > 0 and fault.method in (method, "*") and fault.path.search(path):
            fault.remaining -= 1
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.global_limit,
            }
            headers = {"Via": "1.1 google", "Retry-After": str(fault.retry_after)}
            if fault.global_limit:
                headers |= {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
            status = fault.status
            return responses.reply(
                body if status == 429 else {"message": "injected", "code": 0}, status, headers
            )
    return None


async def described(fake: Backend, request: web.Request, path: str) -> web.StreamResponse | None:
    """Hold the request against Discord's OpenAPI description: a path it lacks gets Discord's
    404; a body its schema refuses is recorded here and refused (400) by the route's handler,
    after its own checks, whose words are plainer."""
    found, problems = openapi.route_problems(request.method, path)
    if found is None:
        fake.violate(f"{request.method} {path}", problems, rejected=True)
        return responses.error(404, 0, f"404: Not Found ({request.method} {path})")
    if found.body is None:
        return None
    body, _ = await responses.read_body(request)
    if not (problems := openapi.body_problems(found, body)):
        return None
    fake.violate(f"{request.method} {found.template}", problems, rejected=fake.limits.reject_invalid)
    request[responses.SPEC] = problems
    return None


async def limited(
    fake: Backend,
    limiter: RateLimiter,
    request: web.Request,
    route: str,
    path: str,
    ids: tuple[str, ...],
    handler: Handler,
) -> web.StreamResponse:
    """Answer within Discord's rate limits: 429 beyond them, the bucket's headers always."""
    major = ids[0] if path.startswith(("/channels/", "/guilds/")) and ids else path
    decision = limiter.check(request.method, path, f"{route} {major}")
    if decision.retry_after is not None:
        fake.violate(route, [f"rate limited: {request.method} {path}"], rejected=True)
        body = {"message": "You are being rate limited.", "retry_after": decision.retry_after}
        return responses.reply(body | {"global": decision.global_limit}, 429, decision.headers)
    response = await handler(fake, request, route, *ids)
    response.headers.update(decision.headers)
    return response
