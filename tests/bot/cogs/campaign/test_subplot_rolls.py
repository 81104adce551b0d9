"""``/roll subplot:``: the dice a Destiny's or a Tragedy's stage is worth, given at the roll
(docs/rulings.md §10.2), through the real dispatch."""

from rules.character import CharacterKind, make_character
from rules.character.story import Stage, Story
from testbed.bot_env import BotEnv
from testbed.cards import card_field


async def test_a_destiny_helps_its_heros_roll_and_a_tragedy_those_against_them(bot_env: BotEnv) -> None:
    env = bot_env
    vin = make_character(
        name="Vin",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        attributes={"wits": 3},
        destiny="Free the skaa",
        tragedy="Trusts no one",
        story=Story(destiny=Stage.MIDDLE, tragedy=Stage.END),
    )
    await env.storage.characters.create(env.guild_id, vin)
    helped = await env.slash("/roll stat:Wits character:Vin subplot:destiny", user="player1")
    assert not helped.ephemeral and helped.message is not None
    assert card_field(helped.message, "Pool").startswith("Wits 3 + Vin's Destiny (Middle) = **5**")
    against = await env.slash("/gmroll dice:3 character:Vin subplot:tragedy")
    assert against.message is not None
    assert card_field(against.message, "Pool").startswith("Dice 3 + Vin's Tragedy (End) 3 = **6**")
    wrong = await env.slash("/roll stat:Wits character:Vin subplot:tragedy", user="player1")
    assert wrong.ephemeral and "A Tragedy gives its dice to those against its Hero" in wrong.content
    bare = await env.slash("/roll dice:3 subplot:destiny", user="player1")
    assert bare.ephemeral and "A Destiny helps its own Hero's roll" in bare.content
    done = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    story = Story(destiny=Stage.RESOLVED, tragedy=Stage.END)
    await env.storage.characters.update(
        env.guild_id, done, done.character.model_copy(update={"story": story})
    )
    spent = await env.slash("/roll stat:Wits character:Vin subplot:destiny", user="player1")
    assert spent.ephemeral and "Vin's Destiny is Fulfilled: it gives no dice" in spent.content
    assert len(await env.storage.rolls.recent(env.guild_id)) == 2  # refusals log nothing
