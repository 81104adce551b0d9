"""Discord's answers to the bot's REST calls, watched for the three kinds that can get it banned.

Discord bans an address for an hour once it has answered 10,000 of its requests in ten minutes
with 401 (a bad token), 403 (no access) or 429 (rate limited; a *shared* bucket's 429s aside).
discord.py raises on 401 and 403 and sleeps out a 429 before trying again, but it cannot know
what the bot's own background work will do next. So the client hands discord.py this watch (an
aiohttp trace on discord.py's own session, its public ``http_trace`` option), which sees every
answer and:

* counts each refusal by status (``mistborn_refused_requests_total``, ``bot.metrics``), so an
  operator sees how far the bot is from that line;
* on a global 429 (``X-RateLimit-Global``), or one that did not come from Discord's API (no
  ``Via``: Cloudflare's ban), pauses the background work for ``Retry-After``
  (:meth:`~bot.workers.pacing.Pacer.pause`);
* on a 401 to a call made with the bot's token, once logged in, stops the bot: every call would
  be refused, each one counting. An interaction's webhook is left out: its token expires after
  15 minutes with 401 too, which says nothing of the bot's token. (A 401 at login is discord.py's:
  it raises ``LoginFailure``.)

The 403s of a channel where the bot lost access are the workers' to remember
(``bot.workers.refusals``).
"""

from collections.abc import Callable, Mapping
from types import SimpleNamespace

import aiohttp

from bot import metrics
from bot.workers.pacing import Pacer

REFUSALS = frozenset({401, 403, 429})
"""The statuses Discord counts toward its ban."""
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
"""Calls made with an interaction's token, not the bot's."""
DEFAULT_RETRY = 1.0
"""Seconds to pause when a global 429 does not say how long."""

_counted = {status: metrics.REFUSED.labels(str(status)) for status in REFUSALS}


def heard(
    status: int, path: str, headers: Mapping[str, str], pacer: Pacer, token_refused: Callable[[], None]
) -> None:
    """One answer from Discord: count it, pause, or stop, as the module docstring says."""
    if status not in REFUSALS:
        return
    if status == 429 and headers.get("X-RateLimit-Scope") == "shared":
        return  # a resource's limit, shared with other apps: Discord does not count it
    _counted[status].inc()
    if status == 429 and (headers.get("X-RateLimit-Global") == "true" or "Via" not in headers):
        pacer.pause(_seconds(headers.get("Retry-After")))
    elif status == 401 and not any(route in path for route in INTERACTION_ROUTES):
        token_refused()


def watch(pacer: Pacer, token_refused: Callable[[], None]) -> aiohttp.TraceConfig:
    """The trace to hand discord.py (``http_trace``); ``token_refused`` is called on each 401."""
    trace = aiohttp.TraceConfig()

    async def on_end(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        response = params.response
        heard(response.status, params.url.path, response.headers, pacer, token_refused)

    trace.on_request_end.append(on_end)
    return trace


def _seconds(text: str | None) -> float:
    try:
        return max(0.0, float(text)) if text is not None else DEFAULT_RETRY
    except ValueError:
        return DEFAULT_RETRY
