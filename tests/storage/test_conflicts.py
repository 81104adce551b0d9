import pytest

from storage import AlreadyExistsError, NotFoundError, StaleWriteError, Storage


async def test_create_get_save_delete(storage: Storage) -> None:
    assert await storage.conflicts.get(1, 100) is None
    created = await storage.conflicts.create(1, 100, '{"round": 1}')
    assert (created.guild_id, created.channel_id, created.version) == (1, 100, 1)
    assert await storage.conflicts.get(1, 100) == created
    saved = await storage.conflicts.save(1, created, '{"round": 2}')
    assert (saved.id, saved.version, saved.document) == (created.id, 2, '{"round": 2}')
    assert await storage.conflicts.get(1, 100) == saved
    await storage.conflicts.delete(1, 100, expected=saved)
    assert await storage.conflicts.get(1, 100) is None


async def test_one_conflict_per_channel(storage: Storage) -> None:
    await storage.conflicts.create(1, 100, "{}")
    with pytest.raises(AlreadyExistsError, match="already running in this channel"):
        await storage.conflicts.create(1, 100, "{}")
    await storage.conflicts.create(1, 101, "{}")
    await storage.conflicts.create(2, 100, "{}")


async def test_stale_save_is_refused_and_changes_nothing(storage: Storage) -> None:
    first = await storage.conflicts.create(1, 100, "v1")
    await storage.conflicts.save(1, first, "v2")
    with pytest.raises(StaleWriteError, match=r"^Someone else changed this Conflict just now; try again\.$"):
        await storage.conflicts.save(1, first, "late")
    with pytest.raises(StaleWriteError):
        await storage.conflicts.delete(1, 100, expected=first)
    stored = await storage.conflicts.get(1, 100)
    assert stored is not None
    assert (stored.version, stored.document) == (2, "v2")


async def test_a_copy_of_an_ended_conflict_never_saves_over_a_new_one(storage: Storage) -> None:
    old = await storage.conflicts.create(1, 100, "old")
    await storage.conflicts.delete(1, 100)
    new = await storage.conflicts.create(1, 100, "new")
    assert (new.version, new.id != old.id) == (old.version, True)
    with pytest.raises(
        NotFoundError, match=r"^That Conflict has ended; a Narrator starts a new one with /conflict start\.$"
    ):
        await storage.conflicts.save(1, old, "late")
    with pytest.raises(NotFoundError):
        await storage.conflicts.delete(1, 100, expected=old)
    assert await storage.conflicts.get(1, 100) == new


async def test_missing_conflict_errors(storage: Storage) -> None:
    with pytest.raises(
        NotFoundError,
        match=r"^There is no Conflict running in this channel; a Narrator starts one with /conflict start\.$",
    ):
        await storage.conflicts.delete(1, 100)
