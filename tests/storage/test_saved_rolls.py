"""Saved rolls in both databases: kept in the order saved, one name once per character (by the
naming rule), at most the bound per character even when saved at once, renamed, deleted, and
gone with their sheet."""

import asyncio

import pytest

from rules.character import Character, CharacterKind
from rules.saved_roll import SavedRoll
from storage import AlreadyExistsError, NotFoundError, Storage
from storage.errors import LimitReachedError

VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
ELEND = Character(name="Elend", kind=CharacterKind.HERO, owner_id=2)
SNEAK = SavedRoll(name="Sneak", stat="Physique", traits=1, tool=-1, modifier=2, difficulty=3, label="Quietly")


async def test_saved_listed_renamed_and_deleted(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    sneak = await storage.saved_rolls.save(1, vin.id, SNEAK, limit=20)
    spot = await storage.saved_rolls.save(1, vin.id, SavedRoll(name="Spot", stat="Wits"), limit=20)
    assert [r.roll for r in await storage.saved_rolls.of(1, vin.id)] == [SNEAK, spot.roll]
    assert await storage.saved_rolls.get(1, sneak.id) == sneak
    assert await storage.saved_rolls.get(2, sneak.id) is None  # another server's id is no roll here
    await storage.saved_rolls.rename(1, sneak.id, "Creep")
    renamed = await storage.saved_rolls.get(1, sneak.id)
    assert renamed is not None and renamed.roll == SNEAK.model_copy(update={"name": "Creep"})
    with pytest.raises(AlreadyExistsError):
        await storage.saved_rolls.rename(1, sneak.id, " spot")  # as the naming rule compares
    assert await storage.saved_rolls.delete(1, sneak.id)
    assert not await storage.saved_rolls.delete(1, sneak.id)
    with pytest.raises(NotFoundError):
        await storage.saved_rolls.rename(1, sneak.id, "Again")
    assert [r.id for r in await storage.saved_rolls.of(1, vin.id)] == [spot.id]


async def test_one_name_once_per_character(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    elend = await storage.characters.create(1, ELEND)
    await storage.saved_rolls.save(1, vin.id, SNEAK, limit=20)
    with pytest.raises(AlreadyExistsError):
        await storage.saved_rolls.save(1, vin.id, SNEAK.model_copy(update={"name": "SNEAK"}), limit=20)
    await storage.saved_rolls.save(1, elend.id, SNEAK, limit=20)  # another character's own
    assert len(await storage.saved_rolls.of(1, vin.id)) == 1


async def test_the_bound_holds_when_saves_race(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    rolls = [SavedRoll(name=f"Roll {n}", stat="Wits") for n in range(8)]
    done = await asyncio.gather(
        *(storage.saved_rolls.save(1, vin.id, roll, limit=5) for roll in rolls), return_exceptions=True
    )
    refused = [d for d in done if isinstance(d, BaseException)]
    assert all(isinstance(d, LimitReachedError) for d in refused) and len(refused) == 3
    assert len(await storage.saved_rolls.of(1, vin.id)) == 5


async def test_saved_rolls_go_with_their_sheet_and_need_one(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    await storage.saved_rolls.save(1, vin.id, SNEAK, limit=20)
    await storage.characters.delete(1, vin.id)
    assert await storage.saved_rolls.of(1, vin.id) == []
    with pytest.raises(NotFoundError):
        await storage.saved_rolls.save(1, vin.id, SNEAK, limit=20)
