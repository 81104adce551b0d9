"""The world's objects as Discord's JSON: users, members, roles, channels, threads, guilds.

Apart from the model (``fake_discord.world``) because only the routes, the gateway and the
payload builders put objects on the wire; the model and the sample worlds never need it."""

from __future__ import annotations

from typing import Any

from fake_discord.world import THREAD_TYPES, FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser

JSON = dict[str, Any]

TIMESTAMP = "2024-01-01T00:00:00.000000+00:00"


def user_json(user: FakeUser) -> JSON:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": None if user.bot else user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,
    }


def member_json(
    guild: FakeGuild, member: FakeMember, *, with_user: bool = True, permissions: int | None = None
) -> JSON:
    """A guild member; interactions add `permissions` (the member's in the interaction's
    channel, overwrites counted), `resolved.members` drop `user`."""
    data: JSON = {
        "roles": [str(role_id) for role_id in member.role_ids],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": TIMESTAMP,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_json(member.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_json(role: FakeRole) -> JSON:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": True,
        "flags": 0,
    }


def channel_json(guild: FakeGuild, channel: FakeChannel, *, permissions: int | None = None) -> JSON:
    data: JSON = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(guild.id),
        "name": channel.name,
        "position": guild.channels.index(channel) if channel in guild.channels else 0,
        "permission_overwrites": [
            {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)}
            for o in channel.overwrites
        ],
        "parent_id": None if channel.parent_id is None else str(channel.parent_id),
        "nsfw": False,
        "topic": channel.topic,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    if channel.type in THREAD_TYPES:
        data |= thread_fields(guild, channel)
    return data


def thread_fields(guild: FakeGuild, channel: FakeChannel) -> JSON:
    """What a thread carries beyond a channel: who opened it and its archive state."""
    metadata = {
        "archived": channel.archived,
        "auto_archive_duration": channel.auto_archive_duration,
        "archive_timestamp": TIMESTAMP,
        "locked": channel.locked,
    }
    return {
        "owner_id": str(channel.owner_id or guild.owner_id),
        "message_count": 0,
        "member_count": 0,
        "thread_metadata": metadata,
    }


def guild_json(guild: FakeGuild) -> JSON:
    """``GET /guilds/{id}`` as Discord answers it (``GuildWithCountsResponse``): the owner and
    every role, without the gateway's members and channels."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "description": None,
        "home_header": None,
        "splash": None,
        "discovery_splash": None,
        "features": [],
        "banner": None,
        "owner_id": str(guild.owner_id),
        "application_id": None,
        "region": "deprecated",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "widget_enabled": False,
        "widget_channel_id": None,
        "verification_level": 0,
        "roles": [role_json(role) for role in guild.roles],
        "default_message_notifications": 1,
        "mfa_level": 0,
        "explicit_content_filter": 0,
        "max_presences": None,
        "max_members": 500000,
        "max_stage_video_channel_users": 50,
        "max_video_channel_users": 25,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "rules_channel_id": None,
        "safety_alerts_channel_id": None,
        "public_updates_channel_id": None,
        "premium_progress_bar_enabled": False,
        "nsfw": False,
        "nsfw_level": 0,
        "emojis": [],
        "stickers": [],
        "incidents_data": None,
        "approximate_member_count": len(guild.members),
        "approximate_presence_count": 0,
    }


def guild_create_json(guild: FakeGuild) -> JSON:
    """GUILD_CREATE with every member, so discord.py sees the guild as chunked and never asks for more."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [role_json(role) for role in guild.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "max_members": 500000,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": TIMESTAMP,
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members),
        "voice_states": [],
        "members": [member_json(guild, member) for member in guild.members],
        "channels": [channel_json(guild, c) for c in guild.channels if c.type not in THREAD_TYPES],
        "threads": [
            channel_json(guild, c) for c in guild.channels if c.type in THREAD_TYPES and not c.archived
        ],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }
