"""Migration 6 (docs/rulings.md §7): revealed sheets, table dice, secret rolls and the index of who
is in which live Conflict, kept in step with every save and upgraded from running Conflicts."""

from pathlib import Path

import aiosqlite
import pytest

from bot.cogs.conflict.transaction import end_conflict, run_transition, start_conflict
from rules.character import Character, CharacterKind, make_character
from rules.conflict import Join, Leave, apply, dump_conflict, new_conflict
from storage import GuildSettings, NotFoundError, StaleWriteError, Storage
from storage.migrations import migrate

G, CHANNEL, OTHER_CHANNEL = 1, 100, 101


def hero(name: str) -> Character:
    return make_character(name=name, kind=CharacterKind.HERO, owner_id=7)


async def two_heroes(storage: Storage) -> tuple[int, int]:
    vin = await storage.characters.create(G, hero("Vin"))
    elend = await storage.characters.create(G, hero("Elend"))
    return vin.id, elend.id


async def test_the_index_follows_every_save_and_the_end(storage: Storage) -> None:
    vin, elend = await two_heroes(storage)
    await start_conflict(storage, G, CHANNEL, "physical", "stakes", [Join(character_id=vin)])
    assert await storage.conflicts.channels_of(G, vin) == [CHANNEL]
    assert await storage.conflicts.channels_of(G, elend) == []
    await run_transition(storage, G, CHANNEL, Join(character_id=elend))
    assert await storage.conflicts.channels_of(G, elend) == [CHANNEL]
    await run_transition(storage, G, CHANNEL, Leave(participant=vin))
    assert await storage.conflicts.channels_of(G, vin) == []
    await end_conflict(storage, G, CHANNEL)
    assert await storage.conflicts.channels_of(G, elend) == []
    assert await storage.conflicts.channels_of(G + 1, elend) == []


async def test_a_stale_save_leaves_the_index_as_it_was(storage: Storage) -> None:
    vin, elend = await two_heroes(storage)
    created = await storage.conflicts.create(G, CHANNEL, "v1", participants=[vin])
    await storage.conflicts.save(G, created, "v2", participants=[vin])
    with pytest.raises(StaleWriteError):
        await storage.conflicts.save(G, created, "late", participants=[elend])
    assert await storage.conflicts.channels_of(G, vin) == [CHANNEL]
    assert await storage.conflicts.channels_of(G, elend) == []


async def test_a_save_with_the_same_participants_keeps_the_index_and_the_version_check(
    storage: Storage,
) -> None:
    vin, elend = await two_heroes(storage)
    created = await storage.conflicts.create(G, CHANNEL, "v1", participants=[vin, elend])
    saved = await storage.conflicts.save(G, created, "v2", participants=None)
    assert (saved.version, saved.document) == (2, "v2")
    assert await storage.conflicts.get(G, CHANNEL) == saved
    with pytest.raises(StaleWriteError):
        await storage.conflicts.save(G, created, "late", participants=None)
    assert await storage.conflicts.channels_of(G, vin) == [CHANNEL]
    assert await storage.conflicts.channels_of(G, elend) == [CHANNEL]


async def test_running_conflicts_are_indexed_by_the_migration(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(db_path, isolation_level=None)
    await conn.execute("PRAGMA foreign_keys = ON")
    await migrate(conn, target=5)
    sheets = {5: hero("Vin"), 6: hero("Elend")}
    state = new_conflict(CHANNEL, "physical", "stakes")
    for cid in sheets:
        state = apply(state, Join(character_id=cid), sheets).state
    for channel, document in ((CHANNEL, dump_conflict(state)), (OTHER_CHANNEL, "{}")):
        await conn.execute(
            "INSERT INTO conflicts (guild_id, channel_id, version, updated_at, document)"
            " VALUES (?, ?, 1, '2024-01-01T00:00:00.000000+00:00', ?)",
            (G, channel, document),
        )
    await conn.close()
    async with await Storage.open(db_path) as storage:
        assert await storage.conflicts.channels_of(G, 5) == [CHANNEL]
        assert await storage.conflicts.channels_of(G, 6) == [CHANNEL]


async def test_revealed_is_beside_the_sheet_and_survives_edits(storage: Storage) -> None:
    made = await storage.characters.create(G, make_character(name="Straff", kind="villain", owner_id=7))
    assert not made.revealed
    await storage.characters.set_revealed(G, made.id, True)
    shown = await storage.characters.get(G, made.id)
    assert shown.revealed and shown.version == made.version  # not a change to the sheet
    renamed = await storage.characters.rename(G, shown, "Lord Straff")
    assert renamed.revealed and (await storage.characters.get(G, made.id)).revealed
    assert "revealed" not in shown.character.model_dump_json()
    with pytest.raises(NotFoundError):
        await storage.characters.set_revealed(G + 1, made.id, True)


async def test_table_dice_are_off_until_turned_on(storage: Storage) -> None:
    assert not (await storage.settings.get(G)).table_dice
    await storage.settings.set(G, GuildSettings(table_dice=True))
    assert (await storage.settings.get(G)).table_dice
    assert not (await storage.settings.get(G + 1)).table_dice
