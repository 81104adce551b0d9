"""What the fake Discord answers to a client's gateway ops: IDENTIFY with READY and the
GUILD_CREATEs of the client's shard, REQUEST_GUILD_MEMBERS with one chunk of every member.

Apart from the server (``fake_discord.server``), which holds the state, and from the gateway's
session plumbing (``fake_discord.gateway``: heartbeats, RESUME, replay), which calls these hooks.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.gateway import Gateway, shard_of
from fake_discord.world_json import guild_create_json, member_json, user_json

JSON = dict[str, Any]


async def answer_op(
    fake: Backend, gateway: Gateway, resume_url: str, ws: web.WebSocketResponse, op: int, data: JSON
) -> None:
    """Answer op 2 (IDENTIFY) and op 8 (REQUEST_GUILD_MEMBERS); ``resume_url``: where READY
    tells the client to RESUME."""
    if op == 2:
        await identify(fake, gateway, resume_url, ws, data)
    elif op == 8:
        guild = fake.world.guild_by_id(int(data.get("guild_id", 0)))
        if guild is not None:
            members = [member_json(guild, m) for m in guild.members]
            chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
            await fake.dispatch("GUILD_MEMBERS_CHUNK", chunk | {"nonce": data.get("nonce")})


async def identify(
    fake: Backend, gateway: Gateway, resume_url: str, ws: web.WebSocketResponse, data: JSON
) -> None:
    """READY and the servers of the client's shard only (``shard: [id, count]``, Discord's
    routing by ``(guild_id >> 22) % count``)."""
    number, count = data.get("shard") or [0, 1]
    held = [g for g in fake.world.guilds if shard_of({"guild_id": g.id}, count) == number]
    ready = {
        "v": 10,
        "user": user_json(fake.world.bot) | {"verified": True, "mfa_enabled": False, "flags": 0},
        "guilds": [{"id": str(g.id), "unavailable": True} for g in held],
        "resume_gateway_url": resume_url,
        "shard": [number, count],
        "application": {"id": str(fake.world.application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": [],
    }
    guilds = [("GUILD_CREATE", guild_create_json(guild)) for guild in held]
    intents = int(data.get("intents", -1))
    await gateway.start_session(ws, ready, guilds, (int(number), int(count)), intents)
