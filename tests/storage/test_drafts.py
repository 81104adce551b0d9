"""Heroes in the making (docs/rulings.md §6.10): one per member per server, kept across a
reopen, versioned, and gone after a week unused."""

from datetime import timedelta
from pathlib import Path

import pytest

from rules.character.draft import KEPT_FOR, new_draft, with_concept
from storage import AlreadyExistsError, NotFoundError, StaleWriteError, Storage
from storage.sql import execute, to_text, utc_now

GUILD = 1


async def age(storage: Storage, draft_id: int, by: timedelta) -> None:
    """Make a draft look untouched for ``by``."""
    async with storage.database.writing() as conn:
        await execute(
            conn, "UPDATE hero_drafts SET updated_at = ? WHERE id = ?", (to_text(utc_now() - by), draft_id)
        )


async def test_a_draft_is_kept_across_a_reopen(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage:
        started = await storage.drafts.start(GUILD, 7, new_draft("Vin", 7))
        saved = await storage.drafts.save(started, with_concept(started.draft, "Vin", "Street urchin"))
    async with await Storage.open(db_path) as storage:
        found = await storage.drafts.of_member(GUILD, 7)
        assert found == saved and found.version == 2 and found.draft.concept == "Street urchin"
        assert await storage.drafts.get(GUILD, started.id) == saved


async def test_one_draft_per_member_per_server(storage: Storage) -> None:
    await storage.drafts.start(GUILD, 7, new_draft("Vin", 7))
    with pytest.raises(AlreadyExistsError, match="already making a Hero"):
        await storage.drafts.start(GUILD, 7, new_draft("Spook", 7))
    other_server = await storage.drafts.start(GUILD + 1, 7, new_draft("Spook", 7))
    assert await storage.drafts.of_member(GUILD, 8) is None
    with pytest.raises(NotFoundError, match="Start again with /character create"):
        await storage.drafts.get(GUILD, other_server.id)


async def test_a_stale_copy_is_not_saved_and_a_deleted_draft_is_gone(storage: Storage) -> None:
    started = await storage.drafts.start(GUILD, 7, new_draft("Vin", 7))
    await storage.drafts.save(started, with_concept(started.draft, "Vin", "First"))
    with pytest.raises(StaleWriteError, match="another click"):
        await storage.drafts.save(started, with_concept(started.draft, "Vin", "Second"))
    with pytest.raises(StaleWriteError):
        await storage.drafts.delete(started)
    current = await storage.drafts.get(GUILD, started.id)
    await storage.drafts.delete(current)
    with pytest.raises(NotFoundError):
        await storage.drafts.get(GUILD, started.id)
    with pytest.raises(NotFoundError):
        await storage.drafts.save(current, current.draft)
    again = await storage.drafts.start(GUILD, 7, new_draft("Vin", 7))
    assert again.id > started.id, "a new draft never takes an old one's id"


async def test_a_draft_unused_for_a_week_is_gone(storage: Storage) -> None:
    old = await storage.drafts.start(GUILD, 7, new_draft("Vin", 7))
    recent = await storage.drafts.start(GUILD + 1, 8, new_draft("Spook", 8))
    await age(storage, old.id, KEPT_FOR + timedelta(minutes=1))
    await age(storage, recent.id, KEPT_FOR - timedelta(minutes=1))
    with pytest.raises(NotFoundError):
        await storage.drafts.get(GUILD, old.id)
    assert await storage.drafts.of_member(GUILD, 7) is None, "and using the drafts removes it"
    assert await storage.drafts.purge() == 0
    assert (await storage.drafts.get(GUILD + 1, recent.id)).draft.name == "Spook"
    assert await storage.drafts.purge(utc_now() + timedelta(minutes=2)) == 1


async def test_a_document_that_no_longer_reads_is_gone(storage: Storage) -> None:
    started = await storage.drafts.start(GUILD, 7, new_draft("Vin", 7))
    async with storage.database.writing() as conn:
        await execute(conn, "UPDATE hero_drafts SET document = '{\"name\": 3}' WHERE id = ?", (started.id,))
    with pytest.raises(NotFoundError):
        await storage.drafts.get(GUILD, started.id)
    assert await storage.drafts.of_member(GUILD, 7) is None
    assert (await storage.drafts.start(GUILD, 7, new_draft("Vin", 7))).id > started.id
