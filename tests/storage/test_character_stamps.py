"""Each sheet's saved state read without its document (``characters.stamps``): what the web
view's kept sheets are checked against, so every write and every reveal must show in it."""

from rules.character import Character, CharacterKind, revise_character
from storage import SheetStamp, Storage

VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
STRAFF = Character(name="Straff Venture", kind=CharacterKind.VILLAIN, owner_id=3)


async def test_stamps_follow_every_write_and_reveal_in_name_order(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    straff = await storage.characters.create(1, STRAFF)
    await storage.characters.create(2, Character(name="Elsewhere", kind=CharacterKind.HERO, owner_id=1))
    assert await storage.characters.stamps(1) == [
        SheetStamp(straff.id, 1, CharacterKind.VILLAIN, 3, False),
        SheetStamp(vin.id, 1, CharacterKind.HERO, 1, False),
    ]
    await storage.characters.update(1, vin, revise_character(VIN, concept="Thief"))
    await storage.characters.set_revealed(1, straff.id, True)
    assert await storage.characters.stamps(1) == [
        SheetStamp(straff.id, 1, CharacterKind.VILLAIN, 3, True),
        SheetStamp(vin.id, 2, CharacterKind.HERO, 1, False),
    ]
    assert [s.id for s in await storage.characters.stamps(1, owner_id=1)] == [vin.id]
    await storage.characters.delete(1, vin.id)
    again = await storage.characters.create(1, VIN)
    assert again.id != vin.id  # a state is never named again by a new sheet
    assert [s.version for s in await storage.characters.stamps(1, owner_id=1)] == [1]
