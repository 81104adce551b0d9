"""Characters are found, picked and ordered by rules.naming, in SQL as in Python."""

import asyncio
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.character import Character, CharacterKind, revise_character
from rules.naming import find_named, sort_key
from storage import AlreadyExistsError, Storage
from storage.character_rows import LOOP_SEARCH
from storage.name_keys import SORT_SEPARATOR, name_columns
from storage.sql import fetch_one
from tests.storage.strategies import NAMES

NAMES_IN_PLAY = [
    "Lord Straff",
    "Straff Venture",
    "Ménard d’Arc",
    "Obligator",
    "Ériel",
    "Vin",
    "Avin",
    "Kevin",
]


def hero(name: str, owner_id: int = 1) -> Character:
    return Character(name=name, kind=CharacterKind.HERO, owner_id=owner_id)


async def fill(storage: Storage, names: list[str], guild_id: int = 1) -> None:
    for i, name in enumerate(names):
        await storage.characters.create(guild_id, hero(name, owner_id=i % 2))


async def stored_keys(storage: Storage, character_id: int) -> tuple[str, str, str]:
    row = await fetch_one(
        storage.database.reader,
        "SELECT name_key, search_key, sort_key FROM characters WHERE id = ?",
        (character_id,),
    )
    assert row is not None
    return (row["name_key"], row["search_key"], row["sort_key"])


async def test_every_write_stores_all_three_keys(storage: Storage) -> None:
    created = await storage.characters.create(1, hero("Ménard  d’Arc"))
    assert await stored_keys(storage, created.id) == (
        "ménard d’arc",
        "menard d'arc",
        SORT_SEPARATOR.join(("menard d'arc", "ménard d’arc", "Ménard  d’Arc")),
    )
    updated = await storage.characters.update(1, created, revise_character(created.character, name="Ériel"))
    assert await stored_keys(storage, created.id) == name_columns("Ériel")
    await storage.characters.rename(1, updated, "Ｏｂｌｉｇａｔｏｒ")
    assert await stored_keys(storage, created.id) == name_columns("Ｏｂｌｉｇａｔｏｒ")
    assert name_columns("Ｏｂｌｉｇａｔｏｒ")[:2] == ("obligator", "obligator")


async def test_names_the_same_by_the_one_rule_cannot_both_exist(storage: Storage) -> None:
    vin = await storage.characters.create(1, hero("Vin  Venture"))
    for clash in ("vin venture", "ＶＩＮ ＶＥＮＴＵＲＥ", " Vin\u00a0Venture "):
        with pytest.raises(AlreadyExistsError):
            await storage.characters.create(1, hero(clash))
    assert await storage.characters.get_by_name(1, "VIN VENTURE") == vin
    assert await storage.characters.get_by_name(1, "ｖｉｎ   ｖｅｎｔｕｒｅ") == vin
    await storage.characters.create(2, hero("Vin Venture"))  # another server is free


async def test_search_finds_a_query_anywhere_in_the_name(storage: Storage) -> None:
    await fill(storage, NAMES_IN_PLAY)
    chars = storage.characters

    async def names(query: str, owner_id: int | None = None, limit: int = 25) -> list[str]:
        return [s.name for s in await chars.search(1, query, owner_id=owner_id, limit=limit)]

    assert await names("str") == ["Lord Straff", "Straff Venture"]
    assert await names("menard") == ["Ménard d’Arc"]
    assert await names("D'ARC") == ["Ménard d’Arc"]
    assert await names("ｍéｎａｒｄ") == ["Ménard d’Arc"]
    assert await names("vin") == ["Vin", "Avin", "Kevin"]  # the very name first, then in order
    assert await names("") == sorted(NAMES_IN_PLAY, key=sort_key)
    assert await names("", limit=3) == ["Avin", "Ériel", "Kevin"]
    assert await names("vin", owner_id=1) == ["Vin", "Kevin"]
    assert await names("nobody") == []


