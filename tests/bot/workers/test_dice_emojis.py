"""Dice faces as the app's own emojis through the real dispatch (``bot.workers.emojis``): uploaded
once when the bot starts, never again after a restart, a name another process took first taken
from Discord rather than made twice, and written on roll cards, the Conflict's replies under the
board and the recap, with plain text for a face Discord refused."""

import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.render.cards import COMPONENT_LIMIT, TEXT_LIMIT
from bot.render.dice import FACES, faces_in_use
from bot.workers import emojis
from fake_discord.layout import texts, walk
from fake_discord.payloads import JSON
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, refused, running_bot_env, table_world
from testbed.cards import card_field, card_text

EMOJI = re.compile(r"<:(mab1_d[1-6](?:_\w+)?):(\d+)>")
CREATE = re.compile(r"^POST /applications/\d+/emojis$")


@pytest.fixture
async def dice_env(tmp_path: Path) -> AsyncIterator[BotEnv]:
    """``bot_env`` writing dice as the app's emojis, as on Discord by default."""
    async with running_bot_env(tmp_path / "bot.sqlite3", table_world(), dice_emojis=True) as env:
        yield env


def uploads(env: BotEnv) -> int:
    return sum(1 for request in env.harness.fake.requests if CREATE.match(request))


def names(env: BotEnv) -> list[str]:
    return sorted(str(e["name"]) for e in env.harness.fake.app_emojis.values())


def written(text: str) -> list[str]:
    return [found[1] for found in EMOJI.finditer(text)]


def rolled(env: BotEnv, text: str) -> None:
    """Every emoji ``text`` writes is one the app has, by name and id."""
    have = {(str(e["name"]), str(e["id"])) for e in env.harness.fake.app_emojis.values()}
    for found in EMOJI.finditer(text):
        assert (found[1], found[2]) in have, found[0]


async def test_the_faces_are_uploaded_once_and_not_again_after_a_restart(dice_env: BotEnv) -> None:
    env = dice_env
    assert names(env) == sorted(face.emoji_name for face in FACES)
    assert uploads(env) == len(FACES) == 12
    made = dict(env.harness.fake.app_emojis)
    assert all(image.startswith(b"\x89PNG") for image in env.harness.fake.emoji_images.values())
    await env.restart()
    await env.restart()
    assert uploads(env) == len(FACES)  # nothing uploaded again
    assert env.harness.fake.app_emojis == made
    reply = await env.slash("/roll dice:6 label:Leap", user="player1")
    assert reply.message is not None, reply.text
    dice = card_field(reply.message, "Dice")
    assert len(written(dice)) == 6 and "✦" not in dice, dice
    rolled(env, dice)


async def test_faces_missing_are_made_and_those_there_kept(dice_env: BotEnv) -> None:
    env = dice_env
    fake = env.harness.fake
    gone = next(i for i, e in fake.app_emojis.items() if e["name"] == "mab1_d6_nudge")
    kept = {i: e for i, e in fake.app_emojis.items() if i != gone}
    del fake.app_emojis[gone]  # deleted in the Developer Portal, say
    await env.restart()
    assert uploads(env) == len(FACES) + 1
    assert names(env) == sorted(face.emoji_name for face in FACES)
    assert all(fake.app_emojis[i] == e for i, e in kept.items())


async def test_a_face_another_process_made_first_is_taken_not_made_twice(
    dice_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes starting together both list no faces, and both create them: Discord keeps
    the first of each name and refuses the other, which lists again and takes the one made."""
    env = dice_env
    fake = env.harness.fake
    made = {str(e["name"]): e for e in fake.app_emojis.values()}
    fake.app_emojis.clear()
    bot = env.bot
    listing = bot.fetch_application_emojis
    first = True

    async def stale_list() -> list[discord.Emoji]:
        """The first list is the one taken before the other process uploaded the faces."""
        nonlocal first
        if first:
            first = False
            fake.app_emojis.update({int(e["id"]): e for e in made.values()})  # the other process
            return []
        return await listing()

    monkeypatch.setattr(bot, "fetch_application_emojis", stale_list)
    faces = await emojis.dice_faces(bot)
    assert len(fake.app_emojis) == len(FACES)  # none made twice
    assert {face.emoji_name: faces.write(face) for face in FACES} == {
        name: f"<:{name}:{e['id']}>" for name, e in made.items()
    }
    assert env.harness.violations == []  # a race lost is no mistake of the bot's


async def test_a_face_discord_refuses_is_written_as_text(
    dice_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    env = dice_env
    fake = env.harness.fake
    gone = next(i for i, e in fake.app_emojis.items() if e["name"] == "mab1_d1")
    del fake.app_emojis[gone]
    fake.inject_fault("POST", r"^/applications/\d+/emojis$", 403, times=1)
    await env.restart()
    assert "mab1_d1" not in names(env) and len(names(env)) == len(FACES) - 1
    faces = faces_in_use()
    assert faces.write(FACES[0]) == "1" and faces.write(FACES[1]).startswith("<:mab1_d2:")
    assert "Discord refused the dice face mab1_d1" in caplog.text


async def test_the_board_and_the_recap_show_the_faces(dice_env: BotEnv) -> None:
    env = dice_env
    await env.slash('/session start title:"The Keep"')
    await env.play(DUEL)
    attacked = await env.slash(THUG_ATTACKS[1], user=THUG_ATTACKS[0])
    assert not refused(attacked), attacked.text
    defended = await env.slash("/defend dice:2", user="player1")
    assert not refused(defended), defended.text
    said = card_text(defended.messages[-1]) if defended.messages else defended.text
    assert "**Thug** rolls" in said and len(written(said)) >= 5 + 2, said  # both sides' dice
    rolled(env, said)
    await env.slash("/roll dice:4 label:Climb", user="player1")
    asked = await env.slash("/session end")
    assert asked.message is not None, asked.text  # the fight goes on: asked to confirm
    await env.harness.click("End the session anyway", message=asked.message, user="narrator")
    recap = next(m for m in env.harness.fake.messages.values() if "**Rolls**" in card_text(m))
    text = card_text(recap)
    assert "Best: " in text and written(text), text
    rolled(env, text)


def size(message: JSON) -> tuple[int, int]:
    """A layout message's characters of text and its components, as Discord counts them."""
    components = message.get("components") or []
    return sum(len(t) for t in texts(components)), sum(1 for _ in walk(components))


LONGEST_LABEL = "L" * 40


async def test_a_pool_of_ten_in_emojis_stays_within_discords_limits(dice_env: BotEnv) -> None:
    """Ten faces as emojis are some 350 characters where text is 20 to 30; with the longest label
    and both sides of a Contest of ten dice, the card stays well inside a message's 4,000
    characters and 40 components (``bot.render.cards``)."""
    env = dice_env
    one = await env.slash(f"/roll dice:10 difficulty:5 label:{LONGEST_LABEL}", user="player1")
    two = await env.slash("/contest actor_dice:10 opponent_dice:10 difficulty:5", user="player1")
    for reply in (one, two):
        assert reply.message is not None, reply.text
        assert len(written(card_text(reply.message))) == 10 * (1 if reply is one else 2)
        text, parts = size(reply.message)
        print(f"pool of 10 in emojis: {text} characters, {parts} components")
        assert text <= TEXT_LIMIT and parts <= COMPONENT_LIMIT
    assert env.harness.violations == []
