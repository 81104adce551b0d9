import pytest

from rules.character import CharacterKind, make_character
from storage import AlreadyExistsError, NotFoundError, StaleWriteError, Storage
from storage.settings import GuildSettings


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


async def test_a_moves_one_read_brings_the_conflict_its_sheets_and_the_settings(storage: Storage) -> None:
    settings = GuildSettings(narrator_role_ids=(7, 8), gm_channel_id=55, table_dice=True)
    assert await storage.conflicts.for_move(1, 100) == (None, {}, GuildSettings())
    await storage.settings.set(1, settings)
    await storage.settings.set(2, GuildSettings(narrator_role_ids=(9,)))
    assert await storage.conflicts.for_move(1, 100) == (None, {}, settings)  # no Conflict: still who asks
    vin = await storage.characters.create(1, make_character(name="Vin", kind=CharacterKind.HERO, owner_id=5))
    await storage.characters.create(1, make_character(name="Kelsier", kind=CharacterKind.HERO, owner_id=6))
    created = await storage.conflicts.create(1, 100, "{}", participants=[vin.id])
    assert await storage.conflicts.for_move(1, 100) == (created, {vin.id: vin}, settings)
    assert await storage.conflicts.get_with_sheets(1, 100) == (created, {vin.id: vin})
    assert (await storage.conflicts.for_move(2, 100)).settings == GuildSettings(narrator_role_ids=(9,))
