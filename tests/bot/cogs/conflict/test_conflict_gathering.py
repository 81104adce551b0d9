"""A fight opens when the cast is in (docs/rulings.md §4.18, §4.22, §4.23), through the real
discord.py dispatch: nobody is asked to declare before the Narrator's Begin, a prompt for a turn
still to come says so, a late arrival waits a round, and a declaration can be changed in time.
"""

import copy

from rules.conflict import Conflict, Phase
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, board_message, controls, refused
from testbed.cards import card_text
from testbed.turns import mentioned

JSON = dict[str, object]
SHEETS = [
    ("player1", "/character create name:Vin physique:3 wits:4"),
    ("player2", "/character create name:Kell physique:3 wits:5"),
    ("narrator", "/character create name:Thug kind:Villain physique:5 wits:2"),
    ("narrator", "/character create name:Guards kind:Extra physique:3 wits:3 size:3"),
    ("narrator", "/character create name:Rat kind:Villain physique:2 wits:1"),
]
GATHER = [
    ("narrator", '/conflict start kind:physical stakes:"Out of the alley"'),
    ("player1", "/conflict join"),
    ("player2", "/conflict join"),
    ("narrator", "/conflict add character:Thug"),
]


async def state(env: BotEnv) -> Conflict:
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    return conflict


def pinged_prompts(env: BotEnv, user: str, after: int = 0) -> list[JSON]:
    """Messages after ``after`` that pinged ``user`` with buttons: their turn's prompts."""
    uid = env.user_id(user)
    return [
        m
        for i, m in env.harness.fake.messages.items()
        if i > after and uid in mentioned(m) and m.get("components")
    ]


def labels(message: JSON) -> list[str]:
    return [str(c.get("label") or c.get("placeholder")) for c in controls(message)]


