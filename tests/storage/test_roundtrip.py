"""Any valid sheet comes back from the database exactly as it went in."""

import asyncio
import itertools
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from rules.character import Character, revise_character
from rules.naming import name_key
from storage import Storage
from tests.storage.strategies import NAMES, characters


def test_characters_round_trip(tmp_path: Path) -> None:
    guilds = itertools.count(1)
    with asyncio.Runner() as runner:
        storage = runner.run(Storage.open(tmp_path / "roundtrip.sqlite3"))

        async def round_trip(character: Character, other: Character) -> None:
            guild_id = next(guilds)
            created = await storage.characters.create(guild_id, character)
            assert (await storage.characters.get(guild_id, created.id)).character == character
            assert (await storage.characters.get_by_name(guild_id, character.name)) == created
            assert (await storage.characters.get_by_name(guild_id, name_key(character.name))) == created
            found = await storage.characters.search(guild_id, character.name)
            assert [s.id for s in found] == [created.id]
            changed = revise_character(other, name=character.name)
            updated = await storage.characters.update(guild_id, created, changed)
            assert await storage.characters.get(guild_id, created.id) == updated
            assert updated.character == changed
            assert await storage.characters.list_by_guild(guild_id) == [updated]

        @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(character=characters(), other=characters())
        def check(character: Character, other: Character) -> None:
            runner.run(round_trip(character, other))

        try:
            check()
        finally:
            runner.run(storage.close())


@settings(max_examples=300, deadline=None)
@given(name=NAMES)
def test_name_key_is_stable(name: str) -> None:
    assert name_key(name_key(name)) == name_key(name)
