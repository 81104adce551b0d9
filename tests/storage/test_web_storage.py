"""``storage.web``: one shared secret, links used once, and a change mark that moves on every change."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from rules.character import Character, CharacterKind
from storage import Storage

GUILD, OTHER = 1, 2


async def test_the_secret_is_made_once_and_kept(storage: Storage) -> None:
    first = await storage.web.secret()
    assert len(first) >= 32 and await storage.web.secret() == first


async def test_a_link_is_used_once(storage: Storage) -> None:
    soon = datetime.now(UTC) + timedelta(minutes=15)
    assert await storage.web.use_link("abc", soon)
    assert not await storage.web.use_link("abc", soon)
    assert await storage.web.use_link("def", soon)


async def test_the_mark_moves_on_every_change_and_only_for_its_server(storage: Storage) -> None:
    marks = [await storage.web.mark(GUILD)]
    other = await storage.web.mark(OTHER)

    async def moved() -> None:
        """A page compares each mark with the one it saw last: it must differ after any change."""
        mark = await storage.web.mark(GUILD)
        assert mark != marks[-1]
        marks.append(mark)

    vin = await storage.characters.create(GUILD, Character(name="Vin", kind=CharacterKind.HERO, owner_id=7))
    await moved()
    thug = await storage.characters.create(
        GUILD, Character(name="Thug", kind=CharacterKind.VILLAIN, owner_id=8)
    )
    await moved()
    await storage.characters.update(GUILD, vin, vin.character.model_copy(update={"concept": "urchin"}))
    await moved()
    await storage.characters.set_revealed(GUILD, thug.id, True)
    await moved()
    stored = await storage.conflicts.create(GUILD, 10, "{}")
    await moved()
    await storage.conflicts.save(GUILD, stored, '{"a": 1}')
    await moved()
    await storage.conflicts.delete(GUILD, 10)
    await moved()
    await storage.characters.delete(GUILD, thug.id)
    await moved()
    await storage.settings.add_narrator_role(GUILD, 55)
    await moved()
    assert await storage.web.mark(OTHER) == other
    assert await storage.conflicts.channels_in(GUILD) == []


@pytest.mark.sqlite_only  # reopens the file; on PostgreSQL every process reads the same row anyway
async def test_the_secret_outlives_a_restart(storage: Storage, db_path: Path) -> None:
    first = await storage.web.secret()
    async with await Storage.open(db_path) as reopened:  # another process on the same file
        assert await reopened.web.secret() == first


async def test_a_members_session_generation_rises_on_each_renewal_and_per_member(storage: Storage) -> None:
    assert await storage.web.generation(GUILD, 7) == 0
    assert await storage.web.renew(GUILD, 7) == 1
    assert await storage.web.renew(GUILD, 7) == 2
    assert await storage.web.generation(GUILD, 7) == 2
    assert await storage.web.generation(GUILD, 8) == 0 and await storage.web.generation(OTHER, 7) == 0
