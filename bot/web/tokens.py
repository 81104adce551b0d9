"""Signed links and session cookies for the web view: HMAC-SHA256 over a small JSON grant.

A token is ``base64url(json) "." base64url(hmac)``, made with the standard library's ``hmac``
(no new dependency for forty lines; ``itsdangerous`` would give the same construction). The
grant binds the server, the member and their role at the moment they asked, and an expiry;
its ``kind`` keeps a link (15 minutes, swapped once for a cookie) from being used as a
session (12 hours) and the other way round. Checking compares digests in constant time and
refuses anything malformed, forged, expired, or of the wrong kind alike.

Roles: a Narrator's grant carries whether they held Manage Server and which of the server's
Narrator roles they held; every request judges ``bot.access.narrator_by_rule`` again on the
server's current settings, so ``/setup narrator-remove`` demotes an open page at once. A role
taken away in Discord itself cannot be seen by a web process (it has no gateway); it ends
with the session, at most 12 hours later, or sooner when the member asks ``/web`` again.
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
    nonce: str = ""

    def session(self, now: float) -> "Grant":
        """The cookie's grant for this link: the same member and role, a session's life."""
        return self.model_copy(
            update={"kind": Kind.SESSION, "expires": now + SESSION_LIFE.total_seconds(), "nonce": ""}
        )


def link_grant(
    guild_id: int,
    user_id: int,
    *,
    narrator: bool,
    manages_server: bool,
    narrator_roles: Collection[int],
    now: float,
) -> Grant:
    """A fresh ``/web`` link's grant, with a nonce so it can be used once."""
    return Grant(
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
    """The grant ``token`` carries, if this server signed it, it is a ``kind`` and unexpired."""
    body, dot, mac = token.partition(".")
    if not dot or not body.isascii() or not mac.isascii():
        raise BadToken("malformed")
    try:
        given = _unb64(mac)
        payload = json.loads(_unb64(body))
    except (binascii.Error, ValueError) as error:
        raise BadToken("malformed") from error
    if not hmac.compare_digest(given, _digest(secret, body)):
        raise BadToken("forged")
    try:
        grant = Grant.model_validate(payload)
    except ValidationError as error:
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
