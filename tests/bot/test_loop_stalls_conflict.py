"""A crowded Conflict run in its own thread, and the roll, request and odds cards at their widest,
hold the loop under 50 ms (as ``tests/bot/test_loop_stalls.py`` holds every other input): the
board card is redrawn with 25 portraits and the longest names on every move."""

import json

from bot.render.portrait_worker import reencode
from bot.render.portraits import MEDIA_TYPE
from rules.character import CharacterKind, make_character
from rules.character.limits import BURDEN_NAME_MAX, NAME_MAX
from testbed.bot_env import BotEnv
from testbed.stalls import Stall, StallMeter, answered, fighter_names, portrait_images, widest
from tests.bot.test_loop_stalls import within, worst


async def test_a_crowded_conflict_in_a_thread_and_the_widest_cards_hold_the_loop_under_50_ms(
    bot_env: BotEnv,
) -> None:
    """25 fighters named at the longest in wide characters, each with a portrait on the board
    card (redrawn on every move), in a Conflict run in its own thread; and the roll, request
    and odds cards with their labels at their longest."""
    env = bot_env
    env.bot.settings.costly_per_minute = 0
    env.bot.conflicts.boards.public_url = "https://mab.example"
    names = await crowd(env)
    found: dict[str, Stall] = {}
    start = f'/conflict start kind:physical stakes:"{widest(200)}"'
    with StallMeter().measuring() as meter:
        await env.slash("/roll dice:2")  # warm up: a first call's one-time costs
        act = env.slash("/setup conflict-threads setting:on")
        found["/setup conflict-threads"] = await answered(env, meter, act, "thread of its own")
        found["/conflict start (a thread)"] = await answered(env, meter, env.slash(start), "begins in")
        [thread] = [c for c in env.world.guild.channels if c.parent_id == env.world.guild.channels[0].id]
        env.harness.channel = thread
        for n, name in enumerate(names):
            act = env.slash(f'/conflict add character:"{name}"')
            found[f"/conflict add, fighter {n + 1}"] = await answered(env, meter, act)
        found["/conflict begin"] = await answered(env, meter, env.slash("/conflict begin"))
        board_id = await env.storage.boards.get(env.guild_id, thread.id)
        assert board_id is not None
        board = json.dumps(env.harness.fake.messages[board_id], ensure_ascii=False)
        assert all(name in board for name in names), "every fighter is on the board card"
        for name in (names[0], names[-1]):
            act = env.slash(f'/conflict adjust who:"{name}" dice:1 reason:"{widest(100)}"')
            found[f"/conflict adjust {name[:2]}"] = await answered(env, meter, act)
        found["/conflict end"] = await answered(env, meter, env.slash("/conflict end"))
        env.harness.channel = env.world.guild.channels[0]
        for what, line, user in cards(names):
            found[what] = await answered(env, meter, env.slash(line, user))
    print(worst(found))
    assert not within(found), within(found)


async def crowd(env: BotEnv) -> list[str]:
    """The most fighters a Conflict holds, Villains with the longest names, three Burdens and a
    portrait each; and a Hero of player1's named as long."""
    names = fighter_names()
    portrait = reencode(portrait_images()["24 Mpx JPEG"])
    narrator = env.user_id("narrator")
    for name in names:
        burdens = [{"name": f"{b}" + widest(BURDEN_NAME_MAX - 1), "severity": "serious"} for b in range(3)]
        sheet = make_character(name=name, kind=CharacterKind.VILLAIN, owner_id=narrator, burdens=burdens)
        stored = await env.storage.characters.create(env.guild_id, sheet)
        await env.storage.portraits.set(env.guild_id, stored.id, portrait, MEDIA_TYPE)
    hero = make_character(
        name="H" + widest(NAME_MAX - 1), kind=CharacterKind.HERO, owner_id=env.user_id("player1")
    )
    stored = await env.storage.characters.create(env.guild_id, hero)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), stored.id)
    return names


def cards(names: list[str]) -> list[tuple[str, str, str]]:
    """(what, command line, user) for the roll, request and odds cards at their longest labels."""
    hero, hint = "H" + widest(NAME_MAX - 1), widest(200)
    request = f'stat:Physique heroes:"{hero}" traits:"{hint}" circumstances:1 circumstances_note:"{hint}"'
    return [
        ("/roll label", f'/roll dice:10 label:"{widest(40)}"', "player1"),
        ("/request roll", f"/request roll {request}", "narrator"),
        (
            "/request contest",
            f'/request contest {request} opponent:"{names[0]}" opponent_stat:Wits',
            "narrator",
        ),
        ("/odds roll", "/odds roll dice:20 difficulty:5 extra:True", "player1"),
        ("/odds contest", "/odds contest acting:20 opposing:20", "player1"),
    ]
