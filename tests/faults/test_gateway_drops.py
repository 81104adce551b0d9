"""The gateway connection drops; discord.py reconnects and the bot keeps answering.

The fake Discord closes the bot's websocket the way Discord does (``fake_discord/gateway.py``):

* resumable: close code 4000, or op 7 RECONNECT. discord.py reconnects to READY's
  ``resume_gateway_url`` and sends RESUME; the fake replays what the session missed (an
  interaction sent while the bot was away included) and says RESUMED. Nothing is lost and
  nothing is done twice.
* not resumable: close code 4009 (session timed out), after which the fake refuses the RESUME
  with INVALID SESSION, or op 9 on a live connection. discord.py IDENTIFIES again and gets a new
  session. Gateway events of the gap are gone, as on Discord, but nothing the bot had saved is,
  and its buttons (persistent dynamic items) keep working on the new session. discord.py waits
  5 s before any IDENTIFY but the first (``Client.before_identify_hook``); the tests keep that
  real delay, so each of them takes about 5 s.
"""

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from storage.sql import fetch_all
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv
from testbed.cards import is_card

pytestmark = pytest.mark.slow
JSON = dict[str, Any]


async def labels(env: BotEnv) -> list[str]:
    rows = await fetch_all(env.storage.database.reader, "SELECT label FROM roll_log ORDER BY id")
    return [row["label"] for row in rows]


REIDENTIFY_WITHIN = 10.0
"""discord.py's own 5 s pause before a second IDENTIFY, plus headroom."""


async def eventually(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def roll(env: BotEnv, label: str, user: str = "player1") -> None:
    reply = await env.slash(f"/roll dice:3 label:{label}", user=user)
    assert reply.response is not None and not reply.ephemeral and is_card(reply.message), reply.text


async def test_a_resumable_drop_resumes_and_replays_what_was_missed(bot_env: BotEnv) -> None:
    env = bot_env
    gateway = env.harness.fake.gateway
    session = gateway.session_id
    await roll(env, "before")
    # No HELLO for 0.3 s: the next interaction can only reach the bot through RESUME's replay.
    await gateway.drop(4000, outage=0.3)
    assert not gateway.connected
    await roll(env, "during")
    await roll(env, "after")
    assert gateway.session_id == session
    assert gateway.log.count("identify") == 1
    assert "connect /gateway-resume" in gateway.log  # READY's resume_gateway_url, not /gateway
    replayed = [entry for entry in gateway.log if entry.startswith("resume ")]
    assert replayed and int(replayed[-1].split()[1]) >= 1
    assert await labels(env) == ["before", "during", "after"]  # each exactly once


async def test_op_7_reconnect_resumes(bot_env: BotEnv) -> None:
    env = bot_env
    gateway = env.harness.fake.gateway
    await roll(env, "before")
    await gateway.request_reconnect()
    await eventually(lambda: any(e.startswith("resume ") for e in gateway.log))
    await roll(env, "after")
    assert gateway.log.count("identify") == 1
    assert await labels(env) == ["before", "after"]


async def duel_waiting_for_defence(env: BotEnv) -> JSON:
    """Vin (player1) against the Narrator's Thug, the Thug's attack waiting for Vin's defence."""
    await env.play([*DUEL, THUG_ATTACKS])
    prompt = env.harness.last_message()
    assert prompt is not None and prompt.get("components")
    return prompt


async def test_a_timed_out_session_is_identified_again_and_nothing_saved_is_lost(bot_env: BotEnv) -> None:
    env = bot_env
    gateway = env.harness.fake.gateway
    prompt = await duel_waiting_for_defence(env)
    await roll(env, "before")
    channel = env.world.guild.channels[0].id
    conflict = await env.storage.conflicts.get(env.guild_id, channel)
    old_session = gateway.session_id

    await gateway.drop(4009, resumable=False)
    await eventually(lambda: gateway.connected and gateway.log.count("identify") == 2, REIDENTIFY_WITHIN)
    assert "resume refused" in gateway.log  # discord.py tried RESUME first, as it always does
    assert gateway.session_id != old_session

    await roll(env, "after")
    assert await labels(env) == ["before", "after"]
    assert await env.storage.conflicts.get(env.guild_id, channel) == conflict
    clicked = await env.harness.click("Don't defend", message=prompt, user="player1")
    assert not clicked.ephemeral, clicked.text
    after = await env.storage.conflicts.get(env.guild_id, channel)
    assert after is not None and conflict is not None and after.version == conflict.version + 1


async def test_invalid_session_on_a_live_connection_reidentifies(bot_env: BotEnv) -> None:
    env = bot_env
    gateway = env.harness.fake.gateway
    await roll(env, "before")
    await gateway.invalidate_session(resumable=False)
    await eventually(lambda: gateway.connected and gateway.log.count("identify") == 2, REIDENTIFY_WITHIN)
    assert not any(e.startswith("resume") for e in gateway.log)
    await roll(env, "after")
    assert await labels(env) == ["before", "after"]


async def test_a_resumable_invalid_session_resumes(bot_env: BotEnv) -> None:
    """Op 9 with ``d: true``: discord.py closes and RESUMEs the same session."""
    env = bot_env
    gateway = env.harness.fake.gateway
    await gateway.invalidate_session(resumable=True)
    await eventually(lambda: gateway.connected and any(e.startswith("resume ") for e in gateway.log))
    await roll(env, "after")
    assert gateway.log.count("identify") == 1
