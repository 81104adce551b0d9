"""Two processes draw one Conflict board: it ends on the saved state, whatever order edits land in.

During a redeploy (or in a cluster) moves on one Conflict may be handled by two processes,
each redrawing the board from what it saved. Their edits can reach Discord out of order:
here this bot's edit of an older state is held back (a slow request) until "the other
process" (its own board keeper, ``Boards``, with nothing of this one's memory, on the same
database and Discord) has saved a newer move and drawn it. The older edit then lands last;
the board must still end on the saved Conflict.
"""

import asyncio
from typing import Any

import pytest

from bot.cogs.conflict.transaction import run_transition
from bot.workers.board import Boards
from bot.workers.pacing import Pacer
from rules.conflict import AdjustDice
from storage.conflict_moves import current_conflict
from testbed.bot_env import DUEL, BotEnv, board_is_correct, board_message, boards, shown


async def test_an_older_board_edit_landing_last_is_drawn_again(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = bot_env
    await env.play(DUEL)
    mine = boards(env)
    await mine.idle()
    before = shown(await board_message(env))
    channel_id = env.world.guild.channels[0].id
    other = Boards(env.bot, env.storage, Pacer(), buttons=mine.buttons)  # the other process's board keeper

    sent, release = asyncio.Event(), asyncio.Event()
    edit = mine._edit

    async def slow_edit(*args: Any) -> bool:
        sent.set()
        await release.wait()
        return await edit(*args)

    monkeypatch.setattr(mine, "_edit", slow_edit)
    adjusted = await env.slash("/conflict adjust who:Vin dice:1", user="narrator")
    assert not adjusted.ephemeral, adjusted.text
    await asyncio.wait_for(sent.wait(), 5)  # this process's edit is on its way, slowly

    conflict = await current_conflict(env.storage, env.guild_id, channel_id)
    assert conflict is not None
    vin = next(p for p in conflict.participants if p.name == "Vin")
    await run_transition(env.storage, env.guild_id, channel_id, AdjustDice(participant=vin.id, delta=1))
    await other.update(env.guild_id, channel_id)  # the other process draws its newer move
    assert await board_is_correct(env) and shown(await board_message(env)) != before

    release.set()  # the older edit lands last
    await mine.idle()
    assert await board_is_correct(env)
    saved = await current_conflict(env.storage, env.guild_id, channel_id)
    assert saved is not None and saved.participant(vin.id).round.action_dice == (
        conflict.participant(vin.id).round.action_dice + 1
    )
