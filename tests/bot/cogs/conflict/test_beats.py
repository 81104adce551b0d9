"""A caught Beat through the real dispatch (docs/rulings.md §2.10, §4.15): its ping offers what
the dice left allow, and a Beat whose blow felled its target may be a new action."""

from fake_discord.records import InteractionRecord
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.prompts import FIGHT, labels, latest_ping


async def caught_beat(env: BotEnv) -> InteractionRecord:
    """Vin hits the Thug with 5 of 7 dice, throws three 6s and catches a Beat: the hit fells
    the lone Thug, and Vin has 2 dice left for the extra action."""
    for user, line in FIGHT:
        reply = await env.slash(line, user=user)
        assert not refused(reply), (line, reply.content)
    acted = await env.slash("/act dice:5", user="player1")
    assert not refused(acted), acted.content
    rolled = await env.slash('/defend dice:0 attacker_faces:"6 6 6 3 3"', user="narrator")
    assert "3 Nudges to spend" in rolled.content, rolled.content
    assert rolled.message is not None
    caught = await env.harness.click("Catch a Beat", message=rolled.message, user="player1")
    assert not refused(caught), caught.content
    await env.bot.conflicts.idle()
    return caught


async def test_a_caught_beats_ping_offers_what_the_dice_left_allow(bot_env: BotEnv) -> None:
    """The Beat's ping counts the dice left, not the Action Dice spent (issue 39), and, the
    Thug being down, offers a new action rather than a pool against him."""
    env = bot_env
    await caught_beat(env)
    ping = latest_ping(env, "player1")
    text = str(ping.get("content", ""))
    assert "takes the Beat's extra action now" in text and "Thug is out of the fight" in text, text
    assert "Action Dice" not in text
    assert labels(ping) == ["Not act", "New action…", "Undo"]  # Undo: the move's, §4.24


async def test_a_beat_whose_blow_felled_its_target_is_a_new_action_by_buttons(bot_env: BotEnv) -> None:
    env = bot_env
    await caught_beat(env)
    ping = latest_ping(env, "player1")
    menu = await env.harness.click("New action…", message=ping, user="player1")
    assert menu.ephemeral and "keeps the dice left" in menu.content, menu.content
    assert menu.message is not None
    named = await env.harness.select("New action: attack…", ["Lookout"], message=menu.message, user="player1")
    assert "makes the Beat's extra action a new one: a physical attack on **Lookout**" in named.text
    await env.bot.conflicts.idle()
    again = latest_ping(env, "player1")
    assert "with the 2 dice left" in str(again.get("content", "")), again.get("content")
    burden = "If this defeats them: leave a Burden…"
    assert labels(again) == ["Act with 2", "Not act", "New action…", "Undo", burden]
    acted = await env.harness.click("Act with 2", message=again, user="player1")
    assert not refused(acted), acted.content
    assert "takes the extra action and attacks **Lookout**" in acted.text, acted.text
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None and conflict.pending is not None and conflict.pending.extra


async def test_a_beat_whose_blow_felled_its_target_is_a_new_action_by_commands(bot_env: BotEnv) -> None:
    env = bot_env
    await caught_beat(env)
    stuck = await env.slash("/act dice:2", user="player1")
    assert refused(stuck) and "Switch to a new action" in stuck.content, stuck.content
    named = await env.slash("/switch action:attack target:Lookout stat:Physique", user="player1")
    assert "makes the Beat's extra action a new one" in named.text, named.text
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    vin = next(p for p in conflict.participants if p.name == "Vin")
    assert vin.round.extra_action and not vin.round.switched and vin.round.defense_dice == 2
    acted = await env.slash("/act dice:2", user="player1")
    assert not refused(acted), acted.content
    assert "takes the extra action and attacks **Lookout**" in acted.text, acted.text
