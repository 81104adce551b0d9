"""A guild's rows are invisible to, and untouchable by, every call made for another guild."""

import pytest

from rules.character import Character, CharacterKind, revise_character
from storage import GuildSettings, NotFoundError, RollStats, Storage
from tests.storage.test_rolls import roll

A, B = 1, 2
USER = 7
VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=USER)


async def test_guild_b_cannot_see_or_touch_guild_a(storage: Storage) -> None:
    vin = await storage.characters.create(A, VIN)
    await storage.active.set(A, USER, vin.id)
    await storage.rolls.append(roll(guild_id=A, user_id=USER))
    await storage.settings.set(A, GuildSettings(narrator_role_ids=(1,), gm_channel_id=2))
    conflict = await storage.conflicts.create(A, 100, "{}")

    chars = storage.characters
    with pytest.raises(NotFoundError):
        await chars.get(B, vin.id)
    with pytest.raises(NotFoundError):
        await chars.get_by_name(B, "Vin")
    assert await chars.list_by_guild(B) == []
    assert await chars.list_by_guild(B, owner_id=USER) == []
    assert await chars.search(B, "") == []
    assert await chars.search(B, "v", owner_id=USER) == []
    with pytest.raises(NotFoundError):
        await chars.update(B, vin, revise_character(VIN, notes="hijacked"))
    with pytest.raises(NotFoundError):
        await chars.rename(B, vin, "Hijacked")
    with pytest.raises(NotFoundError):
        await chars.delete(B, vin.id)
    with pytest.raises(NotFoundError):
        await storage.active.set(B, USER, vin.id)
    assert await storage.active.get(B, USER) is None
    await storage.active.clear(B, USER)

    assert await storage.rolls.recent(B) == []
    assert await storage.rolls.recent(B, user_id=USER) == []
    assert await storage.rolls.stats(B) == RollStats()
    assert await storage.rolls.stats(B, user_id=USER) == RollStats()
    assert await storage.rolls.stats_by_user(B) == {}

    assert await storage.settings.get(B) == GuildSettings()
    assert await storage.conflicts.get(B, 100) is None
    with pytest.raises(NotFoundError):
        await storage.conflicts.save(B, conflict, "hijacked")
    with pytest.raises(NotFoundError):
        await storage.conflicts.delete(B, 100)
    with pytest.raises(NotFoundError):
        await storage.conflicts.delete(B, 100, expected=conflict)

    # Guild A is exactly as it was, and guild B may use the same names and channels.
    assert await chars.get(A, vin.id) == vin
    assert await storage.active.get(A, USER) == vin
    assert len(await storage.rolls.recent(A)) == 1
    assert await storage.conflicts.get(A, 100) == conflict
    their_vin = await chars.create(B, VIN)
    await storage.conflicts.create(B, 100, "{}")
    assert await chars.get_by_name(A, "vin") == vin
    assert await chars.get_by_name(B, "vin") == their_vin
