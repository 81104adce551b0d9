"""``/setup``: Narrator roles and the GM channel, and who counts as a Narrator."""

from bench.bot_env import BotEnv
from storage import GuildSettings


async def test_a_narrator_role_grants_narrator_rights(bot_env: BotEnv) -> None:
    dice = [{"name": "dice", "type": 4, "value": 3}]
    before = await bot_env.slash_overriding_visibility("gmroll", dice, user="player2")
    assert before.ephemeral and "Only a Narrator" in before.content

    added = await bot_env.slash("/setup narrator-add role:@Keeper")
    assert added.ephemeral and "Keeper" in added.embeds[0]["description"]
    keeper = bot_env.world.guild.role("Keeper")
    assert keeper is not None
    assert (await bot_env.storage.settings.get(bot_env.guild_id)).narrator_role_ids == (keeper.id,)

    after = await bot_env.slash_overriding_visibility("gmroll", dice, user="player2")
    assert after.ephemeral and after.embeds and after.embeds[0]["footer"]["text"] == "Secret roll"

    await bot_env.slash("/setup narrator-remove role:@Keeper")
    assert await bot_env.storage.settings.get(bot_env.guild_id) == GuildSettings()


async def test_setup_is_refused_to_players(bot_env: BotEnv) -> None:
    options = [{"name": "narrator-add", "type": 1, "options": [{"name": "role", "type": 8, "value": "1"}]}]
    refused = await bot_env.slash_overriding_visibility("setup", options, user="player1")
    assert refused.ephemeral and "Manage Server" in refused.content  # changing the setup needs it
    assert await bot_env.storage.settings.get(bot_env.guild_id) == GuildSettings()


async def test_gm_channel_set_and_cleared(bot_env: BotEnv) -> None:
    shown = await bot_env.slash("/setup gm-channel channel:#ooc")
    ooc = bot_env.world.guild.channel("ooc")
    assert ooc is not None
    assert (await bot_env.storage.settings.get(bot_env.guild_id)).gm_channel_id == ooc.id
    assert f"<#{ooc.id}>" in shown.embeds[0]["fields"][1]["value"]
    await bot_env.slash("/setup gm-channel")
    assert (await bot_env.storage.settings.get(bot_env.guild_id)).gm_channel_id is None
