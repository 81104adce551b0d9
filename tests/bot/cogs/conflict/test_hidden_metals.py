"""A hidden Allomancer's metals on the Narrator's private prompt, through the real dispatch
(docs/rulings.md §7.1, §9.2, §9.10): the public prompt tells the table nothing of its Powers, so
its Narrator burns, flares, drinks and stops from the private one, as a player does from theirs."""

from testbed.bot_env import BotEnv, refused
from testbed.prompt_fight import EPHEMERAL, PromptFight
from tests.bot.cogs.conflict.prompts import labels, latest_ping
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, make, thug


async def test_a_hidden_villain_burns_iron_from_the_narrators_private_prompt(bot_env: BotEnv) -> None:
    """A pushed coin at a secret Thug holding Iron unlit: the public prompt offers no Burn, the
    Narrator's private one does, and the click burns it and brings the deflection."""
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, ["Iron", "Pewter"])
    await env.play(
        [
            *gathering("player1", "Kel"),
            ("player1", "/burn metal:Steel"),
            ("narrator", "/burn metal:Pewter who:Thug"),
            ("narrator", "/declare who:Thug action:defence stat:Physique"),
            ("player1", "/declare action:attack target:Thug stat:Steel push:small"),
        ]
    )
    acted = await env.slash("/act dice:4", user="player1")
    assert not refused(acted), acted.content
    await env.bot.conflicts.idle()
    public = latest_ping(env, "narrator")
    assert not [label for label in labels(public) if "Iron" in label or "Pewter" in label]
    private = PromptFight(env).private_prompt("narrator", public)
    assert private is not None
    offered = labels(private)
    assert {"Burn Iron", "Flare Pewter", "Stop burning Pewter"} <= set(offered), offered
    await env.harness.click("Burn Iron", message=private, user="narrator")
    await env.bot.conflicts.idle()
    stored = await env.storage.characters.get_by_name(env.guild_id, "Thug")
    assert stored.character.allomancy.burning == ("Pewter", "Iron")
    again = PromptFight(env).private_prompt("narrator", private)
    assert again is not None, "the private prompt is asked again with the new choices"
    assert {"Deflect with Iron…", "Stop burning Iron"} <= set(labels(again)), labels(again)
    for message in env.harness.fake.messages.values():
        if "Iron" in str(message.get("content")) or any("Iron" in label for label in labels(message)):
            assert int(message.get("flags") or 0) & EPHEMERAL, message.get("content")


async def test_a_hidden_villains_burn_on_its_act_turn_asks_the_private_prompt_again(
    bot_env: BotEnv,
) -> None:
    """The click takes the private prompt's buttons away, as every prompt click does: the
    Narrator is sent it again, with the act's dice and the metals now offered."""
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, ["Iron", "Pewter"])
    await env.play(
        [
            *gathering("player1", "Kel"),
            ("narrator", "/declare who:Thug action:attack target:Kel stat:Physique"),
            ("player1", "/declare action:defence stat:Physique"),
        ]
    )
    await env.bot.conflicts.idle()
    public = latest_ping(env, "narrator")
    private = PromptFight(env).private_prompt("narrator", public)
    assert private is not None
    assert {"Act with 5", "Burn Iron", "Burn Pewter"} <= set(labels(private)), labels(private)
    await env.harness.click("Burn Pewter", message=private, user="narrator")
    await env.bot.conflicts.idle()
    again = PromptFight(env).private_prompt("narrator", private)
    assert again is not None, "the private prompt is asked again"
    assert {"Act with 5", "Burn Iron", "Flare Pewter", "Stop burning Pewter"} <= set(labels(again))
    for message in env.harness.fake.messages.values():
        if "Pewter" in str(message.get("content")) or any("Pewter" in label for label in labels(message)):
            assert int(message.get("flags") or 0) & EPHEMERAL, message.get("content")


async def test_the_public_reply_to_a_hidden_burn_says_no_more_than_that_the_narrator_moved(
    bot_env: BotEnv,
) -> None:
    """docs/rulings.md §7.1: a move whose every line is a secret Villain's leaves the table a
    neutral reply (its title said "Metals"); the Narrator reads the move privately."""
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, ["Iron"])
    await env.play(gathering("player1", "Kel"))
    burnt = await env.slash("/burn metal:Iron who:Thug", user="narrator")
    public = [m for m in burnt.messages if not int(m.get("flags") or 0) & EPHEMERAL]
    private = [m for m in burnt.messages if int(m.get("flags") or 0) & EPHEMERAL]
    assert public and private, burnt.messages
    shown = str(public)
    assert "The Narrator's move" in shown and "Metals" not in shown and "Iron" not in shown, shown
    assert "**Thug** burns Iron" in str(private)


async def test_a_hidden_villain_lights_its_steel_from_the_private_prompt_before_it_declares(
    bot_env: BotEnv,
) -> None:
    """§7.1, §9.10: the public declare prompt names no metal; the Narrator's private one offers
    Burn Steel on the Thug's declare turn, as a Hero's prompt offers their metals, so nothing is
    typed to light it."""
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, ["Steel"])
    await env.play(gathering("player1", "Kel"))
    await env.bot.conflicts.idle()
    public = [m for m in env.harness.fake.messages.values() if "**Thug** declares" in str(m.get("content"))]
    assert public and not [label for label in labels(public[-1]) if "Steel" in label]
    private = PromptFight(env).private_prompt("narrator", public[-1])
    assert private is not None and "Burn Steel" in labels(private), private
    assert "is up to declare" in str(private.get("content"))
    await env.harness.click("Burn Steel", message=private, user="narrator")
    await env.bot.conflicts.idle()
    stored = await env.storage.characters.get_by_name(env.guild_id, "Thug")
    assert stored.character.allomancy.burning == ("Steel",)
    again = PromptFight(env).private_prompt("narrator", private)
    assert again is not None and "Stop burning Steel" in labels(again), "asked again with the new choices"
    for message in env.harness.fake.messages.values():
        if "Steel" in str(message.get("content")) or any("Steel" in label for label in labels(message)):
            assert int(message.get("flags") or 0) & EPHEMERAL or "Kel" in str(message.get("content"))
