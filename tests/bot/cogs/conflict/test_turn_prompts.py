"""Turns that find their players (docs/rulings.md §4.21), through the real discord.py dispatch.

A Narrator and two players: Vin (player1), Kell (player2), the Narrator's Thug and Guards
(``testbed.turns``). Each turn to declare or act pings the one who must move, and only
them, once; its buttons play the turn; a stale click or someone else's is refused privately;
and a restarted bot asks a turn again when its message is gone.
"""

import asyncio
import copy
from typing import Any

from rules.conflict import Conflict, Step, waiting
from storage.conflict_moves import current_conflict
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, board_message, controls, refused
from testbed.cards import card_text
from testbed.turns import SHEETS, START, Table, mentioned

JSON = dict[str, Any]


async def state(env: BotEnv) -> Conflict:
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    return conflict


async def started(env: BotEnv) -> Table:
    table = Table(env, "buttons")
    await env.play(SHEETS)
    for user, line in START:
        await table.move(user, line)
    return table


async def test_a_three_round_conflict_plays_by_buttons_each_turn_pinging_only_its_mover(
    bot_env: BotEnv,
) -> None:
    table = Table(bot_env, "buttons")
    await table.play()
    tally = table.tally
    assert tally.unpinged == {}  # every declare, act, defence and Nudges turn pinged its mover
    assert tally.pinged["declare"] == 12 and tally.pinged["act"] >= 6
    for number in (2, 3):  # after the set-up, each player makes their own moves
        moves = tally.moves[number]
        assert moves["player1"] >= 2 and moves["player2"] >= 2
    narrator_share = sum(m["narrator"] for m in tally.moves.values()) / sum(
        sum(m.values()) for m in tally.moves.values()
    )
    assert narrator_share < 0.6


async def test_the_first_declarer_is_pinged_alone_with_the_declare_buttons(bot_env: BotEnv) -> None:
    table = await started(bot_env)
    conflict = await state(bot_env)
    wait = waiting(conflict)
    assert wait.step is Step.DECLARE
    first = conflict.participant(wait.participants[0])
    user = table.user_of(conflict, first.id)
    asked = table.prompt(user)
    assert asked is not None and mentioned(asked) == {bot_env.user_id(user)}
    ids = [c["custom_id"] for row in asked["components"] for c in row["components"]]
    assert any(i.startswith("mab:dsel:") for i in ids) and any(i.endswith(":defence") for i in ids)


async def test_a_move_that_leaves_the_turn_where_it_was_pings_nobody_again(bot_env: BotEnv) -> None:
    table = await started(bot_env)
    before = len([m for m in bot_env.harness.fake.messages.values() if m.get("mentions")])
    reply = await bot_env.slash("/conflict surprise who:Guards surprised:true", user="narrator")
    assert not refused(reply) and reply.message is not None and not mentioned(reply.message)
    await bot_env.bot.conflicts.idle()
    assert len([m for m in bot_env.harness.fake.messages.values() if m.get("mentions")]) == before
    assert table.tally.unpinged == {}


async def test_a_click_for_someone_elses_character_or_a_passed_turn_is_refused_privately(
    bot_env: BotEnv,
) -> None:
    table = await started(bot_env)
    conflict = await state(bot_env)
    first = conflict.participant(waiting(conflict).participants[0])
    owner = table.user_of(conflict, first.id)
    other = "player2" if owner != "player2" else "player1"
    prompt = copy.deepcopy(table.prompt(owner))  # as the stale message shows on a slow client
    assert prompt is not None
    stranger = await bot_env.harness.click("Full defence", message=prompt, user=other)
    assert refused(stranger) and "player or a Narrator" in stranger.content
    assert waiting(await state(bot_env)).participants == (first.id,)  # nothing changed
    mine = await bot_env.harness.click("Full defence", message=prompt, user=owner)
    assert not refused(mine)
    await bot_env.bot.conflicts.idle()
    stale = await bot_env.harness.click("No roll", message=prompt, user=owner)
    assert refused(stale) and "turn has passed" in stale.content


async def test_a_typed_declaration_infers_who_when_one_of_the_callers_characters_can_move(
    bot_env: BotEnv,
) -> None:
    table = await started(bot_env)
    conflict = await state(bot_env)
    first = conflict.participant(waiting(conflict).participants[0])
    assert table.user_of(conflict, first.id) == "narrator"  # the Guards (Wits 2) go first
    reply = await bot_env.slash("/declare action:full-defence stat:Physique", user="narrator")
    assert not refused(reply), reply.content


