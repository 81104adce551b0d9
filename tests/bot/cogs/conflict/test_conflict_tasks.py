"""A Conflict action's task through the real dispatch (docs/rulings.md §9.10): `/declare task:`
and `/switch task:` add what `/roll task:` adds, each named in the pool; a hidden character's
parts stay the Narrator's."""

from typing import Any

from fake_discord.payloads import JSON
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.test_conflict_pushes import gathering
from tests.bot.cogs.conflict.test_prompt_moves import modal_fields, pinged_prompts

EPHEMERAL = 64


def public(messages: list[JSON]) -> str:
    return str([m for m in messages if not int(m.get("flags") or 0) & EPHEMERAL])


def private(messages: list[JSON]) -> str:
    return str([m for m in messages if int(m.get("flags") or 0) & EPHEMERAL])


async def create(env: BotEnv, name: str, owner: str, power: dict[str, Any], **fields: Any) -> None:
    character = make_character(
        name=name,
        owner_id=env.user_id(owner),
        powers=[power],
        standings={"resources": 4, "influence": 3, "spirit": 3},
        **fields,
    )
    await env.storage.characters.create(env.guild_id, character)


async def tineye_against(env: BotEnv) -> None:
    """Kel (Wits 4, Tin 5 with Focused Sense) burning Tin, against the Narrator's Thug (Pewter 3
    with Prodigious Strength), round 1 begun."""
    tin = {"type": "allomancy", "name": "Tin", "rating": 5, "stunts": ["Focused Sense"]}
    await create(env, "Kel", "player1", tin, kind=CharacterKind.HERO, attributes={"physique": 4, "wits": 4})
    pewter = {"type": "allomancy", "name": "Pewter", "rating": 3, "stunts": ["Prodigious Strength"]}
    thug_stats = {"physique": 5, "charm": 2, "wits": 2}
    await create(env, "Thug", "narrator", pewter, kind=CharacterKind.VILLAIN, attributes=thug_stats)
    await env.play([*gathering("player1", "Kel"), ("player1", "/burn metal:Tin")])


async def test_a_tineye_declares_a_sense_action_with_tins_dice(bot_env: BotEnv) -> None:
    """§9.3, §9.10: Tin's rating and Focused Sense on a Wits action about the senses; none
    without the task."""
    env = bot_env
    await tineye_against(env)
    await env.play([("narrator", "/declare who:Thug action:no-roll")])
    plain = await env.slash("/declare action:action stat:Wits", user="player1")
    assert not refused(plain), plain.content
    assert "Tin 5" not in str(plain.messages) and "4 Action Dice" in str(plain.messages)
    declared = await env.slash('/declare action:action stat:Wits task:senses label:"listens"', user="player1")
    assert not refused(declared), declared.content
    said = str(declared.messages)
    assert "Tin 5" in said and "Focused Sense 1" in said and "10 Action Dice" in said  # 4 + 5 + 1


async def test_a_thugs_prodigious_strength_bites_on_a_strength_attack(bot_env: BotEnv) -> None:
    """§9.7, §9.10: a revealed Thug burning Pewter attacks with strength: Physique 5 + Pewter 3 +
    Prodigious Strength 1, told to the table."""
    env = bot_env
    await tineye_against(env)
    revealed = await env.slash("/character reveal name:Thug", user="narrator")
    assert "now open to the players" in revealed.content
    await env.play([("narrator", "/burn metal:Pewter who:Thug")])
    declared = await env.slash(
        "/declare who:Thug action:attack target:Kel stat:Physique task:strength", user="narrator"
    )
    assert not refused(declared), declared.content
    said = public(declared.messages)
    assert "Prodigious Strength 1" in said and "9 Action Dice" in said


async def test_a_hidden_thugs_parts_stay_the_narrators(bot_env: BotEnv) -> None:
    """§7.1: the table sees a hidden Villain's dice, never the Powers behind them."""
    env = bot_env
    await tineye_against(env)
    await env.play([("narrator", "/burn metal:Pewter who:Thug")])
    declared = await env.slash(
        "/declare who:Thug action:attack target:Kel stat:Physique task:strength", user="narrator"
    )
    assert not refused(declared), declared.content
    assert "Prodigious Strength" not in public(declared.messages)
    assert "Pewter" not in public(declared.messages)
    assert "Prodigious Strength 1" in private(declared.messages)  # the Narrator's own figures


async def test_a_switch_takes_a_task_too(bot_env: BotEnv) -> None:
    """§4.7, §9.10: a switch refigures the dice with its own task, then halves them."""
    env = bot_env
    await tineye_against(env)
    await env.play(
        [
            ("narrator", "/declare who:Thug action:no-roll"),
            ("player1", "/declare action:attack target:Thug stat:Physique"),
        ]
    )
    switched = await env.slash("/switch action:action stat:Wits task:senses", user="player1")
    assert not refused(switched), switched.content
    said = str(switched.messages)
    assert "Tin 5" in said and "5 Action Dice" in said  # (4 + 5 + 1) halved


async def test_a_no_roll_action_leans_on_nothing(bot_env: BotEnv) -> None:
    env = bot_env
    await tineye_against(env)
    await env.play([("narrator", "/declare who:Thug action:no-roll")])
    reply = await env.slash("/declare action:no-roll task:senses", user="player1")
    assert refused(reply) and reply.ephemeral and "lean on" in reply.content


async def test_the_declare_form_offers_the_task_to_a_sheet_with_powers(bot_env: BotEnv) -> None:
    """§9.10: the prompt's form takes the task too (room allowing), with what `/declare task:`
    adds."""
    env = bot_env
    await tineye_against(env)
    await env.play([("narrator", "/declare who:Thug action:no-roll")])
    await env.bot.conflicts.idle()
    prompt = pinged_prompts(env, "player1")[-1]
    detail = "Declare with Traits, Tool, Power, Burdens, label…"
    opened = await env.harness.select(detail, ["Act without attacking"], message=prompt, user="player1")
    assert modal_fields(opened) == ["stat", "traits", "tool", "task", "label"]
    sent = await env.harness.submit({"stat": ["Wits"], "task": ["senses"]}, user="player1")
    assert not refused(sent), sent.content
    said = str(sent.messages)
    assert "Tin 5" in said and "10 Action Dice" in said
