"""Many coroutines writing at once: no lost updates, and only clean errors."""

import asyncio

import pytest

from rules.character import Character, CharacterKind, revise_character
from storage import GuildSettings, StaleWriteError, Storage, StoredCharacter
from tests.storage.test_rolls import roll

G = 1
EDITS = 100
MAX_ATTEMPTS = 400


async def make_vin(storage: Storage) -> StoredCharacter:
    return await storage.characters.create(G, Character(name="Vin", kind=CharacterKind.HERO, owner_id=1))


def with_mark(stored: StoredCharacter, mark: int) -> Character:
    return revise_character(stored.character, notes=f"{stored.character.notes} {mark:02d}")


def marks(stored: StoredCharacter) -> list[int]:
    return sorted(int(mark) for mark in stored.character.notes.split())


async def test_parallel_edits_with_retry_lose_nothing(storage: Storage) -> None:
    vin = await make_vin(storage)

    async def edit(mark: int) -> int:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            stored = await storage.characters.get(G, vin.id)
            await asyncio.sleep(0)  # Let other editors read the same version.
            try:
                await storage.characters.update(G, stored, with_mark(stored, mark))
            except StaleWriteError:
                continue
            return attempt
        raise AssertionError(f"edit {mark} never got through")

    attempts = await asyncio.gather(*(edit(mark) for mark in range(EDITS)))
    final = await storage.characters.get(G, vin.id)
    assert marks(final) == list(range(EDITS))
    assert final.version == 1 + EDITS
    assert max(attempts) > 1  # The edits really did collide.


async def test_parallel_edits_without_retry_fail_cleanly(storage: Storage) -> None:
    vin = await make_vin(storage)

    async def edit(mark: int) -> StoredCharacter:
        stored = await storage.characters.get(G, vin.id)
        await asyncio.sleep(0)
        return await storage.characters.update(G, stored, with_mark(stored, mark))

    results = await asyncio.gather(*(edit(mark) for mark in range(EDITS)), return_exceptions=True)
    won = [mark for mark, result in enumerate(results) if isinstance(result, StoredCharacter)]
    lost = [result for result in results if not isinstance(result, StoredCharacter)]
    assert all(isinstance(error, StaleWriteError) for error in lost), lost[:3]
    assert all(str(error) == "Someone else changed Vin just now; try again." for error in lost)
    assert won and lost
    final = await storage.characters.get(G, vin.id)
    assert marks(final) == won
    assert final.version == 1 + len(won)


@pytest.mark.sqlite_only  # PostgreSQL: a stale edit is refused (above); Conflict moves lock
async def test_parallel_edits_inside_transactions_never_go_stale(storage: Storage) -> None:
    vin = await make_vin(storage)

    async def edit(mark: int) -> None:
        async with storage.transaction() as tx:
            stored = await tx.characters.get(G, vin.id)
            await asyncio.sleep(0)
            await tx.characters.update(G, stored, with_mark(stored, mark))

    await asyncio.gather(*(edit(mark) for mark in range(EDITS)))
    assert marks(await storage.characters.get(G, vin.id)) == list(range(EDITS))


@pytest.mark.parametrize("writers", [50])
async def test_many_writers_at_once(storage: Storage, writers: int) -> None:
    async def writer(n: int) -> None:
        stored = await storage.characters.create(
            G, Character(name=f"Skaa {n}", kind=CharacterKind.EXTRA, owner_id=n)
        )
        await storage.active.set(G, n, stored.id)
        for i in range(10):
            await storage.rolls.append(roll(user_id=n, label=f"{n}/{i}"))
        await storage.settings.set(n, GuildSettings(narrator_role_ids=(n,)))
        conflict = await storage.conflicts.create(G, n, "{}")
        await storage.conflicts.save(G, conflict, f'{{"by": {n}}}')

    await asyncio.gather(*(writer(n) for n in range(writers)))
    assert len(await storage.characters.list_by_guild(G)) == writers
    assert (await storage.rolls.stats(G)).rolls == writers * 10
    for n in range(writers):
        active = await storage.active.get(G, n)
        assert active is not None and active.name == f"Skaa {n}"
        assert await storage.settings.get(n) == GuildSettings(narrator_role_ids=(n,))
        conflict = await storage.conflicts.get(G, n)
        assert conflict is not None and conflict.version == 2
