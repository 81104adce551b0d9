"""Pictures built to be costly, read two at once, stall no other server (docs/benchmarks.md).

A step's CPU time cannot see another thread holding the interpreter's lock, as Pillow did
reading a crafted picture in a worker thread; the meter's heartbeat reports the loop's
wall-clock lag (printed), and these pictures are checked by what must hold for none to stall
anyone: no thread of the bot's process decodes a picture, the process spends little CPU while
two are read, and another server's portrait is answered before them. Every other input is
``tests/bot/test_loop_stalls.py``'s.
"""

import resource
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import ImageFile

from fake_discord.world import FakeGuild, add_table_guild, default_world
from testbed.bot_env import BotEnv, running_bot_env
from testbed.hostile_images import chunk_png, comment_gif, scan_bomb
from testbed.stalls import Beside, StallMeter, beside_hostile, seat_neighbours

HOSTILE = {
    "progressive JPEG, last scan ×1,000": lambda: scan_bomb(side=2000, scans=1000),
    "GIF of 4 million comment blocks": comment_gif,
    "PNG of 600,000 empty chunks": chunk_png,
}
"""Pictures that cost seconds each: in C that nothing in the process could stop, or in Pillow's
Python, holding the interpreter's lock (``testbed.hostile_images``)."""
BOT_CPU = 1.5
"""Seconds of CPU the whole test process (bot, fake Discord, test) may spend while two of them
are read and another server plays: its own share is a tenth of that; decoding either picture in
the process, seconds more."""


@pytest.fixture
async def two_tables(tmp_path: Path) -> AsyncIterator[tuple[BotEnv, FakeGuild]]:
    """A bot serving two servers, :data:`NEIGHBOURS` with a Hero in each."""
    world = default_world()
    other = add_table_guild(world, "Another Table")
    async with running_bot_env(tmp_path / "bot.sqlite3", world, sync_global=True) as env:
        env.bot.portrait_reader.turns.per_minute = 0
        for guild in (world.guild, other):
            await seat_neighbours(env, guild)
        yield env, other


@pytest.mark.parametrize("what", HOSTILE)
async def test_costly_pictures_read_two_at_once_stall_no_other_server(
    two_tables: tuple[BotEnv, FakeGuild], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    env, other = two_tables
    data = HOSTILE[what]()
    decoded_in: list[threading.Thread] = []
    load = ImageFile.ImageFile.load

    def recorded(image: ImageFile.ImageFile) -> object:
        decoded_in.append(threading.current_thread())
        return load(image)

    monkeypatch.setattr(ImageFile.ImageFile, "load", recorded)
    with StallMeter().measuring() as meter:
        await env.slash("/roll dice:2", user="player1")  # warm up: a first call's one-time costs
        used = resource.getrusage(resource.RUSAGE_SELF)
        beside: Beside = await beside_hostile(env, meter, other, data, tmp_path, timeout=120)
        spent = resource.getrusage(resource.RUSAGE_SELF)
    cpu = spent.ru_utime + spent.ru_stime - used.ru_utime - used.ru_stime
    print(
        f"{what}: lag {beside.lag * 1000:.0f} ms, roll {beside.roll * 1000:.0f} ms, "
        f"portrait {beside.portrait * 1000:.0f} ms, bot CPU {cpu:.2f} s; {beside.hostile}"
    )
    assert not decoded_in, f"a picture was decoded in the bot's own process: {decoded_in}"
    assert beside.portrait_first, "another server's portrait waited for the costly ones"
    assert cpu < BOT_CPU, f"the bot's process spent {cpu:.2f} s of CPU while two pictures were read"
