"""Faults for longer than CI can wait: many kill -9s at random moments, gateway drops under load.

Run by hand: ``python -m bench.soak_faults`` (about a minute) or with ``--kills``, ``--seed``,
``--drops`` and ``--slow-board``. Nothing leaves 127.0.0.1.

Kill loop: the real bot runs in a subprocess (``fake_discord.remote``) against the fake Discord
in this process while three players create, edit and roll and a Conflict is played with slash
commands and buttons (``testbed/drivers.py``). After a random while, the bot is SIGKILLed
right after an interaction went out to it (a Conflict move included, unlike the CI test, which
kills at a known prompt). A new process opens the file; then every acknowledged write must be
there, ``integrity_check`` ok, every Conflict document must load, and the Conflict must be as
its last acknowledged move left it or exactly one move further (the one in flight). The driver
then carries on from there, so every kill also proves the round continues.

``--drops``: while the load runs, the fake drops the gateway connection (resumable, code 4000)
every few hundred milliseconds; RESUME's replay must deliver every interaction, so apart from
the ones in flight at a kill, every interaction must be answered.

``--slow-board`` (about two minutes): the board's edit gets 500s. discord.py tries five times,
sleeping 1, 3, 5, 7 and 9 s, then raises; first the board's own retry gets through, then every
attempt fails so the board gives up, and the next change of the Conflict must fix it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from fake_discord.load import Load, acknowledged
from fake_discord.process import BotProcess, RemoteHarness
from fake_discord.server import FakeDiscord
from fake_discord.world import default_world
from rules.conflict import load_conflict
from storage import Storage
from storage.sql import fetch_all
from testbed.bot_env import (
    DISCORD_TRIES,
    DUEL,
    board_is_correct,
    board_message,
    boards,
    running_bot_env,
)
from testbed.drivers import ConflictDriver, Row, player_stream

PLAYERS = ("player2", "player3", "player4")


def one_move_apart(before: Row | None, after: Row | None) -> bool:
    """`after` is `before`, or one more committed move: a save (+1 version), an end, a start."""
    if before == after:
        return True
    if before is not None and after is not None:
        return after[0] == before[0] and after[1] == before[1] + 1
    if before is not None:
        return after is None  # ended
    return after is not None and after[1] == 1  # started


async def check_file(load: Load[Storage], driver: ConflictDriver, db_path: Path, before: Row | None) -> None:
    async with await Storage.open(db_path) as storage:
        reader = storage.database.reader
        assert [tuple(r) for r in await fetch_all(reader, "PRAGMA integrity_check")] == [("ok",)]
        broken = await load.broken_promises(storage)
        assert not broken, f"acknowledged but not in the file: {broken}"
        for row in await fetch_all(reader, "SELECT document FROM conflicts"):
            load_conflict(row["document"])
    after = driver.stored()
    assert one_move_apart(before, after), f"the Conflict moved from {before} to {after}"


async def drive(driver: ConflictDriver) -> None:
    while True:
        await driver.move()


async def drop_now_and_then(fake: FakeDiscord, rng: random.Random) -> None:
    while True:
        await asyncio.sleep(rng.uniform(0.1, 0.5))
        await fake.gateway.drop(4000, outage=rng.uniform(0.0, 0.3))


async def kill_loop(kills: int, seed: int, drops: bool, folder: Path) -> None:
    rng = random.Random(seed)
    world = default_world()
    for name in PLAYERS[1:]:
        world.add_member(name)
    fake = FakeDiscord(world)
    await fake.start()
    process = BotProcess(fake, folder / "soak.sqlite3", log_path=folder / "bot.log", seed=seed)
    try:
        await process.start()
        harness = RemoteHarness(fake, process)
        harness.idle = 0.03
        load: Load[Storage] = Load(harness)
        guild = world.guild.id
        driver = ConflictDriver(load, process.db_path, guild, harness.channel.id)
        unanswered_before: set[int] = set()
        for kill in range(kills):
            started = time.monotonic()
            tasks = [
                asyncio.create_task(player_stream(load, user, f"{user}.{kill}", guild)) for user in PLAYERS
            ]
            tasks.append(asyncio.create_task(drive(driver)))
            if drops:
                tasks.append(asyncio.create_task(drop_now_and_then(fake, rng)))
            try:
                async with asyncio.timeout(60):
                    done, _ = await asyncio.wait(tasks, timeout=rng.uniform(0.2, 2.0))
                    for task in done:
                        task.result()  # a stream failed: show why
                    await load.pulse.wait()
                    await process.kill()
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            in_flight = {id(s) for s in load.in_flight()} - unanswered_before
            unanswered_before |= in_flight
            before = driver.last_acked
            await process.start()
            await check_file(load, driver, process.db_path, before)
            await driver.move()  # the round continues on the new process
            lost = [s.what for s in load.sent if s.record.response is None and id(s) not in unanswered_before]
            assert not lost, f"interactions never answered: {lost[:5]}"
            acked = sum(acknowledged(s.record) for s in load.sent)
            print(
                f"kill {kill + 1}/{kills}: {len(load.sent)} sent, {acked} acknowledged,"
                f" {len(in_flight)} in flight at the kill, Conflict {driver.cycle} at version"
                f" {before and before[1]}, {time.monotonic() - started:.1f} s",
                flush=True,
            )
        driver.close()
        await process.stop()
    except BaseException:
        print(process.log_tail(), file=sys.stderr)
        raise
    finally:
        await process.kill()
        await fake.stop()


async def slow_board() -> None:
    """500 on every try of the board's first attempts: discord.py's own retries, then the board's."""
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot_env(Path(folder) / "board.sqlite3", default_world(), seed=1) as env:
            await env.play(DUEL)
            boards(env).retry_delays = (0.2, 0.2, 0.2)
            await boards(env).idle()
            board = await board_message(env)
            path_re = rf"/channels/\d+/messages/{board['id']}$"
            fake = env.harness.fake

            # One attempt's five tries all fail (25 s of discord.py's sleeps); the board's
            # own retry then gets through.
            fake.inject_fault("PATCH", path_re, 500, times=DISCORD_TRIES)
            started = time.monotonic()
            await env.slash("/act dice:5 who:Thug", user="narrator")
            await boards(env).idle()
            took = time.monotonic() - started
            assert await board_is_correct(env), "the board's retry did not fix it"
            print(f"500 x {DISCORD_TRIES}: the board's own retry fixed it after {took:.1f} s", flush=True)

            # Every attempt fails: the board gives up (4 x 25 s), the next change fixes it.
            attempts = 1 + len(boards(env).retry_delays)
            fake.inject_fault("PATCH", path_re, 500, times=attempts * DISCORD_TRIES)
            started = time.monotonic()
            await env.harness.click("Don't defend", user="player1")
            await boards(env).idle()
            took = time.monotonic() - started
            assert not await board_is_correct(env), "the board should have given up"
            print(f"500 x {attempts * DISCORD_TRIES}: the board gave up after {took:.1f} s", flush=True)
            await env.slash("/conflict adjust who:Vin dice:1", user="narrator")
            await boards(env).idle()
            assert await board_is_correct(env), "the next change did not fix the board"
            print("the next change fixed the board")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak_faults", description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20, help="kill -9s in the kill loop (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the timings and the dice")
    parser.add_argument("--drops", action="store_true", help="also drop the gateway now and then")
    parser.add_argument("--slow-board", action="store_true", help="only the board's 500-past-retries case")
    args = parser.parse_args(argv)
    if args.slow_board:
        asyncio.run(slow_board())
        return 0
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(kill_loop(args.kills, args.seed, args.drops, Path(folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
