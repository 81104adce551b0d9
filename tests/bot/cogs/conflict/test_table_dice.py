"""An attacker's dice rolled at the table against a target who may defend (docs/rulings.md
§7.2, §4.10), through the real dispatch: the defence is set first, then the attacker's side
gives its faces, by form or command, or lets the bot roll."""

import copy

from fake_discord.payloads import JSON
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.prompts import labels, latest_ping

FIGHT = [
    ("player1", "/character create name:Vin physique:6 charm:3 wits:4"),
    ("narrator", "/character create name:Straff kind:Villain physique:4 charm:5 wits:2"),
    ("narrator", '/conflict start kind:physical stakes:"The keep"'),
    ("player1", "/conflict join"),
    ("narrator", "/conflict add character:Straff"),
    ("narrator", "/conflict begin"),
    ("narrator", "/declare who:Straff action:full-defence stat:Physique"),
    ("player1", "/declare action:attack target:Straff stat:Physique"),
]


async def defence_set(env: BotEnv) -> JSON:
    """Vin acts rolling at the table; the Narrator sets Straff's defence: Vin is asked for dice."""
    await env.slash("/setup table-dice allowed:on", user="narrator")
    for user, line in FIGHT:
        reply = await env.slash(line, user=user)
        assert not refused(reply), (line, reply.content)
    early = await env.slash('/act dice:5 faces:"6 6 5 5 1"', user="player1")
    assert refused(early) and "when the defence is answered" not in early.content, early.content
    assert r"act with table\_dice:true" in early.content, early.content  # shown inert (§7.3)
    acted = await env.slash("/act dice:5 table_dice:true", user="player1")
    assert not refused(acted), acted.content
    defended = await env.slash('/defend dice:3 faces:"4 4 1"', user="narrator")
    assert not refused(defended), defended.content
    assert "Resolved" not in defended.text and "Result" not in defended.text, defended.text
    await env.bot.conflicts.idle()
    asked = latest_ping(env, "player1")
    assert "Vin** rolls 5 dice at the table now" in str(asked["content"]), asked["content"]
    assert labels(asked) == ["Type my dice…", "Let the bot roll", "Undo"]  # Undo: the move's, §4.24
    return copy.deepcopy(asked)  # as first shown, buttons and all


async def test_the_attacker_types_their_table_dice_in_a_form_once_the_defence_is_set(bot_env: BotEnv) -> None:
    env = bot_env
    asked = await defence_set(env)
    stranger = await env.harness.click("Type my dice…", message=asked, user="player2")
    assert refused(stranger) and "Vin's player or a Narrator" in stranger.content
    opened = await env.harness.click("Type my dice…", message=asked, user="player1")
    assert opened.modal is not None, opened.content
    thrown = await env.harness.submit({"faces": "6 6 5 5 1"}, user="player1")
    assert "6✦ 6✦" in thrown.text and "Vin" in thrown.text, thrown.text
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None and conflict.pending is not None  # two 6s: Nudges to spend
    assert conflict.pending.nudges == 2
    again = await env.harness.click("Let the bot roll", message=asked, user="player1")
    assert refused(again) and "already given" in again.content


async def test_the_attacker_types_their_table_dice_with_act(bot_env: BotEnv) -> None:
    env = bot_env
    await defence_set(env)
    for line in ('/act dice:4 faces:"5 5 1 1"', "/act dice:5 table_dice:true"):
        wrong = await env.slash(line, user="player1")
        assert refused(wrong) and "Vin's 5 dice" in wrong.content, wrong.content
    thrown = await env.slash('/act dice:5 faces:"5 5 3 2 1"', user="player1")
    assert not refused(thrown), thrown.content
    # The faces each side typed: Vin's after Straff's defence was set, Straff's with it.
    assert (
        "**Vin** rolls **5** **5** 3 2 1 (Result 5, 0 Nudges); **Straff** rolls **4** **4** 1" in thrown.text
    )
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None and conflict.pending is None


async def test_rolling_at_the_table_needs_the_servers_table_dice(bot_env: BotEnv) -> None:
    env = bot_env
    for user, line in FIGHT:
        await env.slash(line, user=user)
    off = await env.slash("/act dice:5 table_dice:true", user="player1")
    assert refused(off) and "`/setup table-dice`" in off.content, off.content
