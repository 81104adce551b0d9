"""A character's portrait in both databases: set, replaced under a new token, found only by its
current token, listed without its bytes, removed, and deleted with the sheet."""

import pytest

from rules.character import Character, CharacterKind
from storage import NotFoundError, Storage

VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
IMAGE = bytes(range(256)) * 4  # every byte value survives the round trip (BLOB / bytea)


async def test_set_replace_find_and_remove(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    assert await storage.portraits.get(1, vin.id) is None
    first = await storage.portraits.set(1, vin.id, IMAGE, "image/webp")
    assert await storage.portraits.get(1, vin.id) == first and first.image == IMAGE
    mark = await storage.web.mark(1)
    second = await storage.portraits.set(1, vin.id, IMAGE[::-1], "image/webp")
    assert second.token != first.token and await storage.web.mark(1) != mark
    assert await storage.portraits.by_token(1, vin.id, first.token) is None
    assert await storage.portraits.by_token(1, vin.id, second.token) == second
    assert await storage.portraits.by_token(2, vin.id, second.token) is None  # another server
    assert await storage.portraits.tokens(1) == {vin.id: second.token}
    assert await storage.portraits.token(1, vin.id) == second.token
    assert await storage.portraits.remove(1, vin.id)
    assert not await storage.portraits.remove(1, vin.id)
    assert await storage.portraits.get(1, vin.id) is None


async def test_the_portrait_goes_with_its_sheet_and_needs_one(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    await storage.portraits.set(1, vin.id, IMAGE, "image/webp")
    await storage.characters.delete(1, vin.id)
    assert await storage.portraits.tokens(1) == {}
    with pytest.raises(NotFoundError):
        await storage.portraits.set(1, vin.id, IMAGE, "image/webp")
    with pytest.raises(NotFoundError):
        await storage.portraits.set(2, vin.id, IMAGE, "image/webp")  # the sheet is not in server 2
