"""A move's outcome is shown once: by the interaction reply, or by the outbox when that fails.

Through the real discord.py dispatch against the fake Discord, with the bot's own SQLite file:
the outbox row a move queued is marked delivered with the very message that answered the
interaction; when Discord refuses the answer, the deliverer posts the row to the channel with
its nonce, and a repeat of that post (as after a crash) returns the same message.
"""

from datetime import timedelta
from typing import Any

from storage import MessageKind, OutboxMessage
from storage.sql import to_text, utc_now
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, board_is_correct, boards

JSON = dict[str, Any]
CALLBACK = r"/interactions/\d+/[^/]+/callback"
FOLLOWUP = r"/webhooks/\d+/[^/]+$"


async def rows(env: BotEnv) -> list[OutboxMessage]:
    found = []
    for row_id in range(1, 500):
        row = await env.storage.outbox.get(row_id)
        if row is not None:
            found.append(row)
    return found


def channel_messages(env: BotEnv) -> list[JSON]:
    channel = str(env.world.guild.channels[0].id)
    return [m for m in env.harness.fake.messages.values() if m["channel_id"] == channel]


def showing(env: BotEnv, row: OutboxMessage) -> list[JSON]:
    """The channel's messages that show ``row`` (same embeds)."""
    return [m for m in channel_messages(env) if m["embeds"] and m["embeds"] == row.payload["embeds"]]


async def settled(env: BotEnv) -> None:
    await env.bot.conflicts.idle()


async def test_every_reply_is_its_outbox_row_marked_with_its_message(bot_env: BotEnv) -> None:
    env = bot_env
    replies = await env.play([*DUEL, THUG_ATTACKS])
    clicked = await env.harness.click("Don't defend", user="player1")
    await settled(env)
    queued = await rows(env)
    assert len(queued) == len(DUEL) - 2 + 2  # two sheets made outside Conflicts; the act; the click
    assert all(row.kind is MessageKind.OUTCOME and row.settled and row.failure is None for row in queued)
    answered = [r for r in replies if r.message is not None and not r.ephemeral][-len(queued) + 1 :]
    assert [row.message_id for row in queued[:-1]] == [int(r.message["id"]) for r in answered if r.message]
    assert queued[-1].message_id == int(clicked.followups[0]["id"])
    assert queued[-1].interaction_id == clicked.id
    for row in queued:
        assert len(showing(env, row)) == 1
    # The act's row carries the defence prompt; the click settled it.
    act = queued[-2]
    assert act.action_id is not None and act.payload["components"]
    assert await env.storage.outbox.latest_prompt(act.conflict_id or 0, act.action_id) == act


async def test_a_refused_reply_is_posted_to_the_channel_once(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(DUEL)
    env.harness.fake.inject_fault("POST", CALLBACK, 404)  # Discord refuses the answer
    acted = await env.slash("/act dice:5 who:Thug", user="narrator")
    assert acted.response is None
    await settled(env)
    row = (await rows(env))[-1]
    assert row.settled and row.attempted_at is not None
    [posted] = showing(env, row)
    assert int(posted["id"]) == row.message_id and "interaction_metadata" not in posted
    assert posted["components"], "the defence prompt's buttons come with it"
    clicked = await env.harness.click("Don't defend", message=posted, user="player1")
    assert not clicked.ephemeral, clicked.text
    await settled(env)
    assert await board_is_correct(env)


async def test_a_click_whose_followup_fails_gets_its_outcome_posted(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play([*DUEL, THUG_ATTACKS])
    env.harness.fake.inject_fault("POST", FOLLOWUP, 404)
    clicked = await env.harness.click("Don't defend", user="player1")
    assert clicked.response_type == 7 and not clicked.followups  # the prompt lost its buttons...
    await settled(env)
    row = (await rows(env))[-1]
    assert row.interaction_id == clicked.id and row.settled
    assert len(showing(env, row)) == 1  # ...and the outcome came from the outbox, once


async def test_posting_a_row_again_returns_the_same_message(bot_env: BotEnv) -> None:
    """What a crash between the post and its mark leads to: the nonce makes the repeat harmless."""
    env = bot_env
    await env.play(DUEL)
    env.harness.fake.inject_fault("POST", CALLBACK, 404)
    await env.slash("/act dice:5 who:Thug", user="narrator")
    await settled(env)
    row = (await rows(env))[-1]
    async with env.storage.database.transaction() as conn:  # forget the mark, as a crash would
        await conn.execute("UPDATE outbox SET delivered_at = NULL, message_id = NULL WHERE id = ?", (row.id,))
    env.bot.conflicts.outbox.wake(row.guild_id, row.channel_id)
    await settled(env)
    again = await env.storage.outbox.get(row.id)
    assert again is not None and again.message_id == row.message_id
    assert len(showing(env, row)) == 1
    assert boards(env) is env.bot.conflicts.boards


async def forget_the_mark(env: BotEnv, row: OutboxMessage, *, posted_ago: timedelta) -> None:
    """The row was posted but its message id never saved (a crash), ``posted_ago``."""
    async with env.storage.database.transaction() as conn:
        await conn.execute(
            "UPDATE outbox SET delivered_at = NULL, message_id = NULL, attempted_at = ? WHERE id = ?",
            (to_text(utc_now() - posted_ago), row.id),
        )


async def refused_act(env: BotEnv) -> OutboxMessage:
    await env.play(DUEL)
    env.harness.fake.inject_fault("POST", CALLBACK, 404)
    await env.slash("/act dice:5 who:Thug", user="narrator")
    await settled(env)
    row = (await rows(env))[-1]
    assert row.message_id is not None
    return row


async def test_a_post_older_than_discords_nonce_memory_is_found_by_its_text(bot_env: BotEnv) -> None:
    env = bot_env
    row = await refused_act(env)
    await forget_the_mark(env, row, posted_ago=timedelta(minutes=10))
    env.harness.fake.limits.nonce_window = 0.0  # Discord has forgotten the nonce by now
    env.bot.conflicts.outbox.wake(row.guild_id, row.channel_id)
    await settled(env)
    again = await env.storage.outbox.get(row.id)
    assert again is not None and again.message_id == row.message_id
    assert len(showing(env, row)) == 1


async def test_a_post_a_moderator_deleted_is_not_posted_again(bot_env: BotEnv) -> None:
    env = bot_env
    row = await refused_act(env)
    await forget_the_mark(env, row, posted_ago=timedelta(seconds=5))
    [posted] = showing(env, row)
    await env.harness.fake.delete_message(posted)
    env.bot.conflicts.outbox.wake(row.guild_id, row.channel_id)
    await settled(env)
    again = await env.storage.outbox.get(row.id)
    assert again is not None and again.settled and again.message_id is None and again.failure
    assert showing(env, row) == []
