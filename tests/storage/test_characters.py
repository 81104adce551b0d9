import pytest

from rules.character import Character, CharacterKind, revise_character
from rules.errors import RulesError
from rules.naming import name_key
from storage import AlreadyExistsError, NotFoundError, StaleWriteError, Storage, StoredCharacter
from storage import name_key as storage_name_key

VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
KELSIER = Character(name="Kelsier", kind=CharacterKind.HERO, owner_id=2)
STRAFF = Character(name="Straff Venture", kind=CharacterKind.VILLAIN, owner_id=3)


async def test_create_and_get_by_id_and_name(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    assert (vin.guild_id, vin.version, vin.character) == (1, 1, VIN)
    assert await storage.characters.get(1, vin.id) == vin
    assert await storage.characters.get_by_name(1, "  vIN ") == vin


async def test_duplicate_name_in_any_case_is_refused(storage: Storage) -> None:
    await storage.characters.create(1, VIN)
    clone = Character(name="VIN", kind=CharacterKind.EXTRA, owner_id=9)
    with pytest.raises(AlreadyExistsError, match=r"^There is already a character named VIN in this server"):
        await storage.characters.create(1, clone)
    assert len(await storage.characters.list_by_guild(1)) == 1


@pytest.mark.parametrize(
    ("stored", "typed"),
    [("Straße", "STRASSE"), ("ﬁnch", "Finch"), ("Ｖｉｎ", "vin"), ("Vin  Venture", "vin venture")],
)
def test_name_keys_fold_case_and_lookalikes(stored: str, typed: str) -> None:
    assert name_key(stored) == name_key(typed)
    assert storage_name_key is name_key  # the old import path is the one rule


async def test_missing_names_and_ids(storage: Storage) -> None:
    with pytest.raises(
        NotFoundError,
        match=r"^There is no character named Marsh in this server; /character list shows the sheets here\.$",
    ):
        await storage.characters.get_by_name(1, "Marsh")
    with pytest.raises(NotFoundError, match="does not exist in this server"):
        await storage.characters.get(1, 12345)


async def test_list_by_guild_and_owner_in_name_order(storage: Storage) -> None:
    for character in (STRAFF, VIN, KELSIER, Character(name="elend", kind=CharacterKind.HERO, owner_id=1)):
        await storage.characters.create(1, character)
    assert [s.name for s in await storage.characters.list_by_guild(1)] == [
        "elend",
        "Kelsier",
        "Straff Venture",
        "Vin",
    ]
    assert [s.name for s in await storage.characters.list_by_guild(1, owner_id=1)] == ["elend", "Vin"]
    assert await storage.characters.list_by_guild(1, owner_id=99) == []


async def test_known_names_carry_the_stored_keys_and_keep_secrets(storage: Storage) -> None:
    """What "did you mean" compares a mistyped name with (docs/rulings.md §8.4): the server's
    names with the keys stored beside them; only the public ones for a player (§7.1)."""
    for character in (STRAFF, VIN, Character(name="Ménard d’Arc", kind=CharacterKind.HERO, owner_id=1)):
        await storage.characters.create(1, character)
    await storage.characters.create(2, KELSIER)
    every = await storage.characters.known_names(1)
    assert sorted(every.names) == ["Ménard d’Arc", "Straff Venture", "Vin"]
    assert (
        every.closest("straf venture") == "Straff Venture" and every.closest("menard darc") == "Ménard d’Arc"
    )
    public = await storage.characters.known_names(1, public_only=True)
    assert sorted(public.names) == ["Ménard d’Arc", "Vin"] and public.closest("straf venture") is None


async def test_search_by_the_start_of_a_name(storage: Storage) -> None:
    names = ["Vin", "Vinnie", "vinegar Jack", "Venture", "Valette", "Kelsier"]
    for i, name in enumerate(names):
        await storage.characters.create(1, Character(name=name, kind=CharacterKind.HERO, owner_id=i % 2))
    assert [s.name for s in await storage.characters.search(1, "VIN")] == ["Vin", "vinegar Jack", "Vinnie"]
    assert [s.name for s in await storage.characters.search(1, "v", limit=2)] == ["Valette", "Venture"]
    assert [s.name for s in await storage.characters.search(1, "vin", owner_id=1)] == ["Vinnie"]
    assert len(await storage.characters.search(1, "")) == 6
    assert await storage.characters.search(1, "vinx") == []
    (summary,) = await storage.characters.search(1, "kel")
    assert (summary.kind, summary.owner_id) == (CharacterKind.HERO, 1)


async def test_search_is_capped_at_25(storage: Storage) -> None:
    async with storage.transaction() as tx:
        for i in range(30):
            await tx.characters.create(
                1, Character(name=f"Skaa {i:02d}", kind=CharacterKind.EXTRA, owner_id=1)
            )
    assert len(await storage.characters.search(1, "skaa", limit=100)) == 25


async def test_search_handles_the_highest_code_point(storage: Storage) -> None:
    await storage.characters.create(1, Character(name="\U0010fffd tail", kind=CharacterKind.HERO, owner_id=1))
    assert [s.name for s in await storage.characters.search(1, "\U0010fffd")] == ["\U0010fffd tail"]
    assert await storage.characters.search(1, "\ud800") != []  # A lone surrogate is dropped, not sent.


async def test_update_bumps_version_and_reindexes(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    changed = revise_character(VIN, owner_id=5, kind=CharacterKind.VILLAIN, notes="turned")
    updated = await storage.characters.update(1, vin, changed)
    assert (updated.version, updated.character) == (2, changed)
    assert await storage.characters.get(1, vin.id) == updated
    assert [s.name for s in await storage.characters.list_by_guild(1, owner_id=5)] == ["Vin"]
    assert (await storage.characters.search(1, "v"))[0].kind is CharacterKind.VILLAIN


async def test_stale_update_is_refused_with_a_plain_message(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    await storage.characters.update(1, vin, revise_character(VIN, notes="first"))
    with pytest.raises(StaleWriteError, match=r"^Someone else changed Vin just now; try again\.$"):
        await storage.characters.update(1, vin, revise_character(VIN, notes="second"))
    assert (await storage.characters.get(1, vin.id)).character.notes == "first"


async def test_update_of_a_deleted_character(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    await storage.characters.delete(1, vin.id)
    with pytest.raises(NotFoundError, match="no longer exists"):
        await storage.characters.update(1, vin, VIN)


async def test_rename(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    await storage.characters.create(1, KELSIER)
    renamed = await storage.characters.rename(1, vin, "Valette Renoux")
    assert renamed.name == "Valette Renoux"
    assert await storage.characters.get_by_name(1, "valette renoux") == renamed
    with pytest.raises(NotFoundError):
        await storage.characters.get_by_name(1, "Vin")
    with pytest.raises(AlreadyExistsError, match="named kelsier"):
        await storage.characters.rename(1, renamed, "kelsier")
    with pytest.raises(RulesError):
        await storage.characters.rename(1, renamed, "   ")
    assert await storage.characters.get(1, vin.id) == renamed
    same = await storage.characters.rename(1, renamed, "VALETTE RENOUX")
    assert same.name == "VALETTE RENOUX"


async def test_delete(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    with pytest.raises(StaleWriteError):
        await storage.characters.delete(1, vin.id, expected_version=vin.version + 1)
    await storage.characters.delete(1, vin.id, expected_version=vin.version)
    with pytest.raises(NotFoundError):
        await storage.characters.get(1, vin.id)
    with pytest.raises(NotFoundError):
        await storage.characters.delete(1, vin.id)
    again = await storage.characters.create(1, VIN)
    assert again.id != vin.id


def test_stored_character_exposes_its_name() -> None:
    stored = StoredCharacter.model_validate(
        {"id": 1, "guild_id": 1, "version": 1, "updated_at": "2024-01-01T00:00:00+00:00", "character": VIN}
    )
    assert stored.name == "Vin"
