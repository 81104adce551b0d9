"""Whom each Secret was told, read for the Narrator's list, and the hold a reveal takes on its
Secret (docs/rulings.md §10.3), on both backends."""

from datetime import UTC, datetime

import pytest

from rules.campaign.secrets import SecretKind, make_secret
from rules.character import Character, CharacterKind
from storage import NotFoundError, Storage

AT = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


async def test_whom_each_secret_was_told_and_a_deleted_one_held(storage: Storage) -> None:
    vin = await storage.characters.create(1, Character(name="Vin", kind=CharacterKind.HERO, owner_id=7))
    hideout = await storage.secrets.add(1, make_secret("The hideout", "Words", SecretKind.STORY), 9, AT)
    well = await storage.secrets.add(1, make_secret("The Well", "Words", SecretKind.STORY), 9, AT)
    untold = await storage.secrets.add(1, make_secret("The Lord Ruler", "Words", SecretKind.STORY), 9, AT)
    await storage.secrets.reveal(1, hideout.id, vin.id, 5, 9, AT)
    await storage.secrets.reveal(1, well.id, None, 5, 9, AT)
    await storage.secrets.reveal(1, well.id, vin.id, 5, 9, AT)
    assert await storage.secrets.told(1) == {
        hideout.id: frozenset({vin.id}),
        well.id: frozenset({None, vin.id}),
    }
    assert await storage.secrets.told(2) == {}
    async with storage.transaction() as tx:
        await tx.secrets.hold(1, untold.id)
    await storage.secrets.delete(1, untold.id)
    with pytest.raises(NotFoundError, match="no longer kept"):
        async with storage.transaction() as tx:
            await tx.secrets.hold(1, untold.id)
