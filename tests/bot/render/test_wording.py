"""Messages that read right (docs/rulings.md §8), each through the command a table would type."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.inputs.choices import refusal
from bot.render.conflict_status import bought_dice
from bot.render.dice import decision_text
from fake_discord.layout import texts
from fake_discord.records import InteractionRecord
from rules.conflict import Phase
from rules.contest import Decision
from rules.naming import did_you_mean
from rules.words import count_of, verb
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv
from testbed.cards import card_title


def title(record: InteractionRecord) -> str:
    assert record.message is not None
    return card_title(record.message)


def sides(record: InteractionRecord) -> list[str]:
    """A Contest card's sides, by the name heading each one's block."""
    assert record.message is not None
    blocks = texts(record.message.get("components") or [])
    return [found[1] for block in blocks if (found := re.match(r"\*\*([^*\n]+)\*\*\n", block))]


WORDS = st.sampled_from(["die", "Action Die", "Defense Die", "Nudge", "roll", "member", "round"])


@given(st.integers(min_value=0, max_value=1000), WORDS)
def test_one_count_rule_for_every_noun(count: int, word: str) -> None:
    said = count_of(count, word)
    if count == 1:
        assert said == f"1 {word}"
    else:
        assert (
            said.startswith(f"{count} ") and not said.endswith(("Die", "die")) and "dies" not in said.lower()
        )
    assert (count_of(1, "die"), count_of(1, "Action Die"), count_of(1, "roll")) == (
        "1 die",
        "1 Action Die",
        "1 roll",
    )


def test_a_group_takes_a_plural_verb() -> None:
    assert [verb(v, True) for v in ("joins", "is", "does", "catches", "switches", "loses", "has")] == [
        "join",
        "are",
        "do",
        "catch",
        "switch",
        "lose",
        "have",
    ]
    assert verb("joins", False) == "joins"


async def test_contest_sides_are_named_by_who_rolled(bot_env: BotEnv) -> None:
    env = bot_env
    bare = await env.slash("/contest actor_dice:3 opponent_dice:3")
    assert sides(bare) == ["Acting side", "Opposing side"]
    assert title(bare) in ("Acting side wins", "Opposing side wins", "Stalemate")
    assert "3 dice" not in title(bare)
    one = await env.slash("/contest actor_dice:1 opponent_dice:1")
    assert "1 dice" not in one.text
    await env.slash("/character create name:Vin physique:3 wits:5", user="player1")
    named = await env.slash("/contest actor:Vin actor_stat:Physique opponent_dice:2", user="player1")
    assert sides(named) == ["Vin", "Opposing side"]


def test_a_failure_outright_says_whose_action_failed() -> None:
    assert decision_text(Decision.FAILED_OUTRIGHT, "**Vin**").startswith("**Vin**'s action failed outright")
    assert decision_text(Decision.FAILED_OUTRIGHT, "Acting side").startswith("The acting side's action")
    assert decision_text(Decision.RESULT, "**Vin**") == "Settled by the higher Result."


async def test_odds_and_history_count_in_the_singular_too(bot_env: BotEnv) -> None:
    env = bot_env
    odds = await env.slash("/odds contest acting:1 opposing:2")
    assert title(odds) == "Contest: 1 die vs 2 dice"
    await env.slash("/roll dice:2")
    fairness = await env.slash("/history fairness")
    assert "1 roll, 2 dice" in fairness.text and "1 rolls" not in fairness.text


async def test_a_labelled_roll_keeps_the_characters_name(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash("/character create name:Vin physique:3 wits:5", user="player1")
    labelled = await env.slash('/roll stat:Wits label:"Spot the Inquisitor"', user="player1")
    assert title(labelled) == "Vin: Spot the Inquisitor"
    bare = await env.slash('/roll dice:3 label:"Leap the canal"', user="player1")
    assert title(bare) == "Leap the canal"


async def test_a_group_joins_in_the_plural_and_the_start_says_what_began(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash("/character create name:Guards template:guards size:4")
    await env.slash("/character create name:Thug template:thug")
    started = await env.slash('/conflict start kind:social stakes:"Win the ball"')
    description = started.embeds[0]["description"]
    assert description == "A social Conflict. Stakes: Win the ball. In it: nobody yet."
    guards = await env.slash("/conflict add character:Guards side:opposition")
    assert guards.embeds[0]["title"] == "Guards join"
    assert "**Guards** join the Opposition" in guards.embeds[0]["description"]
    thug = await env.slash("/conflict add character:Thug side:opposition")
    assert thug.embeds[0]["title"] == "Thug joins" and "**Thug** joins the Opposition" in thug.text


async def test_bought_dice_are_this_round_once_it_has_come(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash("/character create name:Vin physique:3 wits:5", user="player1")
    await env.slash('/conflict start kind:physical stakes:"Escape"')
    await env.slash("/conflict add character:Vin")
    await env.slash("/conflict begin")
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None and conflict.phase is Phase.DECLARE
    vin = conflict.participants[0].model_copy(update={"next_round_dice": 1})
    declaring = conflict.with_participant(vin)
    assert bought_dice(declaring, vin) == "1 die this round"
    resolving = declaring.model_copy(update={"phase": Phase.RESOLVE})
    assert bought_dice(resolving, vin) == "1 die next round"


async def test_a_misspelt_metal_stat_or_choice_gets_a_suggestion(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash("/character create name:Vin physique:3 wits:5", user="player1")
    stat = await env.slash("/roll stat:wtis", user="player1")
    assert stat.ephemeral and "Did you mean Wits?" in stat.content
    power = await env.slash("/edit power-add type:Allomancy power:pewtr rating:3", user="player1")
    assert power.ephemeral and "Did you mean Pewter?" in power.content
    await env.slash("/edit power-add type:Allomancy power:Steel rating:3", user="player1")
    await env.slash('/conflict start kind:physical stakes:"Escape"')
    await env.slash("/conflict add character:Vin")
    burn = await env.slash("/burn metal:steal", user="player1")
    assert burn.ephemeral and "'steal' is not a metal. Did you mean Steel?" in burn.content
    assert "Did you mean Physique?" in str(refusal("phys", "Attribute", ["Physique", "Charm", "Wits"]))
    assert did_you_mean("zzzz", ["Steel", "Iron"]) == ""


async def test_the_build_advice_is_shown_once_not_after_every_edit(bot_env: BotEnv) -> None:
    env = bot_env
    made = await env.slash("/character create name:Vin physique:3 wits:5", user="player1")
    assert "Hero build check" in made.text
    for value in (3, 4):
        edited = await env.slash(f"/edit standing standing:Resources value:{value}", user="player1")
        assert "Resources is now" in edited.text and "Hero build check" not in edited.text
    broken = await env.slash("/edit attribute attribute:Physique value:8", user="player1")
    assert "Physique runs from 2 to 6; it is 8" in broken.text  # a new kind of problem is told
