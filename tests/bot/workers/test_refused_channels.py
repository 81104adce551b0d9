"""A channel where the bot lost access: told once, knocked on at most once, and caught up once
access is back (bot.workers.refusals, through the real discord.py dispatch).

Discord bans an address after 10,000 refused requests (401, 403, 429) in ten minutes, so a
channel that refuses the bot must not be retried again and again, nor at each start. The fake
Discord refuses as Discord does when a moderator takes View Channel away (403 Missing Access),
tells the bot with CHANNEL_UPDATE, and carries the bot's permissions in each interaction; it
counts every refused request (``fake.invalid``).
"""

import asyncio

from bot.workers.refusals import CANNOT_POST
from fake_discord.channel_access import deny_bot, set_bot_access
from fake_discord.permissions import SEND_MESSAGES
from storage import MessageKind, NewMessage
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, board_is_correct, board_message

CALLBACK = r"/interactions/\d+/[^/]+/callback"
QUICK_RETRIES = (0.05, 0.05, 0.05)
"""The workers' back-off, short enough that a retry would surely have happened in the test."""


async def marked(env: BotEnv) -> set[tuple[int, int]]:
    return {(row.guild_id, row.channel_id) for row in await env.storage.refused.all()}


def owed() -> NewMessage:
    """A message the table is owed (queued by a move whose answer failed, say)."""
    return NewMessage(
        kind=MessageKind.NOTICE, payload={"content": "Owed to the table", "allowed_mentions": {"parse": []}}
    )


def lines(env: BotEnv) -> list[str]:
    return [
        str(m.get("content")) for m in env.harness.fake.messages.values() if m.get("content") == CANNOT_POST
    ]


async def test_a_channel_the_bot_lost_is_told_once_left_alone_across_a_restart_and_caught_up_when_back(
    bot_env: BotEnv,
) -> None:
    env, fake = bot_env, bot_env.harness.fake
    await env.play(DUEL)
    await env.bot.conflicts.idle()
    key = (env.guild_id, env.harness.channel.id)
    board = await board_message(env)
    await set_bot_access(fake, key[1])  # a moderator takes View Channel away
    before = len(fake.invalid)

    attacked = await env.slash(THUG_ATTACKS[1], user=THUG_ATTACKS[0])
    assert attacked.response is not None and not attacked.ephemeral, attacked.text
    assert [f["content"] for f in attacked.followups if f.get("content")] == [CANNOT_POST]
    undefended = await env.harness.click("Don't defend", user="player1")
    assert undefended.response is not None and not undefended.errors
    await env.bot.conflicts.idle()
    assert lines(env) == [CANNOT_POST]  # once, not at every move
    assert fake.invalid.since(before) == []  # the interaction said so: nothing was even tried
    assert fake.messages[int(board["id"])] == board and await marked(env) == {key}

    await env.restart()
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    await env.bot.conflicts.idle()
    assert fake.invalid.since(before) == []  # the next start remembers

    await set_bot_access(fake, key[1], denied=0)  # access given back
    assert not await board_is_correct(env)
    adjusted = await env.slash("/conflict adjust who:Thug dice:1")
    assert adjusted.response is not None and not any(
        f.get("content") == CANNOT_POST for f in adjusted.followups
    )
    await env.bot.conflicts.idle()
    assert await board_is_correct(env) and await marked(env) == set()


