"""A channel's Circumstances and the Breathers called (``storage.scenes``), on both databases."""

import asyncio

from rules.character import BreatherKind
from storage import Storage
from storage.scenes import BreatherCall, SceneCircumstances

BIG = 2**63 - 1


async def test_circumstances_are_per_channel_and_clear_to_none(storage: Storage) -> None:
    mists = SceneCircumstances(net=1, note="in the mists")
    assert await storage.scenes.circumstances(1, 10) == SceneCircumstances()
    await storage.scenes.set_circumstances(1, 10, mists)
    await storage.scenes.set_circumstances(BIG, BIG, SceneCircumstances(net=-1))
    assert await storage.scenes.circumstances(1, 10) == mists
    assert await storage.scenes.circumstances(1, 11) == SceneCircumstances()
    assert await storage.scenes.circumstances(BIG, BIG) == SceneCircumstances(net=-1)
    await storage.scenes.set_circumstances(1, 10, SceneCircumstances(net=-1, note="rain"))
    assert await storage.scenes.circumstances(1, 10) == SceneCircumstances(net=-1, note="rain")
    await storage.scenes.set_circumstances(1, 10, SceneCircumstances())
    assert await storage.scenes.circumstances(1, 10) == SceneCircumstances()


async def test_a_called_breather_is_taken_once_even_by_clicks_at_once(storage: Storage) -> None:
    short = BreatherCall(kind=BreatherKind.SHORT, resting=True)
    await storage.scenes.call_breather(1, [5, 6], short, called_by=9)
    await storage.scenes.call_breather(1, [6], BreatherCall(kind=BreatherKind.LONG), called_by=9)
    assert await storage.scenes.breathers_waiting(1, [5, 6, 7]) == {5, 6}
    assert await storage.scenes.breathers_waiting(2, [5, 6]) == set()

    async def take() -> BreatherCall | None:
        async with storage.transaction() as tx:
            return await tx.scenes.take_breather(1, 5)

    taken = await asyncio.gather(take(), take(), take())
    assert sorted(taken, key=lambda c: c is None) == [short, None, None]
    assert await storage.scenes.take_breather(1, 6) == BreatherCall(kind=BreatherKind.LONG)
    assert await storage.scenes.breathers_waiting(1, [5, 6]) == set()


async def test_a_take_naming_a_replaced_call_takes_nothing(storage: Storage) -> None:
    """A button names the call it was posted with (docs/rulings.md §5.12): once the Narrator
    replaced that call, the button takes nothing, and the newer call stays for its own button."""
    short = BreatherCall(kind=BreatherKind.SHORT, call_id=BIG - 1)
    long = BreatherCall(kind=BreatherKind.LONG, call_id=BIG)
    await storage.scenes.call_breather(1, [5], short, called_by=9)
    await storage.scenes.call_breather(1, [5], long, called_by=9)
    assert await storage.scenes.take_breather(1, 5, short.call_id) is None
    assert await storage.scenes.breather_waiting(1, 5) == long
    assert await storage.scenes.take_breather(1, 5, long.call_id) == long
    assert await storage.scenes.breather_waiting(1, 5) is None
