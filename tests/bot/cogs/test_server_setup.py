"""``/setup``: Narrator roles and the GM channel, and who counts as a Narrator."""

from typing import Any

from fake_discord import payloads
from fake_discord.commandline import parse_slash
from fake_discord.records import settle
from storage import GuildSettings
from testbed.bot_env import BotEnv
from testbed.cards import card_text

JSON = dict[str, Any]


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
    assert after.ephemeral and after.message is not None and "Secret roll" in card_text(after.message)

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


async def test_setup_changes_sent_at_the_same_moment_all_land(bot_env: BotEnv) -> None:
    """Two admins add a role each while a third sets the GM channel, all at once, through the real
    dispatch: every change is kept (each used to read the settings and write them back whole)."""
    harness = bot_env.harness

    def typed(line: str) -> JSON:
        actor = harness.actor("narrator")
        parsed = parse_slash(line, harness.commands, actor.guild, actor.member)
        return payloads.slash_command(bot_env.world, actor, parsed.command, parsed.options, parsed.resolved)

    lines = [
        "/setup narrator-add role:@Keeper",
        "/setup narrator-add role:@Narrator",
        "/setup gm-channel channel:#ooc",
    ]
    sent = [await harness.fake.send_interaction(typed(line)) for line in lines]
    for record in sent:
        await settle(record)
        assert record.ephemeral and record.embeds, record.text
    roles = [bot_env.world.guild.role(name) for name in ("Keeper", "Narrator")]
    ooc = bot_env.world.guild.channel("ooc")
    assert ooc is not None and all(role is not None for role in roles)
    wanted = tuple(sorted(role.id for role in roles if role is not None))
    assert await bot_env.storage.settings.get(bot_env.guild_id) == GuildSettings(
        narrator_role_ids=wanted, gm_channel_id=ooc.id
    )

    removals = ["/setup narrator-remove role:@Keeper", "/setup narrator-remove role:@Narrator"]
    sent = [await harness.fake.send_interaction(typed(line)) for line in removals]
    for record in sent:
        await settle(record)
    assert await bot_env.storage.settings.get(bot_env.guild_id) == GuildSettings(gm_channel_id=ooc.id)