async def test_a_start_asks_nothing_where_the_cache_shows_the_bot_lost_access(bot_env: BotEnv) -> None:
    """The bot lost access while it was away: the server's channels as Discord sends them at
    connect show it, so catching up asks nothing there; a queued message waits, untried, and is
    posted once the bot may post again."""
    env, fake = bot_env, bot_env.harness.fake
    await env.play(DUEL)
    await env.bot.conflicts.idle()
    channel = env.harness.channel.id
    conflict = await env.storage.conflicts.get(env.guild_id, channel)
    assert conflict is not None
    [row] = await env.storage.outbox.add(env.guild_id, channel, conflict.id, [owed()])
    deny_bot(env.world, channel)  # while the bot is away
    before = len(fake.invalid)
    await env.restart()
    env.bot.conflicts.outbox.retry_delays = QUICK_RETRIES
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    await asyncio.sleep(0.3)
    assert fake.invalid.since(before) == [] and await marked(env) == {(env.guild_id, channel)}
    waiting = await env.storage.outbox.get(row.id)
    assert waiting is not None and not waiting.settled and waiting.attempted_at is None

    await set_bot_access(fake, channel, denied=0)
    await env.slash("/conflict adjust who:Thug dice:1")
    await env.bot.conflicts.idle()
    shown = await env.storage.outbox.get(row.id)
    assert shown is not None and shown.message_id is not None and shown.failure is None
    assert await board_is_correct(env) and fake.invalid.since(before) == []


async def test_a_refusal_the_cache_did_not_foresee_is_asked_once_and_remembered_across_restarts(
    bot_env: BotEnv,
) -> None:
    """Discord refuses the bot in a channel for a reason its cache does not show: the first start
    is refused once and remembers it; the next start asks nothing."""
    env, fake = bot_env, bot_env.harness.fake
    await env.play(DUEL)
    await env.bot.conflicts.idle()
    channel = env.harness.channel.id
    fake.inject_fault("*", rf"/channels/{channel}(/|$)", 403, times=100)
    before = len(fake.invalid)
    await env.restart()
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    await env.bot.conflicts.idle()
    [(_, status, request)] = fake.invalid.since(before)
    assert status == 403 and str(channel) in request, request
    assert await marked(env) == {(env.guild_id, channel)}

    await env.restart()
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    await env.bot.conflicts.idle()
    assert len(fake.invalid.since(before)) == 1

    fake.faults[-1].remaining = 0  # whatever refused the bot is over; a move there says so
    await env.slash("/conflict adjust who:Thug dice:1")
    await env.bot.conflicts.idle()
    assert await board_is_correct(env) and await marked(env) == set()


async def test_a_queued_message_refused_is_not_retried(bot_env: BotEnv) -> None:
    """A reply that failed goes to the channel; Discord refuses the post (403) although the
    interaction's permissions looked right: one refused request, the row kept, no back-off loop."""
    env, fake = bot_env, bot_env.harness.fake
    await env.play(DUEL)
    env.bot.conflicts.outbox.retry_delays = QUICK_RETRIES
    channel = env.harness.channel.id
    before = len(fake.invalid)
    fake.inject_fault("POST", CALLBACK, 404)  # the answer fails: the outbox posts it instead
    fake.inject_fault("POST", rf"/channels/{channel}/messages$", 403, times=10)
    attacked = await env.slash(THUG_ATTACKS[1], user=THUG_ATTACKS[0])
    assert attacked.response is None
    await env.bot.conflicts.idle()
    await asyncio.sleep(0.3)
    assert [status for _, status, _ in fake.invalid.since(before)] == [403]
    [waiting] = await env.storage.outbox.waiting(env.guild_id, channel)
    assert waiting.interaction_id == attacked.id

    fake.faults[-1].remaining = 0  # whatever refused the bot is over
    await env.slash("/conflict adjust who:Thug dice:1")
    await env.bot.conflicts.idle()
    assert await env.storage.outbox.waiting(env.guild_id, channel) == []


async def test_conflict_status_where_the_bot_may_not_post_says_why_privately(bot_env: BotEnv) -> None:
    env, fake = bot_env, bot_env.harness.fake
    await env.play(DUEL)
    await set_bot_access(fake, env.harness.channel.id, denied=SEND_MESSAGES)
    before = len(fake.invalid)
    status = await env.slash("/conflict status")
    assert status.ephemeral and status.content == CANNOT_POST, status.text
    await env.bot.conflicts.idle()
    assert fake.invalid.since(before) == []
