"""The fake answers the member lookups the web view makes (``bot.web.standing``,
``bot.web.reach``) as Discord's OpenAPI description says Discord does: ``GET /guilds/{id}``, its
members, its roles and its channels."""

import discord
import pytest

from fake_discord.permissions import VIEW_CHANNEL
from fake_discord.world import FakeChannel, FakeOverwrite
from testbed.bot_env import BotEnv
from tests.fake_discord.openapi_check import problems, response_schema


async def test_guild_member_and_roles_answers_match_discords_description(bot_env: BotEnv) -> None:
    http, guild_id = bot_env.bot.http, bot_env.guild_id
    guild = await http.get_guild(guild_id, with_counts=False)
    assert problems(guild, response_schema("/guilds/{guild_id}")) == []
    assert guild["owner_id"] == str(bot_env.world.guild.owner_id)
    member = await http.get_member(guild_id, bot_env.user_id("narrator"))
    assert problems(member, response_schema("/guilds/{guild_id}/members/{user_id}")) == []
    narrator_role = bot_env.world.guild.role("Narrator")
    assert narrator_role is not None and member["roles"] == [str(narrator_role.id)]
    roles = await http.get_roles(guild_id)
    assert problems(roles, response_schema("/guilds/{guild_id}/roles")) == []
    assert {role["name"] for role in roles} >= {"@everyone", "Narrator"}


async def test_the_channel_list_matches_discords_description_with_overwrites_and_no_thread(
    bot_env: BotEnv,
) -> None:
    guild = bot_env.world.guild
    table = guild.channels[0]
    guild.channels[1].overwrites.append(FakeOverwrite(id=guild.id, type=0, deny=VIEW_CHANNEL))
    guild.channels.append(FakeChannel(bot_env.world.ids.next(), "aside", type=12, parent_id=table.id))
    channels = await bot_env.bot.http.get_all_guild_channels(bot_env.guild_id)
    assert problems(channels, response_schema("/guilds/{guild_id}/channels")) == []
    assert [c["name"] for c in channels] == ["table", "ooc"]  # Discord lists no thread here
    assert channels[1]["permission_overwrites"] == [
        {"id": str(guild.id), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)}
    ]


async def test_an_unknown_member_or_server_is_404(bot_env: BotEnv) -> None:
    with pytest.raises(discord.NotFound):
        await bot_env.bot.http.get_member(bot_env.guild_id, 1)
    with pytest.raises(discord.NotFound):
        await bot_env.bot.http.get_guild(1, with_counts=False)
