"""Soothing and rioting on ``/roll`` through the real dispatch (docs/rulings.md §9.3): a success
saves the emotion held on the sheet with the roll, and a later Charm roll gets its dice; a
failure's card says what its Complications mean; a hidden Villain's hold stays the Narrator's."""

import random
from typing import Any

from rules.character import CharacterKind, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv, board_message
from testbed.cards import card_field, card_text

STATS: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}


class Faces(random.Random):
    """Dice that fall as told, in turn, then at random (the bot's generator is injected, §1)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else super().randint(a, b)


async def soother(env: BotEnv, name: str, metal: str = "Brass", **fields: Any) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    fields.setdefault("owner_id", env.user_id("player1"))
    character = make_character(
        name=name,
        powers=[{"type": "allomancy", "name": metal, "rating": 5}],
        allomancy={"burning": [metal]},
        **{**STATS, **fields},
    )
    return await env.storage.characters.create(env.guild_id, character)


async def hold_of(env: BotEnv, name: str) -> Any:
    return (await env.storage.characters.get_by_name(env.guild_id, name)).character.allomancy.hold


async def test_a_soothing_holds_and_helps_the_next_charm_roll(bot_env: BotEnv) -> None:
    await soother(bot_env, "Breeze")
    bot_env.bot.rng = Faces(5, 5, 2, 3, 4)
    soothed = await bot_env.slash("/roll stat:Brass character:Breeze difficulty:2", user="player1")
    assert soothed.message is not None, soothed.content
    assert "The soothing holds: +3 dice on Charm and Influence rolls" in card_text(soothed.message)
    hold = await hold_of(bot_env, "Breeze")
    assert hold is not None and (hold.metal, hold.dice) == ("Brass", 3)
    charm = await bot_env.slash("/roll stat:Charm character:Breeze", user="player1")
    assert charm.message is not None and "Soothing 3" in card_field(charm.message, "Pool")


async def test_a_failed_rioting_says_what_its_complications_mean(bot_env: BotEnv) -> None:
    await soother(bot_env, "Kell", "Zinc")
    bot_env.bot.rng = Faces(1, 2, 3, 4, 5)
    rioted = await bot_env.slash("/roll stat:Zinc character:Kell difficulty:4", user="player1")
    assert rioted.message is not None, rioted.content
    assert "The rioting fails. The target feels it, and knows who is doing it." in card_text(rioted.message)
    assert await hold_of(bot_env, "Kell") is None
    bot_env.bot.rng = Faces(1, 2, 3, 4, 5)
    alerted = await bot_env.slash("/roll stat:Zinc character:Kell difficulty:2", user="player1")
    assert alerted.message is not None
    assert "The rioting fails. The target feels their emotions pushed." in card_text(alerted.message)


async def test_a_hidden_villains_hold_is_the_narrators(bot_env: BotEnv) -> None:
    owner = bot_env.user_id("narrator")
    await soother(bot_env, "Obligator", kind=CharacterKind.VILLAIN, owner_id=owner)
    bot_env.bot.rng = Faces(5, 5, 2, 3, 4)
    soothed = await bot_env.slash("/roll stat:Brass character:Obligator difficulty:2", user="narrator")
    public = [m for m in soothed.messages if not int(m.get("flags") or 0) & 64]
    private = [m for m in soothed.messages if int(m.get("flags") or 0) & 64]
    assert public and all("soothing" not in card_text(m) for m in public)
    assert any("The soothing holds: +3 dice" in card_text(m) for m in private)
    hold = await hold_of(bot_env, "Obligator")
    assert hold is not None and hold.dice == 3


async def test_a_held_emotion_shows_on_the_sheet_card_and_the_board(bot_env: BotEnv) -> None:
    """The hold was saved but shown nowhere: the card's Powers say it, the board's row too, so
    the table sees the dice it adds before the Charm roll (docs/rulings.md §9.3, §9.10)."""
    env = bot_env
    await soother(env, "Breeze")
    env.bot.rng = Faces(5, 5, 2, 3, 4)
    await env.slash("/roll stat:Brass character:Breeze difficulty:2", user="player1")
    shown = await env.slash("/character show name:Breeze", user="player1")
    assert shown.message is not None, shown.content
    assert "Holding: Soothing (Brass), +3 dice on Charm and Influence rolls" in card_text(shown.message)
    await env.play(
        [
            ("player1", "/character use name:Breeze"),
            ("narrator", '/conflict start kind:social stakes:"The ball"'),
            ("player1", "/conflict join"),
        ]
    )
    await env.bot.conflicts.idle()
    assert "holding Soothing +3" in str(await board_message(env))


async def test_focused_emotion_adds_its_die_when_the_roll_names_the_emotion(bot_env: BotEnv) -> None:
    """§9.7: a /roll of Zinc whose label names the Stunt's emotion rolls 1 die more."""
    kell = await soother(bot_env, "Kell", "Zinc")
    power = kell.character.powers[0].model_copy(update={"stunts": ("Focused Emotion: rage",)})
    await bot_env.storage.characters.update(
        bot_env.guild_id, kell, kell.character.model_copy(update={"powers": (power,)})
    )
    named = await bot_env.slash("/roll stat:Zinc character:Kell label:Stir their rage", user="player1")
    assert named.message is not None, named.content
    assert "Focused Emotion 1" in card_field(named.message, "Pool")
    other = await bot_env.slash("/roll stat:Zinc character:Kell label:Stir their grief", user="player1")
    assert other.message is not None, other.content
    assert "Focused Emotion" not in card_field(other.message, "Pool")
