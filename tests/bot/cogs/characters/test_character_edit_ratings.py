"""``/edit`` through the real dispatch refuses what §9.1 and §9.4 forbid (docs/rulings.md):
Allomancy and Mimicry at 1, and a Stunt on a Feruchemy Power, privately, changing nothing."""

import pytest

from testbed.bot_env import BotEnv
from tests.bot.cogs.characters.test_character_edit import make_full, stored

REFUSALS = [
    ("/edit power-add type:Allomancy power:Tin rating:1 name:Vin", "Allomancy Tin is rated 2 to 10, not 1"),
    ("/edit power-add type:kandra power:Mimicry rating:1 name:Vin", "Kandra Mimicry is rated 2 to 10, not 1"),
    ('/edit power-rating power:"Steel (Allomancy)" rating:1 name:Vin', "Allomancy Steel is rated 2 to 10"),
    ('/edit stunt-add power:"Steel (Feruchemy)" stunt:"Iron skin" name:Vin', "Feruchemy has no Stunts"),
    ('/edit stunt-add power:"Steel (Feruchemy)" stunt:"Long Range" name:Vin', "Feruchemy has no Stunts"),
]


@pytest.mark.parametrize(("line", "message"), REFUSALS)
async def test_refused_privately_and_nothing_changes(bot_env: BotEnv, line: str, message: str) -> None:
    before = await make_full(bot_env)
    reply = await bot_env.slash(line, user="player1")
    assert reply.ephemeral and message in reply.content, reply.content
    after = await stored(bot_env)
    assert after.character == before.character and after.version == before.version


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("/edit power-add type:Feruchemy power:Tin rating:1 name:Vin", ("Tin", 1)),
        ('/edit power-rating power:"Steel (Feruchemy)" rating:1 name:Vin', ("Steel", 1)),
        ('/edit power-rating power:"Steel (Allomancy)" rating:2 name:Vin', ("Steel", 2)),
    ],
)
async def test_feruchemy_may_be_1_and_allomancy_2(bot_env: BotEnv, line: str, found: tuple[str, int]) -> None:
    await make_full(bot_env)
    reply = await bot_env.slash(line, user="player1")
    assert reply.ephemeral and "rated" not in reply.content, reply.content
    assert found in [(p.name, p.rating) for p in (await stored(bot_env)).character.powers]
