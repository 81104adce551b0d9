import pytest

from rules.character import Character, CharacterKind
from storage import GuildSettings, NotFoundError, Storage
from storage.scenes import SceneCircumstances

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


async def test_at_table_reads_the_sheet_settings_and_scene_together(storage: Storage) -> None:
    """One read gives what a stat roll needs; each part is this server's, this member's and this
    channel's only, and a part never set reads as its default."""
    empty = await storage.active.at_table(1, 1, 10)
    assert empty.sheet is None and empty.settings == GuildSettings() and empty.scene == SceneCircumstances()
    vin = await storage.characters.create(1, VIN)
    elend = await storage.characters.create(2, ELEND)
    await storage.active.set(1, 1, vin.id)
    await storage.active.set(2, 1, elend.id)
    await storage.settings.add_narrator_role(1, 77)
    await storage.settings.set_table_dice(2, True)
    await storage.scenes.set_circumstances(1, 10, SceneCircumstances(net=-1, note="in the mists"))
    await storage.scenes.set_circumstances(1, 11, SceneCircumstances(net=1))
    found = await storage.active.at_table(1, 1, 10)
    assert found.sheet == vin
    assert found.settings == await storage.settings.get(1) == GuildSettings(narrator_role_ids=(77,))
    assert found.scene == SceneCircumstances(net=-1, note="in the mists")
    other = await storage.active.at_table(1, 2, 12)
    assert other.sheet is None and other.settings.narrator_role_ids == (77,) and other.scene.net == 0
    assert (await storage.active.at_table(1, 1, None)).scene == SceneCircumstances()
    elsewhere = await storage.active.at_table(2, 1, 10)
    assert elsewhere.sheet == elend and elsewhere.settings.table_dice and elsewhere.scene.net == 0
