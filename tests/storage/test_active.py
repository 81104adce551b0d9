import pytest

from rules.character import Character, CharacterKind
from storage import NotFoundError, Storage

VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
ELEND = Character(name="Elend", kind=CharacterKind.HERO, owner_id=1)


async def test_set_get_replace_clear(storage: Storage) -> None:
    assert await storage.active.get(1, 1) is None
    vin = await storage.characters.create(1, VIN)
    elend = await storage.characters.create(1, ELEND)
    await storage.active.set(1, 1, vin.id)
    assert await storage.active.get(1, 1) == vin
    await storage.active.set(1, 1, elend.id)
    assert await storage.active.get(1, 1) == elend
    await storage.active.clear(1, 1)
    assert await storage.active.get(1, 1) is None
    await storage.active.clear(1, 1)


async def test_active_character_reflects_later_edits(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    await storage.active.set(1, 1, vin.id)
    renamed = await storage.characters.rename(1, vin, "Valette")
    assert await storage.active.get(1, 1) == renamed


async def test_deleting_the_character_clears_every_choice_of_it(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    elend = await storage.characters.create(1, ELEND)
    await storage.active.set(1, 1, vin.id)
    await storage.active.set(1, 2, vin.id)
    await storage.active.set(1, 3, elend.id)
    await storage.characters.delete(1, vin.id)
    assert await storage.active.get(1, 1) is None
    assert await storage.active.get(1, 2) is None
    assert await storage.active.get(1, 3) == elend


async def test_unknown_character_is_refused(storage: Storage) -> None:
    with pytest.raises(NotFoundError, match="does not exist in this server"):
        await storage.active.set(1, 1, 404)