async def test_find_picks_the_very_name_else_every_match(storage: Storage) -> None:
    await fill(storage, NAMES_IN_PLAY)
    chars = storage.characters

    async def names(query: str, owner_id: int | None = None, limit: int = 25) -> list[str]:
        return [s.name for s in await chars.find(1, query, owner_id=owner_id, limit=limit)]

    assert await names("VIN") == ["Vin"]
    assert await names(" vin ") == ["Vin"]
    assert await names("ｖｉｎ") == ["Vin"]
    assert await names("straff") == ["Lord Straff", "Straff Venture"]  # which one did you mean?
    assert await names("menard") == ["Ménard d’Arc"]
    assert await names("Kelsier") == []
    assert await names("vin", owner_id=1) == ["Vin"]
    assert await names("vin", owner_id=0) == ["Avin"]  # Vin is not theirs: any name holding "vin"
    assert await names("", limit=2) == ["Avin", "Ériel"]
    (summary,) = await chars.find(1, "obligator")
    assert (summary.name, summary.kind, summary.owner_id) == ("Obligator", CharacterKind.HERO, 1)


async def test_lists_are_in_the_order_people_expect(storage: Storage) -> None:
    await fill(storage, ["Obligator", "Adá", "Ériel", "ada", "Elend", "zane"])
    assert [s.name for s in await storage.characters.list_by_guild(1)] == [
        "ada",
        "Adá",  # the same letters as "ada" once accents go, so it sits right beside it
        "Elend",
        "Ériel",
        "Obligator",
        "zane",
    ]
    assert [s.name for s in await storage.characters.list_by_guild(1, owner_id=1)] == ["ada", "Adá", "zane"]


def test_sql_order_and_picking_agree_with_rules_naming(tmp_path: Path) -> None:
    guilds = itertools.count(1)
    with asyncio.Runner() as runner:
        storage = runner.run(Storage.open(tmp_path / "names.sqlite3"))

        async def agree(typed: list[str], query: str) -> None:
            guild_id = next(guilds)
            names = [hero(name).name for name in typed]  # as the sheet keeps them: trimmed
            await fill(storage, names, guild_id)
            listed = [s.name for s in await storage.characters.list_by_guild(guild_id)]
            assert listed == sorted(names, key=sort_key)
            found = [s.name for s in await storage.characters.find(guild_id, query)]
            assert found == find_named(query, names, lambda name: name)

        unique = st.lists(NAMES, max_size=8, unique_by=lambda name: name_columns(name)[0])

        @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(names=unique, query=st.one_of(NAMES, st.sampled_from(["", "a", "é", "ss", "ß"])))
        def check(names: list[str], query: str) -> None:
            runner.run(agree(names, query))

        try:
            check()
        finally:
            runner.run(storage.close())


@pytest.mark.parametrize("crowd", [LOOP_SEARCH - len(NAMES_IN_PLAY), LOOP_SEARCH + 1])
async def test_a_search_answers_alike_on_the_loop_and_on_a_reader(storage: Storage, crowd: int) -> None:
    """A server of few sheets is searched on the loop's lookup connection, a larger one on a
    reader (``CharacterRepository._searcher``); either way a search finds the same names."""
    extras = [f"Extra {i:03}" for i in range(crowd)]
    await fill(storage, NAMES_IN_PLAY + extras)
    everyone = sorted(NAMES_IN_PLAY + extras, key=sort_key)
    if not storage.postgres:
        lookup = storage.sqlite.lookup
        before = lookup.answered_here
    found = [s.name for s in await storage.characters.search(1, "vin")]
    assert found == ["Vin", "Avin", "Kevin"]
    assert [s.name for s in await storage.characters.search(1, "")] == everyone[:25]
    assert [s.name for s in await storage.characters.search(1, "extra 0", limit=5)] == extras[:5]
    assert [s.name for s in await storage.characters.find(1, "straff")] == ["Lord Straff", "Straff Venture"]
    assert await storage.characters.search(1, "nobody") == []
    if not storage.postgres:
        searched_here = lookup.answered_here - before > 5  # the counts, and the searches
        assert searched_here == (len(everyone) <= LOOP_SEARCH)
