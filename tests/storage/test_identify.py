"""Identify turns: one per bucket per interval, whichever process asks, and none waits for nothing."""

import asyncio

from storage import Storage


async def test_a_free_bucket_goes_at_once_and_a_busy_one_says_how_long_to_wait(storage: Storage) -> None:
    assert await storage.identify.claim(0, now=100.0, interval=5.0) == 0
    assert await storage.identify.claim(1, now=100.5, interval=5.0) == 0  # another bucket is free
    assert await storage.identify.claim(0, now=102.0, interval=5.0) == 3.0
    assert await storage.identify.claim(0, now=105.0, interval=5.0) == 0


async def test_only_one_of_many_askers_takes_a_turn(storage: Storage) -> None:
    waits = await asyncio.gather(*(storage.identify.claim(3, now=50.0, interval=5.0) for _ in range(10)))
    assert sorted(waits)[:2] == [0, 5.0] and waits.count(0) == 1
