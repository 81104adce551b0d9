"""The secrecy rules in a table's own words (docs/rulings.md §6.9, §7): a defeated Hero stays
defeated, revealing a Villain, role-only Narrators and the setup's warnings and table dice."""

import pytest

from fake_discord.permissions import MANAGE_GUILD, VIEW_CHANNEL
from fake_discord.world import FakeChannel, FakeOverwrite
from rules.character import Resilience, resilience_current
from storage import GuildSettings
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, refused
from testbed.cards import card_text


async def board_text(env: BotEnv) -> str:
    await env.bot.conflicts.boards.idle()
    message_id = await env.storage.boards.get(env.guild_id, env.world.guild.channels[0].id)
    assert message_id is not None
    return card_text(env.harness.fake.messages[message_id])


async def vin_against_straff(env: BotEnv) -> None:
    """Vin (player1's Hero, Health 4), Elend (player2's) and the Narrator's Straff (5 Action
    Dice) in a Conflict; Straff acts first, the Heroes hold back."""
    for user, line in [
        ("player1", "/character create name:Vin physique:2"),
        ("player2", "/character create name:Elend wits:3"),
        ("narrator", "/character create name:Straff kind:villain physique:5 wits:3"),
        ("narrator", '/conflict start kind:physical stakes:"The keep"'),
        ("player1", "/conflict join"),
        ("player2", "/conflict join"),
        ("narrator", "/conflict add character:Straff"),
        ("narrator", "/conflict begin"),
        ("player1", "/declare action:no-roll"),
        ("player2", "/declare action:no-roll"),
        ("narrator", "/declare who:Straff action:attack target:Vin stat:Physique"),
    ]:
        reply = await env.slash(line, user=user)
        assert not refused(reply), (line, reply.content)


async def test_a_defeated_hero_stays_defeated_until_the_narrator_heals_them(bot_env: BotEnv) -> None:
    env = bot_env
    await vin_against_straff(env)
    env.bot.conflicts.grace.seconds = 0
    await env.slash("/act who:Straff dice:5", user="narrator")
    rolled = await env.slash('/defend dice:0 attacker_faces:"5 5 6 6 6"', user="narrator")
    assert "3 Nudges to spend" in rolled.content
    hit = await env.slash("/nudges damage:3", user="narrator")
    assert "**Vin** is defeated" in hit.embeds[0]["description"]

    refused = await env.slash("/sheet heal amount:4", user="player1")
    channel = env.world.guild.channels[0].id
    assert refused.ephemeral and f"Vin is in the Conflict in <#{channel}>" in refused.content
    for line in ("/burden add burden:Scar severity:serious", "/sheet breather kind:long"):
        again = await env.slash(line, user="player1")
        assert again.ephemeral and "changes go through the Conflict" in again.content

    healed = await env.slash("/sheet heal amount:9 name:Vin", user="narrator")
    assert "Healed 4 Health (now 4/4)." in healed.embeds[0]["description"]  # what changed, not 9
    full = await env.slash("/sheet heal amount:1 name:Vin", user="narrator")
    assert "Nothing to heal: Health is full." in full.embeds[0]["description"]
    vin = (await env.storage.characters.get_by_name(env.guild_id, "Vin")).character
    assert resilience_current(vin, Resilience.HEALTH) == 4
    conflict = await current_conflict(env.storage, env.guild_id, channel)
    assert conflict is not None and conflict.participant(1).defeated  # the Conflict says so
    assert "**Vin** · defeated" in await board_text(env)

    ended = await env.slash("/conflict end", user="narrator")
    summary = str(ended.embeds[1]["fields"])
    assert "**Straff**: dealt 4 damage · unhurt" in summary and "**Vin**: dealt 0 damage · took 4" in summary
    [private] = [m for m in ended.followups if m["flags"] & 64]
    assert "**Straff**: dealt 4 damage'" in str(private["embeds"][1]["fields"])


