"""Sheets stored in format 1 with a Savant, a Blessing or a spike in words are rewritten at start
with them in their fields, on both databases (docs/rulings.md §10.1); words that name nothing
for certain stay, and every figure the table reads is what it was."""

from rules.character import Character, CharacterKind, make_character, rating_for
from rules.character.hemalurgy import Blessing, Spike
from storage import Storage, sheet_format
from storage.sql import fetch_all

FIGURES = ("Physique", "Charm", "Wits", "Resources", "Influence", "Spirit")
MARSH = make_character(
    name="Marsh",
    kind=CharacterKind.HERO,
    owner_id=1,
    attributes={"physique": 4, "charm": 2, "wits": 4},
    standings={"resources": 3, "influence": 3, "spirit": 3},
    powers=[
        {"type": "allomancy", "name": "Bronze", "rating": 7, "stunts": ["Savant"]},
        {"type": "hemalurgy", "name": "Iron spike", "rating": 2},
        {"type": "hemalurgy", "name": "Steel spike", "rating": 4},
    ],
)
TENSOON = make_character(
    name="TenSoon",
    kind=CharacterKind.VILLAIN,
    owner_id=1,
    powers=[{"type": "kandra", "name": "Mimicry", "rating": 5, "stunts": ["Blessing of Presence"]}],
)


async def stored_in_format_1(storage: Storage, character: Character) -> None:
    """A row as the previous bot wrote it."""
    key = character.name.lower()
    async with storage.database.transaction() as conn:
        await conn.execute(
            "INSERT INTO characters (guild_id, name, name_key, search_key, sort_key, owner_id, kind,"
            " version, updated_at, document, format_version)"
            " VALUES (1, ?, ?, ?, ?, 1, ?, 1, '2026-12-01T00:00:00.000000+00:00', ?, 1)",
            (character.name, key, key, key, character.kind.value, character.model_dump_json()),
        )


async def test_gifts_in_words_are_structured_at_start_and_read_the_same(storage: Storage) -> None:
    await stored_in_format_1(storage, MARSH)
    await stored_in_format_1(storage, TENSOON)
    assert await storage.characters.upgrade_formats() == 2
    rows = await fetch_all(storage.database.reader, "SELECT format_version FROM characters")
    assert {row["format_version"] for row in rows} == {sheet_format.latest()}
    marsh = (await storage.characters.get_by_name(1, "Marsh")).character
    assert marsh.allomancy.savants == ("Bronze",) and marsh.powers[0].stunts == ()
    assert marsh.hemalurgy.spikes == (Spike(metal="Iron", rating=2),)
    assert [(p.name, p.rating) for p in marsh.powers] == [("Bronze", 7), ("Steel spike", 4)]  # ambiguous
    assert (marsh.attributes.charm, marsh.standings.spirit) == (3, 4)
    assert [rating_for(marsh, f) for f in FIGURES] == [rating_for(MARSH, f) for f in FIGURES]
    tensoon = (await storage.characters.get_by_name(1, "TenSoon")).character
    assert tensoon.hemalurgy.blessings == (Blessing.PRESENCE,) and tensoon.powers[0].stunts == ()
    assert rating_for(tensoon, "Wits") == rating_for(TENSOON, "Wits") + 2


async def test_a_sheet_already_in_format_2_is_not_upgraded_again(storage: Storage) -> None:
    """Today's bot may write the very words (a free Stunt named "Savant"); only format 1 moves them."""
    stored = await storage.characters.create(1, MARSH)
    assert await storage.characters.upgrade_formats() == 0
    assert (await storage.characters.get(1, stored.id)).character == MARSH
