"""Signed links and session cookies for the web view: HMAC-SHA256 over a small JSON grant.

A token is ``base64url(json) "." base64url(hmac)``, made with the standard library's ``hmac``
(no new dependency for forty lines; ``itsdangerous`` would give the same construction). The
grant binds the server, the member and their role at the moment they asked, and an expiry;
its ``kind`` keeps a link (15 minutes, swapped once for a cookie) from being used as a
session (12 hours) and the other way round. Checking compares digests in constant time and
refuses anything malformed, forged, expired, or of the wrong kind alike.

Roles: a Narrator's grant carries whether they held Manage Server and which of the server's
Narrator roles they held; every request judges ``bot.access.narrator_by_rule`` again on the
server's current settings, so ``/setup narrator-remove`` demotes an open page at once. What
Discord itself changes (a role or a permission taken away, a member kicked) the view asks
Discord again every few minutes (``bot.web.standing``). Every grant names the member's session
generation (``storage.web``): a new ``/web`` or ``/web logout`` ends the sessions made before.
"""

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Collection
from datetime import timedelta
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.config import Settings
from storage import Storage

LINK_LIFE = timedelta(minutes=15)
SESSION_LIFE = timedelta(hours=12)
MAX_TOKEN_CHARS = 1024
"""Far above any token we sign (about 300 characters); anything longer is refused unread."""


class Kind(StrEnum):
    LINK = "link"
    SESSION = "session"


class BadToken(Exception):
    """Forged, malformed, expired, or not the kind asked for: all answered with 403."""


class Grant(BaseModel):
    """Who a token speaks for: a member of one server, as a Narrator or a player, until ``expires``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Kind
    guild_id: int
    user_id: int
    narrator: bool
    manages_server: bool = False
    narrator_roles: tuple[int, ...] = ()
    """The server's Narrator roles the member held when they asked (re-judged on each request)."""
    expires: float
    """Unix time."""
    issued: float = 0.0
    """When ``/web`` made the link (Unix time): a Narrator's standing read then is trusted only
    for ``bot.web.standing.RECHECK_SECONDS`` where Discord cannot be asked again."""
    generation: int = 0
    """The member's session generation when ``/web`` made the link (``storage.web``): a later
    ``/web`` or ``/web logout`` raises it and this grant is refused from then on."""
    channel_id: int | None = None
    """The channel ``/web`` was asked from: a player's page shows its Conflict too."""
    nonce: str = ""
    """The link's one-time number; the session keeps it as its own name (rate limits)."""

    def session(self, now: float) -> "Grant":
        """The cookie's grant for this link: the same member and role, a session's life."""
        return self.model_copy(update={"kind": Kind.SESSION, "expires": now + SESSION_LIFE.total_seconds()})


def link_grant(
    guild_id: int,
    user_id: int,
    *,
    narrator: bool,
    manages_server: bool,
    narrator_roles: Collection[int],
    now: float,
    generation: int = 0,
    channel_id: int | None = None,
) -> Grant:
    """A fresh ``/web`` link's grant, with a nonce so it can be used once."""
    return Grant(
        issued=now,
        generation=generation,
        channel_id=channel_id,
        kind=Kind.LINK,
        guild_id=guild_id,
        user_id=user_id,
        narrator=narrator,
        manages_server=manages_server,
        narrator_roles=tuple(sorted(set(narrator_roles))),
        expires=now + LINK_LIFE.total_seconds(),
        nonce=secrets.token_urlsafe(12),
    )


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _digest(secret: bytes, body: str) -> bytes:
    return hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()


def sign(grant: Grant, secret: bytes) -> str:
    body = _b64(grant.model_dump_json().encode("utf-8"))
    return f"{body}.{_b64(_digest(secret, body))}"


def verify(token: str, secret: bytes, kind: Kind, now: float) -> Grant:
    """The grant ``token`` carries, if this server signed it, it is a ``kind`` and unexpired.

    The size and the signature are checked before anything is decoded: what a stranger sends
    is never parsed, so no crafted body (deep JSON, a huge one) reaches the JSON parser."""
    if len(token) > MAX_TOKEN_CHARS:
        raise BadToken("too long")
    body, dot, mac = token.partition(".")
    if not dot or not body.isascii() or not mac.isascii():
        raise BadToken("malformed")
    try:
        given = _unb64(mac)
    except (binascii.Error, ValueError) as error:
        raise BadToken("malformed") from error
    if not hmac.compare_digest(given, _digest(secret, body)):
        raise BadToken("forged")
    try:
        grant = Grant.model_validate(json.loads(_unb64(body)))
    except (binascii.Error, ValueError, ValidationError) as error:
        raise BadToken("malformed") from error
    if grant.kind is not kind:
        raise BadToken("wrong kind")
    if grant.expires <= now:
        raise BadToken("expired")
    return grant


async def signing_key(settings: Settings, storage: Storage) -> bytes:
    """``MISTBORN_WEB_SECRET``, or the secret kept in the database (made on first use)."""
    if settings.web_secret is not None and settings.web_secret.get_secret_value():
        return settings.web_secret.get_secret_value().encode("utf-8")
    return (await storage.web.secret()).encode("ascii")
