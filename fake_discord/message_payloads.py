"""The messages the bot posts as Discord stores and sends them back: their attachments, who
they ping, and who wrote them (the bot, or a channel webhook under the name it gave).

Apart from the interaction payloads (``fake_discord.payloads``): these are built when the bot
posts (``FakeDiscord.create_message``), those when a member acts.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from fake_discord.layout import message_text
from fake_discord.payloads import APPLICATION_COMMAND
from fake_discord.polls import poll_json
from fake_discord.world import World
from fake_discord.world_json import TIMESTAMP, user_json

JSON = dict[str, Any]


def attachment_json(attachment_id: int, filename: str, size: int, url: str, content_type: str | None) -> JSON:
    data: JSON = {"id": str(attachment_id), "filename": filename, "size": size, "url": url, "proxy_url": url}
    if content_type:
        data["content_type"] = content_type
    return data


def mentioned_users(world: World, guild_id: int | None, body: JSON) -> list[JSON]:
    """The users a message pings, as Discord works them out: each ``<@id>`` in its content (or a
    layout message's text displays) that
    ``allowed_mentions`` lets through (all of them when it is absent or parses users)."""
    allowed = body.get("allowed_mentions")
    everyone = allowed is None or "users" in (allowed.get("parse") or [])
    listed = {str(user) for user in (allowed or {}).get("users") or []}
    found: list[JSON] = []
    for user_id in dict.fromkeys(re.findall(r"<@!?(\d+)>", message_text(body))):
        guild = world.guild_by_id(guild_id) if guild_id is not None else None
        member = guild.member(user_id) if guild is not None else None
        if member is not None and (everyone or user_id in listed):
            found.append(user_json(member.user))
    return found


def message_json(
    world: World,
    *,
    message_id: int,
    channel_id: int,
    guild_id: int | None,
    body: JSON,
    attachments: list[JSON],
    trigger: JSON | None = None,
    webhook: JSON | None = None,
) -> JSON:
    """A message the bot posted; `trigger` is the interaction it answers, if any; `webhook`, the
    channel webhook that posted it (the author is then the webhook under the ``username`` given)."""
    data: JSON = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": user_json(world.bot) if webhook is None else webhook_author(webhook, body),
        "content": body.get("content") or "",
        "timestamp": TIMESTAMP,
        "edited_timestamp": None,
        "tts": bool(body.get("tts")),
        "mention_everyone": False,
        "mentions": mentioned_users(world, guild_id, body),
        "mention_roles": [],
        "attachments": attachments,
        "embeds": body.get("embeds") or [],
        "components": body.get("components") or [],
        "pinned": False,
        "type": 0,
        "flags": int(body.get("flags") or 0),
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if body.get("poll"):
        data["poll"] = poll_json(body["poll"])
    if webhook is not None:
        data["webhook_id"] = webhook["id"]
    if trigger is not None:
        data["type"] = 20 if trigger["type"] == APPLICATION_COMMAND else 0
        data["webhook_id"] = str(world.application_id)
        data["application_id"] = str(world.application_id)
        user = trigger.get("member", {}).get("user") or trigger.get("user")
        data["interaction_metadata"] = {
            "id": trigger["id"],
            "type": trigger["type"],
            "user": user,
            "authorizing_integration_owners": trigger.get("authorizing_integration_owners", {}),
        }
    return data


def avatar_hash(url: str) -> str:
    """The avatar hash Discord shows for an ``avatar_url`` it fetched (here: derived from the URL)."""
    return hashlib.sha256(url.encode()).hexdigest()[:32]


def webhook_author(webhook: JSON, body: JSON) -> JSON:
    """A webhook message's author as Discord shows it: the webhook's id under the ``username``
    (and ``avatar_url``, as a hash) the message gave (else the webhook's own)."""
    avatar = body.get("avatar_url")
    return {
        "id": webhook["id"],
        "username": body.get("username") or webhook["name"],
        "avatar": avatar_hash(str(avatar)) if avatar else None,
        "discriminator": "0000",
        "bot": True,
        "global_name": None,
        "public_flags": 0,
        "flags": 0,
    }
