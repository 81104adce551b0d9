"""The Narrator's own characters' dice on the Narrator's private prompt (issue 43, docs/rulings.md
§4.21, §7.1), through the real dispatch: a player's attack on a secret Villain sends its Narrator,
privately, what it holds and the exact counts, so its defence is one click; the table's prompt
tells nothing, and without a live interaction of theirs **Its dice (Narrator)** still answers."""

from bot.workers.narrator_reach import NarratorReach
from testbed.bot_env import BotEnv, refused
from testbed.prompt_fight import EPHEMERAL, PromptFight
from tests.bot.cogs.conflict.test_prompt_moves import DUEL, labels, pinged_prompts, state

JSON = dict[str, object]
ATTACKED = [
    *DUEL,
    ("narrator", "/declare who:Straff action:full-defence stat:Physique"),
    ("player1", "/declare action:attack target:Straff stat:Physique"),
]


async def attacked(env: BotEnv) -> JSON:
    """Vin attacks the Narrator's secret Straff (on full defence, 3 Defense Dice): the public
    prompt asking Straff's defence."""
    for reply in await env.play(ATTACKED):
        assert not refused(reply), reply.content
    await env.bot.conflicts.idle()
    act = await env.harness.click("Act with 3", message=pinged_prompts(env, "player1")[-1], user="player1")
    assert not refused(act), act.content
    await env.bot.conflicts.idle()
    return pinged_prompts(env, "narrator")[-1]


async def test_a_player_attack_gives_the_narrator_a_one_click_defence(bot_env: BotEnv) -> None:
    env = bot_env
    public = await attacked(env)
    assert "Defend with 10" in labels(public) and "3 Defense Dice" not in str(public)  # tells nothing
    private = PromptFight(env).private_prompt("narrator", public)
    assert private is not None and int(str(private["flags"])) & EPHEMERAL
    assert "**Straff** holds 3 Defense Dice" in str(private["content"])
    assert labels(private) == ["Don't defend", "Defend with 2", "Defend with 3"]
    defended = await env.harness.click("Defend with 3", message=private, user="narrator")
    assert any(m.get("embeds") for m in defended.followups), defended.messages  # the outcome
    assert (await state(env)).pending is None  # defended, rolled and settled in one click
    assert not env.harness.violations


async def test_a_player_never_has_the_narrators_private_prompt(bot_env: BotEnv) -> None:
    """Only a Narrator's interactions are kept for it: a player's move is not where it goes, and
    every message telling the hidden dice is the Narrator's alone (docs/rulings.md §7.1)."""
    env = bot_env
    await attacked(env)
    telling = [m for m in env.harness.fake.messages.values() if "3 Defense Dice" in str(m.get("content"))]
    assert telling, "the private prompt was sent"
    for message in telling:
        meta = message.get("interaction_metadata") or {}
        assert int(str(message["flags"])) & EPHEMERAL
        assert int(meta["user"]["id"]) == env.user_id("narrator")
    channel = env.world.guild.channels[0].id
    reach = env.bot.conflicts.narrators
    assert reach.latest(channel, env.user_id("player1")) is None
    assert reach.latest(channel, env.user_id("narrator")) is not None


async def test_without_a_live_interaction_its_dice_still_answers(bot_env: BotEnv) -> None:
    """After a restart (nothing kept) the Narrator gets no private prompt, and the public
    prompt's **Its dice (Narrator)** tells them the dice in two clicks as before."""
    env = bot_env
    for reply in await env.play(ATTACKED):
        assert not refused(reply), reply.content
    env.bot.conflicts.narrators = NarratorReach()  # what a restart leaves
    await env.bot.conflicts.idle()
    await env.harness.click("Act with 3", message=pinged_prompts(env, "player1")[-1], user="player1")
    await env.bot.conflicts.idle()
    public = pinged_prompts(env, "narrator")[-1]
    assert PromptFight(env).private_prompt("narrator", public) is None
    asked = await env.harness.click("Its dice (Narrator)", message=public, user="narrator")
    assert asked.ephemeral and "**Straff** holds 3 Defense Dice" in asked.content, asked.content
