"""A Conflict's new state and the damage it dealt are saved together or not at all."""

import pytest

from rules.character import Character, CharacterKind, Harm, revise_character
from storage import StaleWriteError, Storage

G, CHANNEL = 1, 100


async def test_conflict_and_sheets_commit_together(storage: Storage) -> None:
    vin = await storage.characters.create(G, Character(name="Vin", kind=CharacterKind.HERO, owner_id=1))
    thug = await storage.characters.create(G, Character(name="Thug", kind=CharacterKind.VILLAIN, owner_id=2))
    await storage.conflicts.create(G, CHANNEL, '{"round": 1}')

    async with storage.transaction() as tx:
        conflict = await tx.conflicts.get(G, CHANNEL)
        assert conflict is not None
        for stored in (vin, thug):
            current = await tx.characters.get(G, stored.id)
            await tx.characters.update(G, current, revise_character(current.character, damage=Harm(health=3)))
        await tx.conflicts.save(G, conflict, '{"round": 2}')

    saved = await storage.conflicts.get(G, CHANNEL)
    assert saved is not None
    assert (saved.version, saved.document) == (2, '{"round": 2}')
    for stored in (vin, thug):
        assert (await storage.characters.get(G, stored.id)).character.damage.health == 3


async def test_a_stale_conflict_undoes_the_damage_too(storage: Storage) -> None:
    vin = await storage.characters.create(G, Character(name="Vin", kind=CharacterKind.HERO, owner_id=1))
    loaded = await storage.conflicts.create(G, CHANNEL, '{"round": 1}')
    await storage.conflicts.save(G, loaded, '{"round": 1, "someone": "else"}')

    with pytest.raises(StaleWriteError):
        async with storage.transaction() as tx:
            await tx.characters.update(G, vin, revise_character(vin.character, damage=Harm(health=5)))
            await tx.conflicts.save(G, loaded, '{"round": 2}')

    assert await storage.characters.get(G, vin.id) == vin
    saved = await storage.conflicts.get(G, CHANNEL)
    assert saved is not None
    assert saved.version == 2