async def test_a_revealed_villain_shows_to_the_players(bot_env: BotEnv) -> None:
    env = bot_env
    await vin_against_straff(env)
    assert "**Straff** · waiting · physical attack → **Vin** (Health) · unhurt" in await board_text(env)
    hidden = await env.slash("/character show name:Straff", user="player1")
    assert hidden.ephemeral and "one of the Narrator's characters" in hidden.content
    refused = await env.slash("/character reveal name:Straff", user="player1")
    assert refused.ephemeral and "only a Narrator" in refused.content

    opened = await env.slash("/character reveal name:Straff", user="narrator")
    assert opened.ephemeral and "now open to the players" in opened.content
    shown = await env.slash("/character show name:Straff", user="player1")
    assert shown.message is not None and not shown.ephemeral
    assert "## Straff — Villain" in card_text(shown.message)
    assert "**Straff** · waiting · physical attack → **Vin** (Health) · AD 5" in await board_text(env)
    narrator = await env.slash("/character show name:Straff", user="narrator")
    assert not narrator.ephemeral  # no longer secret, so public like any sheet

    await env.slash("/character reveal name:Straff revealed:false", user="narrator")
    again = await env.slash("/character show name:Straff", user="player1")
    assert again.ephemeral and "one of the Narrator's characters" in again.content


async def test_a_narrator_by_role_alone_sees_and_uses_the_narrator_commands(bot_env: BotEnv) -> None:
    """player2 holds the Keeper role, which bot_env gives no permission at all."""
    env = bot_env
    keeper = env.world.guild.role("Keeper")
    assert keeper is not None
    await env.storage.settings.set(env.guild_id, GuildSettings(narrator_role_ids=(keeper.id,)))
    rolled = await env.slash("/gmroll dice:3 label:Ambush", user="player2")  # visible, and allowed
    assert rolled.ephemeral and rolled.message is not None and "Secret roll" in card_text(rolled.message)
    shown = await env.slash("/setup show", user="player2")
    assert shown.ephemeral and shown.embeds[0]["title"] == "Server setup"
    changed = await env.slash("/setup table-dice allowed:on", user="player2")
    assert changed.ephemeral and "Manage Server" in changed.content
    assert not (await env.storage.settings.get(env.guild_id)).table_dice
    player = await env.slash("/setup show", user="player1")
    assert player.ephemeral and "Only a Narrator" in player.content
    (logged,) = await env.storage.rolls.recent(env.guild_id)
    assert logged.secret


@pytest.mark.parametrize(
    ("channel", "warned"),
    [("table", "everyone"), ("gm", None), ("leaky", "@Keeper")],
)
async def test_the_gm_channel_warns_when_players_can_read_it(
    bot_env: BotEnv, channel: str, warned: str | None
) -> None:
    """The channel is saved either way; the warning names who, besides Narrators, can read it."""
    env = bot_env
    guild = env.world.guild
    narrator, keeper = guild.role("Narrator"), guild.role("Keeper")
    assert narrator is not None and keeper is not None and narrator.permissions & MANAGE_GUILD
    private = [FakeOverwrite(guild.id, deny=VIEW_CHANNEL), FakeOverwrite(narrator.id, allow=VIEW_CHANNEL)]
    guild.channels += [
        FakeChannel(env.world.ids.next(), "gm", overwrites=private),
        FakeChannel(
            env.world.ids.next(), "leaky", overwrites=[*private, FakeOverwrite(keeper.id, allow=VIEW_CHANNEL)]
        ),
    ]
    await env.restart()  # the bot reads channels and their overwrites when it connects
    reply = await env.slash(f"/setup gm-channel channel:#{channel}")
    note = reply.embeds[0]["description"]
    saved = guild.channel(channel)
    assert saved is not None and (await env.storage.settings.get(env.guild_id)).gm_channel_id == saved.id
    if warned is None:
        assert "⚠️" not in note
    else:
        assert "⚠️ Not only Narrators can read" in note and warned in note


async def test_table_dice_let_a_player_type_their_own_dice_only(bot_env: BotEnv) -> None:
    env = bot_env
    await vin_against_straff(env)
    await env.slash("/conflict next-round force:true", user="narrator")
    await env.slash("/declare action:action stat:Physique", user="player1")
    await env.slash("/declare action:no-roll", user="player2")
    await env.slash("/declare who:Straff action:no-roll", user="narrator")
    off = await env.slash('/act dice:2 faces:"3 3"', user="player1")
    assert off.ephemeral and "`/setup table-dice`" in off.content
    turned = await env.slash("/setup table-dice allowed:on", user="narrator")
    assert "Table dice are on." in turned.embeds[0]["description"]
    on = await env.slash('/act dice:2 faces:"3 3"', user="player1")
    assert not on.ephemeral, on.content and "**Vin** rolls **3** **3**" in on.embeds[0]["description"]
