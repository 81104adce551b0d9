"""Running a Conflict in a channel: the board, the prompts, the end, and Discord's hiccups."""

import copy

import pytest

from fake_discord.payloads import JSON
from rules.character import CharacterKind, make_character
from storage.conflict_moves import current_conflict
from testbed.bot_env import ALLEY_BRAWL, BotEnv, is_board
from testbed.cards import card_text


@pytest.fixture
async def duel(bot_env: BotEnv) -> BotEnv:
    """Vin (player1's Hero) against a Thug (the Narrator's Villain), both declared to attack."""
    env = bot_env
    guild = env.guild_id
    vin = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"), attributes={"wits": 4}
    )
    thug = make_character(
        name="Thug", kind=CharacterKind.VILLAIN, owner_id=env.user_id("narrator"), attributes={"physique": 5}
    )
    stored = await env.storage.characters.create(guild, vin)
    await env.storage.characters.create(guild, thug)
    await env.storage.active.set(guild, env.user_id("player1"), stored.id)
    await env.play(ALLEY_BRAWL)
    return env


def boards(env: BotEnv) -> list[JSON]:
    channel = str(env.world.guild.channels[0].id)
    return [m for m in env.harness.fake.messages.values() if m["channel_id"] == channel and is_board(m)]


async def settle_boards(env: BotEnv) -> None:
    await env.bot.conflicts.boards.idle()


async def test_one_board_is_edited_not_reposted(duel: BotEnv) -> None:
    env = duel
    await settle_boards(env)
    [board] = boards(env)
    assert "Thug" in card_text(board) and "Vin" in card_text(board)
    await env.slash("/act dice:5", user="narrator")
    await env.harness.click("Don't defend", user="player1")
    await settle_boards(env)
    [again] = boards(env)
    assert again["id"] == board["id"] and again.get("edited_timestamp")
    assert await env.storage.boards.get(env.guild_id, env.world.guild.channels[0].id) == int(board["id"])


async def test_status_reposts_the_board(duel: BotEnv) -> None:
    env = duel
    await settle_boards(env)
    [old] = boards(env)
    reply = await env.slash("/conflict status", user="player1")
    assert reply.ephemeral
    await settle_boards(env)
    ids = [m["id"] for m in boards(env)]
    assert len(ids) == 1 and ids[-1] != old["id"]  # replaced: the old board is deleted (issue 17, 3)
    assert await env.storage.boards.get(env.guild_id, env.world.guild.channels[0].id) == int(ids[-1])


async def test_narrator_waits_before_answering_for_a_player(duel: BotEnv) -> None:
    env = duel
    prompt = await env.slash("/act dice:5", user="narrator")
    assert prompt.content.startswith(f"<@{env.user_id('player1')}>")
    early = await env.harness.click("Don't defend", user="narrator")
    assert early.ephemeral and "Give the player a moment" in early.content
    env.bot.conflicts.grace.seconds = 0
    later = await env.harness.click("Don't defend", user="narrator")
    assert not later.ephemeral


async def test_end_shows_the_summary_and_frees_the_channel(duel: BotEnv) -> None:
    env = duel
    again = await env.slash('/conflict start kind:social stakes:"Another"')
    assert again.ephemeral and "already" in again.content.lower()
    ended = await env.slash("/conflict end")
    assert not ended.ephemeral and len(ended.embeds) == 2
    assert sum(len(str(e)) for e in ended.embeds) < 6000
    channel = env.world.guild.channels[0].id
    assert await current_conflict(env.storage, env.guild_id, channel) is None
    await settle_boards(env)
    assert await env.storage.boards.get(env.guild_id, channel) is None
    fresh = await env.slash('/conflict start kind:mental stakes:"A battle of wills"')
    assert not fresh.ephemeral


async def test_commands_without_a_conflict_explain_themselves(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/act dice:3", user="player1")
    assert reply.ephemeral and "Conflict" in reply.content


async def test_rate_limited_board_edits_back_off_and_the_round_goes_on(duel: BotEnv) -> None:
    env = duel
    await settle_boards(env)
    [board] = boards(env)
    env.harness.fake.inject_fault(
        "PATCH", rf"/channels/\d+/messages/{board['id']}$", 429, times=3, retry_after=0.05
    )
    acted = await env.slash("/act dice:5", user="narrator")
    assert not acted.ephemeral
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None and conflict.pending is not None
    await settle_boards(env)
    [after] = boards(env)
    assert after["id"] == board["id"] and "In progress" in card_text(after)


async def test_a_button_from_an_ended_conflict_cannot_answer_the_next(duel: BotEnv) -> None:
    env = duel
    env.bot.conflicts.grace.seconds = 0
    await env.slash("/act dice:5", user="narrator")
    old_prompt = copy.deepcopy(env.harness.last_message(env.harness.member("player1")))
    await env.slash("/conflict end")
    for user, line in [
        ("narrator", '/conflict start kind:physical stakes:"Round two"'),
        ("player1", "/conflict join"),
        ("narrator", "/conflict add character:Thug"),
        ("narrator", "/conflict begin"),
        ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
        ("player1", "/declare action:attack target:Thug stat:Physique"),
        ("narrator", "/act dice:5"),
    ]:
        assert not (await env.slash(line, user=user)).ephemeral
    before = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert before is not None and before.pending is not None and before.pending.id == 1  # ids restart
    stale = await env.harness.click("Don't defend", message=old_prompt, user="player1")
    assert stale.ephemeral and "Conflict that has ended" in stale.content
    assert await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id) == before
