"""A rioting rolled as a Conflict action through the real dispatch (docs/rulings.md §9.3): a
success holds the emotion on the Rioter's sheet in the move's one write, named in the roll's
line, and it adds its dice to their Charm; a failure says what its Complications mean."""

from rules.character import CharacterKind
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, make, thug


async def _riot(env: BotEnv, faces: str, difficulty: int = 1) -> str:
    await make(env, "Kell", "player1", ["Zinc"], allomancy={"burning": ["Zinc"]}, kind=CharacterKind.HERO)
    await thug(env, [])
    await env.play([*gathering("player1", "Kell"), ("narrator", "/declare who:Thug action:no-roll")])
    declare = f'/declare action:action target:Thug stat:Zinc label:"Stir his rage" difficulty:{difficulty}'
    declared = await env.slash(declare, user="player1")
    assert not refused(declared), declared.content
    acted = await env.slash("/act dice:5", user="player1")
    assert not refused(acted), acted.content
    rolled = await env.slash(f'/defend dice:0 attacker_faces:"{faces}"', user="narrator")
    assert not refused(rolled), rolled.content
    return str(rolled.messages)


async def test_a_rioting_action_holds_the_emotion_and_says_so(bot_env: BotEnv) -> None:
    said = await _riot(bot_env, "4 4 4 1 2")
    assert "The rioting holds: +" in said
    kell = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Kell")
    hold = kell.character.allomancy.hold
    assert hold is not None and hold.metal == "Zinc" and hold.dice >= 1
    charm = await bot_env.slash("/roll stat:Charm character:Kell", user="player1")
    assert charm.message is not None and f"Rioting {hold.dice}" in str(charm.message)


async def test_a_failed_rioting_action_names_its_complications(bot_env: BotEnv) -> None:
    said = await _riot(bot_env, "1 1 2 3 4", difficulty=3)
    assert "The rioting fails. The target feels their emotions pushed." in said
    kell = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Kell")
    assert kell.character.allomancy.hold is None
