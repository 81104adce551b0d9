"""A handled interaction is freed at once by reference counting, not left to the collector.

discord.py's interaction and the ``response`` it caches refer to each other; so did the guard's
timer. Left so, every interaction waited for a garbage collection, and under load those swept
thousands of objects at a time while the loop answered nothing. ``replies.release`` cuts the
cycles once the handler has ended (the tree's for a command, ``bot.clicks``' for a click). These
tests run commands, autocompletes and clicks through the real
dispatch with the collector paused and keeping what it finds (``DEBUG_SAVEALL``), then look
for interactions among what only a collection could have freed.
"""

import asyncio
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord
import pytest

from testbed.bot_env import BotEnv
from testbed.cards import is_card


@contextmanager
def collector_paused() -> Iterator[list[object]]:
    """No automatic collection inside; on leaving, one collection, whose finds are yielded."""
    found: list[object] = []
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def settled(env: BotEnv) -> None:
    """Until no handler runs any more (the reply reaches the fake before its handler ends)."""
    for _ in range(200):
        if env.bot.admission.in_flight == 0:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)


async def test_handled_commands_autocompletes_and_clicks_leave_no_interaction_to_the_collector(
    vin: BotEnv,
) -> None:
    await vin.slash("/rolls save name:Leap stat:Physique", user="player1")
    with collector_paused() as found:
        for _ in range(3):
            assert is_card((await vin.slash("/roll dice:5 difficulty:2", user="player1")).message)
            assert is_card((await vin.slash("/roll stat:Steel", user="player1")).message)
            shown = await vin.slash("/character show name:Vin", user="player2")
            assert is_card(shown.message)  # the sheet card
            assert (await vin.harness.autocomplete("/character show name:V", user="player2")).choices
            panel = await vin.slash("/rolls panel", user="player1")
            assert is_card((await vin.harness.click("Leap", message=panel.message, user="player1")).message)
        refused = await vin.slash("/character show name:Nobody", user="player2")
        assert refused.ephemeral
        await settled(vin)
    interactions = [item for item in found if isinstance(item, discord.Interaction)]
    assert interactions == []


async def test_no_interaction_starts_a_listener_task_and_a_form_still_reaches_its_cog(
    vin: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py starts a task per ``on_interaction`` listener for every interaction; commands
    reach the tree, clicks ``bot.clicks`` and forms ``bot.forms``, so none is started, and a
    submitted form (still counted, guarded and released) reaches the cog that opened it."""
    started: list[str] = []
    schedule = vin.bot._schedule_event

    def spied(coro: Any, event_name: str, *args: Any, **kwargs: Any) -> asyncio.Task[None]:
        started.append(event_name)
        return schedule(coro, event_name, *args, **kwargs)

    monkeypatch.setattr(vin.bot, "_schedule_event", spied)
    with collector_paused() as found:
        assert is_card((await vin.slash("/roll dice:5", user="player1")).message)
        assert (await vin.harness.autocomplete("/character show name:V", user="player2")).choices
        opened = await vin.slash("/say", user="player1")
        assert opened.modal is not None
        [field] = [c for row in opened.modal["components"] for c in row["components"]]
        submitted = await vin.harness.submit({field["custom_id"]: "Ash falls."}, user="player1")
        assert submitted.ephemeral and "Said as Vin." in submitted.content
        await settled(vin)
    assert "on_interaction" not in started
    assert [item for item in found if isinstance(item, discord.Interaction)] == []
