"""Every Conflict move from the prompt and the board (issue 43), through the real dispatch: the
Narrator's Next round on the board once the round is over, and the moves players used to type."""

from bot.clicks import NOT_OFFERED
from fake_discord import payloads
from fake_discord.records import InteractionRecord
from rules.burdens import Severity
from rules.conflict import ActionKind, Conflict, Phase
from rules.conflict.state import Declaration
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, board_message, controls, refused
from testbed.turns import mentioned
from tests.bot.cogs.conflict.prompts import FIGHT

JSON = dict[str, object]
DUEL = [
    ("player1", "/character create name:Vin physique:3 wits:3"),
    ("narrator", "/character create name:Straff kind:Villain physique:3 wits:2"),
    ("narrator", '/conflict start kind:physical stakes:"The ball"'),
    ("player1", "/conflict join"),
    ("narrator", "/conflict add character:Straff"),
    ("narrator", "/conflict begin"),
]


async def state(env: BotEnv) -> Conflict:
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    return conflict


def labels(message: JSON) -> list[str]:
    return [str(c.get("label") or c.get("placeholder")) for c in controls(message)]


async def test_the_narrator_starts_the_next_round_from_the_board_once_the_round_is_over(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    await env.play(
        [
            *DUEL,
            ("narrator", "/declare who:Straff action:full-defence stat:Physique"),
            ("player1", "/declare action:full-defence stat:Physique"),
        ]
    )
    await env.bot.conflicts.idle()
    board = await board_message(env)
    assert "Next round" in labels(board)
    stranger = await env.harness.click("Next round", message=board, user="player1")
    assert refused(stranger) and "Narrator" in stranger.content
    assert (await state(env)).round == 1
    moved = await env.harness.click("Next round", message=await board_message(env), user="narrator")
    assert not refused(moved), moved.content
    await env.bot.conflicts.idle()
    now = await state(env)
    assert now.round == 2 and now.phase is Phase.DECLARE
    assert "Next round" not in labels(await board_message(env))


def pinged_prompts(env: BotEnv, user: str) -> list[JSON]:
    uid = env.user_id(user)
    return [m for m in env.harness.fake.messages.values() if uid in mentioned(m) and m.get("components")]


async def test_the_defeat_burden_is_chosen_on_the_act_prompt(bot_env: BotEnv) -> None:
    """``/act defeat_burden:`` from the prompt: the menu answers privately with act buttons
    carrying the Burden, and the attack made with one holds it."""
    env = bot_env
    await env.play(
        [
            *DUEL,
            ("narrator", "/declare who:Straff action:full-defence stat:Physique"),
            ("player1", "/declare action:attack target:Straff stat:Physique"),
        ]
    )
    await env.bot.conflicts.idle()
    prompt = pinged_prompts(env, "player1")[-1]
    assert "If this defeats them: leave a Burden…" in labels(prompt)
    stranger = await env.harness.select(
        "If this defeats them: leave a Burden…", ["mortal"], message=prompt, user="player2"
    )
    assert refused(stranger) and "Vin" in stranger.content
    menu = await env.harness.select(
        "If this defeats them: leave a Burden…", ["Mortal Burden"], message=prompt, user="player1"
    )
    assert menu.ephemeral and menu.message is not None, menu.content
    assert "leaves a Mortal Burden" in menu.content and "Act with 3" in labels(menu.message)
    acted = await env.harness.click("Act with 3", message=menu.message, user="player1")
    assert "Vin" in str(acted.followups), acted.messages  # the private menu closes; the outcome follows
    pending = (await state(env)).pending
    assert pending is not None and pending.defeat_burden is Severity.MORTAL


async def test_nudges_are_split_in_the_prompts_form(bot_env: BotEnv) -> None:
    """``/nudges damage: next_round:`` from the prompt: a form per attack, refusing a wrong
    number privately and anyone but the attacker's side."""
    env = bot_env
    await env.play([*FIGHT, ("player1", "/act dice:5")])
    rolled = await env.slash('/defend dice:0 attacker_faces:"6 6 6 3 3"', user="narrator")
    assert "3 Nudges to spend" in rolled.content and rolled.message is not None, rolled.content
    assert "Split Nudges…" in labels(rolled.message)
    stranger = await env.harness.click("Split Nudges…", message=rolled.message, user="player2")
    assert refused(stranger) and "Vin" in stranger.content
    opened = await env.harness.click("Split Nudges…", message=rolled.message, user="player1")
    assert opened.modal is not None, opened.content
    wrong = await env.harness.submit({"damage": "x"}, user="player1")
    assert refused(wrong) and "whole number" in wrong.content
    assert (await state(env)).pending is not None  # nothing spent
    await env.harness.click("Split Nudges…", message=rolled.message, user="player1")
    spent = await env.harness.submit({"damage": "1", "next_round": "2"}, user="player1")
    assert not refused(spent), spent.content
    vin = next(p for p in (await state(env)).participants if p.name == "Vin")
    assert vin.next_round_dice == 2


def declared(conflict: Conflict, name: str) -> Declaration:
    mover = next(p for p in conflict.participants if p.name == name)
    assert mover.round.declaration is not None
    return mover.round.declaration


def modal_fields(record: InteractionRecord) -> list[str]:
    """The custom ids of a form's fields, however its Labels nest them."""
    assert record.modal is not None
    fields = [c.get("component") or c for c in record.modal.get("components") or []]
    return [str(c["custom_id"]) for c in fields if "custom_id" in c]


async def test_the_declare_form_takes_traits_a_tool_a_power_burdens_and_a_label(bot_env: BotEnv) -> None:
    """What ``/declare`` takes besides the action, from the prompt: the menu names the action
    and its form the rest; a Hero's Burdens are anyone's to count, a Villain's the Narrator's."""
    env = bot_env
    await env.play([DUEL[0], ("player1", "/burden add burden:Limp severity:Serious name:Vin"), *DUEL[1:]])
    await env.bot.conflicts.idle()
    detail = "Declare with Traits, Tool, Power, Burdens, label…"
    straffs = pinged_prompts(env, "narrator")[-1]
    opened = await env.harness.select(detail, ["Attack Vin"], message=straffs, user="narrator")
    assert modal_fields(opened) == ["stat", "traits", "tool", "burdens", "label"], opened.content
    sent = await env.harness.submit(
        {"traits": "2", "tool": "1", "burdens": ["Limp"], "label": "swings a cane"}, user="narrator"
    )
    assert not refused(sent), sent.content
    straff = declared(await state(env), "Straff")
    assert straff.action.label == "swings a cane" and straff.dice is not None
    assert (straff.dice.stat, straff.dice.traits_for, straff.dice.tool) == ("Physique", 2, 1)
    assert straff.dice.burdens == ("Limp",)
    await env.bot.conflicts.idle()
    vins = pinged_prompts(env, "player1")[-1]
    opened = await env.harness.select(detail, ["Attack Straff"], message=vins, user="player1")
    assert modal_fields(opened) == ["stat", "traits", "tool", "label"]  # a Villain's Burdens: hidden
    wrong = await env.harness.submit({"traits": "lots"}, user="player1")
    assert refused(wrong) and "whole number" in wrong.content
    await env.harness.select(detail, ["Full defence"], message=vins, user="player1")
    sent = await env.harness.submit({"traits": "-1", "label": "ducks"}, user="player1")
    assert not refused(sent), sent.content
    vin = declared(await state(env), "Vin")
    assert vin.action.kind is ActionKind.FULL_DEFENCE and vin.action.label == "ducks"
    assert vin.dice is not None and vin.dice.traits_against == 1


async def test_the_narrator_removes_a_fighter_from_the_narrator_view(bot_env: BotEnv) -> None:
    """``/conflict remove`` from the Narrator view's menu: out at once, Undo on the reply
    (docs/rulings.md §4.24) rather than a confirmation."""
    env = bot_env
    await env.play(
        [
            ("narrator", "/character create name:Rat kind:Villain physique:2 wits:1"),
            *DUEL[:5],
            ("narrator", "/conflict add character:Rat"),
            DUEL[5],
        ]
    )
    await env.bot.conflicts.idle()
    full = await env.harness.click("Narrator view", message=await board_message(env), user="narrator")
    assert full.ephemeral and full.message is not None, full.content
    menu = next(c for c in controls(full.message) if c.get("placeholder") == "Remove a fighter…")
    narrator = env.harness.actor("narrator")
    for value in ("Rat", "1" * 19):  # values no menu offers: only a forged click sends them
        forged = payloads.component_click(env.world, narrator, full.message, menu, [value])
        answered = await env.harness.send(forged)
        assert refused(answered) and answered.content == NOT_OFFERED
    assert "Rat" in [p.name for p in (await state(env)).participants]
    removed = await env.harness.select("Remove a fighter…", ["Rat"], message=full.message, user="narrator")
    assert "Rat" in str(removed.messages) and "Undo" in str(removed.messages), removed.messages
    assert "Rat" not in [p.name for p in (await state(env)).participants]
    again = await env.harness.select("Remove a fighter…", ["Rat"], message=full.message, user="narrator")
    assert refused(again) and "already left" in again.content


async def test_between_rounds_the_board_takes_a_fighter_out_in_one_pick(bot_env: BotEnv) -> None:
    """Once a round is over the board offers the Narrator's menu of fighters beside Next round;
    a player's pick is refused, the Narrator's takes the fighter out, and Undo brings them back."""
    env = bot_env
    await env.play(
        [
            *DUEL,
            ("narrator", "/declare who:Straff action:full-defence stat:Physique"),
            ("player1", "/declare action:full-defence stat:Physique"),
        ]
    )
    await env.bot.conflicts.idle()
    board = await board_message(env)
    assert {"Next round", "Remove a fighter…"} <= set(labels(board))
    stranger = await env.harness.select("Remove a fighter…", ["Straff"], message=board, user="player1")
    assert refused(stranger) and "Narrator" in stranger.content
    removed = await env.harness.select("Remove a fighter…", ["Straff"], message=board, user="narrator")
    assert not refused(removed), removed.content
    assert [p.name for p in (await state(env)).participants] == ["Vin"]
    reply = next(m for m in removed.messages if "Undo" in labels(m))
    undone = await env.harness.click("Undo", message=reply, user="narrator")
    assert not refused(undone), undone.content
    assert sorted(p.name for p in (await state(env)).participants) == ["Straff", "Vin"]
    await env.bot.conflicts.idle()
    assert not env.harness.violations


async def test_a_hidden_characters_dice_are_on_the_narrators_private_prompt(bot_env: BotEnv) -> None:
    """docs/rulings.md §7.1: the public prompt of a secret Villain offers every pool; its
    **Its dice (Narrator)** tells a Narrator alone what it holds, with the pools it allows."""
    env = bot_env
    await env.play(
        [
            *DUEL,
            ("narrator", "/declare who:Straff action:attack target:Vin stat:Physique"),
            ("player1", "/declare action:no-roll"),
        ]
    )
    await env.bot.conflicts.idle()
    prompt = pinged_prompts(env, "narrator")[-1]
    assert [f"Act with {n}" for n in range(2, 11)] == [x for x in labels(prompt) if x.startswith("Act with")]
    assert "3 Action Dice" not in str(prompt)
    stranger = await env.harness.click("Its dice (Narrator)", message=prompt, user="player1")
    assert refused(stranger) and "Narrator" in stranger.content
    private = await env.harness.click("Its dice (Narrator)", message=prompt, user="narrator")
    assert private.ephemeral and private.message is not None, private.content
    assert "**Straff** holds 3 Action Dice" in private.content
    assert labels(private.message) == ["Act with 2", "Act with 3", "Not act"]
    acted = await env.harness.click("Act with 3", message=private.message, user="narrator")
    assert "Straff" in str(acted.followups), acted.messages
    assert (await state(env)).pending is not None


async def test_with_auto_rounds_the_next_round_opens_by_itself(bot_env: BotEnv) -> None:
    """``/conflict start auto_rounds:true`` (docs/rulings.md §4.17): the move that ends a round
    opens the next, whose first declarer is asked at once; nothing waits for Next round, and
    the board offers the menu to take a fighter out before anyone declares."""
    env = bot_env
    started = [("narrator", '/conflict start kind:physical stakes:"The ball" auto_rounds:true')]
    await env.play(
        [
            DUEL[0],
            DUEL[1],
            *started,
            *DUEL[3:],
            ("narrator", "/declare who:Straff action:full-defence stat:Physique"),
        ]
    )
    last = await env.slash("/declare action:full-defence stat:Physique", user="player1")
    assert not refused(last), last.content
    await env.bot.conflicts.idle()
    now = await state(env)
    assert now.round == 2 and now.phase is Phase.DECLARE, now
    assert "Round 2" in str(last.messages), last.messages
    assert "**Straff** declares for round 2" in str(pinged_prompts(env, "narrator")[-1]["content"])
    board = labels(await board_message(env))
    assert "Next round" not in board and "Remove a fighter…" in board, board
    assert not env.harness.violations
