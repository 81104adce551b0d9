"""Discord's REST rate limits, as the fake enforces them when a test turns them on.

Discord limits each *bucket* (a route with its major parameter: the channel, the guild, the
webhook) to a number of requests per window, and a bot to 50 requests a second across all
routes except interaction responses. Every answer carries the bucket's state in
``X-RateLimit-Limit / -Remaining / -Reset-After / -Bucket`` headers, which discord.py reads to
wait before it would be refused; a request beyond a limit is answered 429 with ``retry_after``
(and ``global: true`` for the global limit), which discord.py sleeps out and retries.

Off by default (:attr:`~fake_discord.backend.Limits.rate_limits` is None): most tests send a
burst of edits to one channel and would only get slower. A test of a bot's pacing turns it on
and asserts nothing was refused (:attr:`RateLimiter.refused`).

Whatever the limits, the fake counts the *invalid requests* (:class:`InvalidRequests`): Discord
bans an address for an hour once it has answered 10,000 of them in ten minutes with 401, 403
or 429 (a shared bucket's 429s aside), so a test at scale asserts how far from that line a bot stays.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
"""Interaction responses and followups are not bound by the global limit (Discord says so)."""
INVALID_STATUSES = frozenset({401, 403, 429})
BAN_LINE = 10_000
"""Invalid requests within :data:`BAN_WINDOW` seconds past which Discord bans the address."""
BAN_WINDOW = 600.0
FROM_DISCORD = {"Via": "1.1 google"}
"""What every answer of Discord's API carries (discord.py takes a 429 without it for
Cloudflare's ban, and does not retry)."""


@dataclass
class InvalidRequests:
    """Every request answered 401, 403 or 429, as Discord counts them toward its ban."""

    seen: list[tuple[float, int, str]] = field(default_factory=list)
    """(monotonic time, status, ``METHOD path``) of each, in order."""

    def record(self, status: int, request: str, now: float | None = None) -> None:
        if status in INVALID_STATUSES:
            self.seen.append((time.monotonic() if now is None else now, status, request))

    def __len__(self) -> int:
        return len(self.seen)

    def since(self, mark: int) -> list[tuple[float, int, str]]:
        """Those after the first ``mark`` (``len()`` taken before a step of a test)."""
        return self.seen[mark:]

    def most_in_window(self, window: float = BAN_WINDOW) -> int:
        """The most seen within any ``window`` seconds: what Discord holds against :data:`BAN_LINE`."""
        most, start = 0, 0
        for end, (at, _, _) in enumerate(self.seen):
            while at - self.seen[start][0] > window:
                start += 1
            most = max(most, end - start + 1)
        return most


@dataclass(frozen=True)
class RateLimits:
    """How many requests each bucket takes per window, and the global cap per second."""

    per_bucket: int = 5
    window: float = 5.0
    global_per_second: int = 50


@dataclass
class Bucket:
    reset_at: float = 0.0
    count: int = 0


@dataclass(frozen=True)
class Decision:
    """What to answer: ``retry_after`` is set when the request is refused (429)."""

    headers: dict[str, str]
    retry_after: float | None = None
    global_limit: bool = False


@dataclass
class RateLimiter:
    limits: RateLimits
    buckets: dict[str, Bucket] = field(default_factory=dict)
    recent: deque[float] = field(default_factory=deque)
    refused: list[str] = field(default_factory=list)
    """Every request answered 429, as ``METHOD path``."""
    peak_per_second: int = 0
    """The most requests (outside the exempt routes) seen in any one second."""

    def check(self, method: str, path: str, bucket_key: str, now: float | None = None) -> Decision:
        now = time.monotonic() if now is None else now
        if not path.startswith(EXEMPT_PREFIXES):
            while self.recent and now - self.recent[0] >= 1.0:
                self.recent.popleft()
            if len(self.recent) >= self.limits.global_per_second:
                retry = max(0.001, 1.0 - (now - self.recent[0]))
                self.refused.append(f"{method} {path}")
                headers = {
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                    "Retry-After": f"{retry:.3f}",
                }
                return Decision(FROM_DISCORD | headers, retry, True)
            self.recent.append(now)
            self.peak_per_second = max(self.peak_per_second, len(self.recent))
        bucket = self.buckets.setdefault(bucket_key, Bucket())
        if now >= bucket.reset_at:
            bucket.reset_at, bucket.count = now + self.limits.window, 0
        bucket.count += 1
        reset_after = bucket.reset_at - now
        headers = {
            "X-RateLimit-Limit": str(self.limits.per_bucket),
            "X-RateLimit-Remaining": str(max(0, self.limits.per_bucket - bucket.count)),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"fake-{abs(hash(bucket_key)):x}",
        }
        if bucket.count > self.limits.per_bucket:
            self.refused.append(f"{method} {path}")
            refusal = {"Retry-After": f"{reset_after:.3f}", "X-RateLimit-Scope": "user"}
            return Decision(FROM_DISCORD | headers | refusal, reset_after)
        return Decision(headers)