async def test_nobody_declares_or_is_pinged_until_the_narrator_presses_begin(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(SHEETS)
    for user, line in GATHER:
        reply = await env.slash(line, user=user)
        assert not refused(reply) and reply.message is not None and not mentioned(reply.message), line
    await env.bot.conflicts.idle()
    assert all(not pinged_prompts(env, user) for user in ("player1", "player2", "narrator"))
    board = await board_message(env)
    text = card_text(board)
    assert "gathering the cast" in text and "Joined so far (3): **Thug** · **Vin** · **Kell**" in text
    assert "Begin round 1" in labels(board)
    early = await env.slash("/declare action:full-defence stat:Physique", user="player1")
    assert refused(early) and "has not begun" in early.content
    stranger = await env.harness.click("Begin round 1", message=board, user="player1")
    assert refused(stranger) and "Narrator" in stranger.content
    mark = max(env.harness.fake.messages)
    begun = await env.harness.click("Begin round 1", message=await board_message(env), user="narrator")
    assert not refused(begun), begun.content
    await env.bot.conflicts.idle()
    assert (await state(env)).phase is Phase.DECLARE
    asked = pinged_prompts(env, "narrator", mark)  # the Thug (Wits 2) declares first
    assert len(asked) == 1 and "declares for round 1" in str(asked[0]["content"])
    assert "Begin round 1" not in labels(await board_message(env))


async def test_next_round_while_declaring_tells_the_narrator_how_to_move_on(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play([*SHEETS, *GATHER])
    early = await env.slash("/conflict next-round")
    assert refused(early) and "`/conflict begin`" in early.content
    assert not refused(await env.slash("/conflict begin"))
    stuck = await env.slash("/conflict next-round")
    assert refused(stuck) and "Everyone must declare, and then act" in stuck.content
    assert "`/declare who:Thug`" in stuck.content and "`/conflict remove who:Thug`" in stuck.content


async def test_a_prompt_for_a_turn_still_to_come_says_so_and_a_late_arrival_waits_a_round(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    await env.play([*SHEETS, *GATHER, ("narrator", "/conflict begin")])
    await env.play([("narrator", "/declare who:Thug action:attack target:Vin stat:Physique")])
    await env.bot.conflicts.idle()
    vins = pinged_prompts(env, "player1")
    assert len(vins) == 1
    prompt = copy.deepcopy(vins[0])
    guards = await env.slash("/conflict add character:Guards")  # Wits 3: before Vin, still to come
    assert not refused(guards) and guards.message is not None
    early = await env.harness.click("Full defence", message=prompt, user="player1")
    assert refused(early) and "Not your turn yet: Guards declare first; you'll be pinged." in early.content
    rat = await env.slash("/conflict add character:Rat")  # Wits 1: the Thug has declared after
    assert not refused(rat) and "declare from round 2" in rat.text
    mark = max(env.harness.fake.messages)
    await env.slash("/declare who:Guards action:full-defence stat:Physique")
    await env.bot.conflicts.idle()
    assert len(pinged_prompts(env, "player1", mark)) == 1  # Vin's turn has come: asked again
    played = await env.harness.click("Full defence", message=prompt, user="player1")
    assert not refused(played), played.content
    board = card_text(await board_message(env))
    assert "**Rat** (next round)" in board


async def test_a_declaration_changes_until_the_next_declares_then_only_the_narrator_reopens_it(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    await env.play([*SHEETS, *GATHER, ("narrator", "/conflict begin")])
    await env.slash("/declare who:Thug action:attack target:Vin stat:Physique")
    await env.slash("/declare action:attack target:Thug stat:Physique", user="player1")
    changed = await env.slash("/declare action:full-defence stat:Physique", user="player1")
    assert not refused(changed) and "**Vin** changes their declaration to full defence" in changed.text
    await env.slash("/declare action:attack target:Thug stat:Physique", user="player2")
    late = await env.slash("/declare action:no-roll", user="player1")
    assert refused(late) and "Kell has declared since. Only the Narrator can reopen it." in late.content
    reopened = await env.slash("/declare who:Vin action:no-roll", user="narrator")
    assert not refused(reopened) and "changes their declaration" in reopened.text


async def test_a_turn_with_no_action_dice_passes_by_itself(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play([*SHEETS, *GATHER, ("narrator", "/conflict begin")])
    await env.play(
        [
            ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
            ("player1", "/declare action:attack target:Thug stat:Physique"),
            ("player2", "/declare action:full-defence stat:Physique"),
            ("narrator", "/conflict adjust who:Vin dice:-3"),
        ]
    )
    mark = max(env.harness.fake.messages)
    passed = await env.slash("/pass who:Thug")
    assert not refused(passed)
    assert "**Vin** has no Action Dice left, so the turn passes by" in passed.text
    assert "Round over" in passed.text
    await env.bot.conflicts.idle()
    assert not pinged_prompts(env, "player1", mark)


async def test_the_act_buttons_never_offer_a_fallen_target(bot_env: BotEnv) -> None:
    """Vin's attack on the Thug waits for her turn; the Thug falls (his Pewter fades with his
    Health gone): her turn is asked again, offering a new action or not acting, no pool."""
    env = bot_env
    await env.play(
        [
            ("narrator", "/character create name:Thug kind:Villain physique:4 wits:2 resources:3"),
            ("narrator", "/edit power-add type:allomancy power:Pewter rating:5 name:Thug"),
            *[line for line in SHEETS if "name:Thug" not in line[1]],
            *GATHER,
            ("narrator", "/conflict add character:Guards"),
            ("narrator", "/conflict begin"),
            ("narrator", "/burn metal:Pewter who:Thug"),
            ("narrator", "/declare who:Thug action:no-roll"),
            ("narrator", "/declare who:Guards action:no-roll"),
            ("player1", "/declare action:attack target:Thug stat:Physique"),
            ("player2", "/declare action:full-defence stat:Physique"),
        ]
    )
    await env.bot.conflicts.idle()
    assert any("Act with 3" in labels(m) for m in pinged_prompts(env, "player1"))
    mark = max(env.harness.fake.messages)
    await env.slash("/sheet damage amount:9 pewter:true name:Thug")
    fell = await env.slash("/burn metal:Pewter burning:false who:Thug")
    assert not refused(fell) and "defeated" in fell.text
    await env.bot.conflicts.idle()
    [again] = pinged_prompts(env, "player1", mark)
    assert "Thug is out of the fight" in str(again["content"])
    offered = labels(again)
    assert not any(label.startswith("Act with") for label in offered)
    assert "Not act" in offered and "New action…" in offered


async def test_a_busy_defenders_prompt_offers_their_reaction_traits(bot_env: BotEnv) -> None:
    """docs/rulings.md §4.11: busy elsewhere, Vin's Traits that help her react add Defense Dice;
    the prompt offers them in a menu instead of asking for `/defend traits:`."""
    env = bot_env
    await env.play(
        [
            *SHEETS,
            ("player1", '/edit trait slot:specialty text:"Quick feet"'),
            ("player1", '/edit trait-add text:"Street-wise"'),
            *GATHER,
            ("narrator", "/conflict begin"),
            ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
            ("player1", "/declare action:no-roll"),
            ("player2", "/declare action:full-defence stat:Physique"),
            ("narrator", "/act dice:4 who:Thug"),
        ]
    )
    await env.bot.conflicts.idle()
    prompt = pinged_prompts(env, "player1")[-1]
    assert "React with Traits (+1 die each)…" in labels(prompt) and "Defend with 3" in labels(prompt)
    menu = await env.harness.select(
        "React with Traits (+1 die each)…", ["0", "1"], message=prompt, user="player1"
    )
    assert menu.ephemeral and menu.message is not None, menu.content
    assert "Reacting with 2 Traits, **Vin** holds 5 Defense Dice" in menu.content
    defended = await env.harness.click("Defend with 5", message=menu.message, user="player1")
    outcome = str(defended.followups)  # the private menu loses its buttons; the outcome follows
    assert "Physique 3 + 2 Traits" in outcome and "defends with 5" in outcome, defended.messages


async def test_an_empty_gathering_board_says_nobody_has_joined_once(bot_env: BotEnv) -> None:
    env = bot_env
    started = await env.slash('/conflict start kind:physical stakes:"An empty alley"')
    assert not refused(started), started.content
    await env.bot.conflicts.idle()
    text = card_text(await board_message(env)).lower()
    assert text.count("nobody yet") == 1 and "joined so far (0): nobody yet" in text
