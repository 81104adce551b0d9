"""A mistyped character name against a full roster holds the loop under 50 ms (as
``tests/bot/test_loop_stalls.py`` holds every other input): the "did you mean" compares the typed
name with the keys storage keeps beside each of the server's 2,000 names, normalizing none of
them again (``storage.characters.known_names``, ``rules.naming.KnownNames``)."""

import random
import string

from rules.character import CharacterKind, make_character
from rules.character.limits import NAME_MAX
from rules.naming import name_key, search_key
from testbed.bot_env import BotEnv
from testbed.stalls import Stall, StallMeter, answered
from tests.bot.test_loop_stalls import within, worst

ALPHABET = string.ascii_letters + "éüß "


async def test_a_mistyped_name_against_a_full_roster_holds_the_loop_under_50_ms(bot_env: BotEnv) -> None:
    env = bot_env
    env.bot.settings.costly_per_minute = 0
    rng = random.Random(39)
    roster = env.bot.settings.sheet_limits.per_server
    names = [f"{n:04d}" + "".join(rng.choice(ALPHABET) for _ in range(NAME_MAX - 4)) for n in range(roster)]
    async with env.storage.transaction() as tx:
        for number, name in enumerate(names):
            villain = number % 2
            owner = env.user_id("narrator" if villain else "player1")
            kind = CharacterKind.VILLAIN if villain else CharacterKind.HERO
            await tx.characters.create(env.guild_id, make_character(name=name, kind=kind, owner_id=owner))
    found: dict[str, Stall] = {}
    near = names[7][:-2] + "qq"
    far = "".join(rng.choice(ALPHABET) for _ in range(NAME_MAX)).strip()
    with StallMeter().measuring() as meter:
        for user in ("narrator", "player1"):
            for what, typed in (("near", near), ("far", far)):
                name_key.cache_clear()  # as after a restart: no name's keys cached
                search_key.cache_clear()
                act = env.slash(f'/character show name:"{typed}"', user=user)
                found[f"{what} ({user})"] = await answered(env, meter, act, "no character named")
    print(worst(found))
    assert not within(found), within(found)
