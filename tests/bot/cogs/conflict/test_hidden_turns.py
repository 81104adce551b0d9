"""A hidden group's turn reads like any other hidden turn, whatever Action Dice it holds
(docs/rulings.md §4.9, §7.1): the board, the move's reply and the ping never say it holds too
few to act, or none; the Narrator view tells the Narrator."""

import pytest

from fake_discord.payloads import JSON
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, board_message, controls
from testbed.cards import card_text

HIDDEN_TURN = "Act: **Guards** — `/act` (or `/switch`, or `/pass`)"


@pytest.fixture
async def guards(bot_env: BotEnv) -> BotEnv:
    """Vin (player1's, 4 Action Dice) against the Narrator's hidden Guards (a group of 3), both
    attacking: Vin acts first."""
    env = bot_env
    vin = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"), attributes={"physique": 4}
    )
    guards = make_character(
        name="Guards",
        kind=CharacterKind.EXTRA,
        owner_id=env.user_id("narrator"),
        size=3,
        attributes={"physique": 5},
    )
    stored = await env.storage.characters.create(env.guild_id, vin)
    await env.storage.characters.create(env.guild_id, guards)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), stored.id)
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"The gate"'),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Guards"),
            ("narrator", "/conflict begin"),
            ("player1", "/declare action:attack target:Guards stat:Physique"),
            ("narrator", "/declare who:Guards action:attack target:Vin stat:Physique"),
        ]
    )
    return env


def next_line(message: JSON) -> str:
    """The "Next" of a move's reply (an embed's field) or of the board (a card's line)."""
    for embed in message.get("embeds") or []:
        for field in embed.get("fields") or []:
            if field["name"] == "Next":
                return str(field["value"])
    return next(line for line in card_text(message).splitlines() if line.startswith("Next: "))


async def guards_up_holding(env: BotEnv, dice: int) -> JSON:
    """Leave the Guards ``dice`` Action Dice, fewer than Vin's; Vin does not act: the Guards are up.
    The reply to Vin's pass, as the table sees it."""
    adjusted = await env.slash(f"/conflict adjust who:Guards dice:{dice - 5}", user="narrator")
    assert not adjusted.ephemeral, adjusted.content
    passed = await env.slash("/pass", user="player1")
    assert not passed.ephemeral and passed.message is not None, passed.content
    await env.bot.conflicts.idle()
    return passed.message


async def test_one_action_die_reads_like_any_hidden_turn(guards: BotEnv) -> None:
    env = guards
    reply = await guards_up_holding(env, 1)
    assert next_line(reply) == HIDDEN_TURN
    assert "too few" not in reply["content"] and "Action Di" not in reply["content"]
    assert "**Guards** act now: pick a pool" in reply["content"]
    board = await board_message(env)
    assert next_line(board) == f"Next: {HIDDEN_TURN}"
    labels = [c.get("label") for c in controls(board)]
    assert [f"Act with {n}" for n in range(2, 11)] == [x for x in labels if str(x).startswith("Act with")]
    # The prompt offers the Narrator view, which tells the truth to the Narrator alone.
    assert "Narrator view" in [c.get("label") for c in controls(reply)]
    full = await env.harness.click("Narrator view", user="narrator")
    assert full.ephemeral and "**Guards** (1 Action Die: too few for a pool" in card_text(full.messages[0])
    refused = await env.slash("/act who:Guards dice:2", user="narrator")
    assert refused.ephemeral and "Guards hold only 1 Action Die" in refused.content  # privately, the truth


async def test_no_action_dice_passes_a_hidden_group_by_in_the_same_words(guards: BotEnv) -> None:
    reply = await guards_up_holding(guards, 0)
    said = str(reply["embeds"][0]["description"])
    assert "**Guards** do not act" in said and "no Action Dice" not in said