async def test_a_restarted_bot_asks_a_turn_again_when_its_message_is_gone(bot_env: BotEnv) -> None:
    table = await started(bot_env)
    conflict = await state(bot_env)
    user = table.user_of(conflict, waiting(conflict).participants[0])
    prompt = table.prompt(user)
    assert prompt is not None
    await bot_env.harness.fake.delete_message(prompt)
    await bot_env.restart()
    await asyncio.wait_for(bot_env.bot.catch_up.done.wait(), 10)
    await bot_env.bot.conflicts.idle()
    again = table.prompt(user)
    assert again is not None and again["id"] != prompt["id"]
    assert mentioned(again) == {bot_env.user_id(user)}
    await bot_env.restart()  # asked once: the new prompt is remembered
    await asyncio.wait_for(bot_env.bot.catch_up.done.wait(), 10)
    assert table.prompt(user) == again


async def test_a_wits_tie_settled_by_join_order_says_so_and_offers_the_reorder(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            ("player1", "/character create name:Vin physique:4 wits:3"),
            ("player2", "/character create name:Kell physique:3 wits:3"),
            ("narrator", "/character create name:Thug kind:Villain physique:4 wits:5"),
            ("narrator", '/conflict start kind:physical stakes:"A brawl"'),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Thug"),
        ]
    )
    joined = await env.slash("/conflict join", user="player2")
    # The tie is the Narrator's to hear, privately (issue 29): the table sees only the order.
    assert "Tied on Wits" not in joined.text and "/conflict order" not in joined.text


async def test_a_burden_and_the_next_turn_each_mention_only_their_own_player(bot_env: BotEnv) -> None:
    """Issue 39: the Thug's blow gives Vin a Burden and Kell is up next. Each line mentions
    only its own player, so neither reads as told of the other's news."""
    env = bot_env
    env.bot.conflicts.grace.seconds = 0
    duel = rated("physique:3 wits:4", "physique:5 wits:2")
    make_kell = [("player2", "/character create name:Kell physique:4 wits:5")]
    club = [("narrator", "/edit prop-add prop:Club weapon:3 name:Thug")]
    joins = [("player2", "/conflict join")]
    declares = [("player2", "/declare action:attack target:Thug stat:Physique")]
    await env.play([*duel[:2], *make_kell, *club, *duel[2:5], *joins, *duel[5:], *declares, THUG_ATTACKS])
    blow = await env.harness.click("Don't defend", user="player1")
    assert not refused(blow) and blow.followups, blow.text
    told = blow.followups[-1]
    vin, kell = env.user_id("player1"), env.user_id("player2")
    lines = str(told["content"]).split("\n")
    assert lines == [
        f"<@{vin}> **Vin** gains a Burden: Wounded (Health).",
        f"<@{kell}> **Kell** acts now with 4 Action Dice: pick a pool (the rest become Defense Dice), "
        "not act, or take a new action (`/switch`).",
    ], lines
    assert mentioned(told) == {vin, kell}


async def test_a_character_who_switched_this_round_is_not_offered_a_new_action(bot_env: BotEnv) -> None:
    """One switch a round (docs/rulings.md §4.8): the switcher's turn, asked last, offers a
    pool or not acting, never "New action…", on its prompt and on the board (issue 39)."""
    env = bot_env
    env.bot.conflicts.grace.seconds = 0
    await env.play(rated("physique:5 wits:4", "physique:3 wits:2"))  # Vin acts first
    first = table_prompt(env, "player1")
    assert "New action…" in labels(first), "before switching, Vin may switch"
    await env.play([("player1", "/switch action:attack stat:Physique target:Thug")])
    await env.play([("narrator", "/act dice:3 who:Thug")])
    await env.harness.click("Don't defend", user="player1")
    await env.bot.conflicts.idle()
    await env.bot.conflicts.boards.idle()
    asked = table_prompt(env, "player1")
    assert "**Vin** acts now" in str(asked["content"]), asked["content"]
    assert "/switch" not in str(asked["content"]), asked["content"]
    assert labels(asked) == ["Act with 2", "Act with 3", "Not act", "Undo"], labels(asked)
    board = await board_message(env)
    assert "New action…" not in labels(board)
    assert "Next: Act: **Vin** (3 Action Dice) — `/act` (or `/pass`)" in card_text(board), card_text(board)


def rated(vin: str, thug: str) -> list[tuple[str, str]]:
    """``DUEL`` with Vin's and the Thug's ratings (``physique:5 wits:4``): who acts first follows."""
    return [
        (
            user,
            line.replace("physique:3 wits:4", vin).replace("kind:Villain physique:5", f"kind:Villain {thug}"),
        )
        for user, line in DUEL
    ]


def table_prompt(env: BotEnv, user: str) -> JSON:
    """The newest message that pinged ``user``."""
    me = env.user_id(user)
    return next(m for m in reversed(env.harness.fake.messages.values()) if me in mentioned(m))


def labels(message: JSON) -> list[str]:
    return [str(c.get("label")) for c in controls(message) if c.get("type") == 2 and c.get("label")]
