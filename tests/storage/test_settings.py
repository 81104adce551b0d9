import asyncio

from storage import GuildSettings, Storage


async def test_defaults_when_nothing_is_stored(storage: Storage) -> None:
    assert await storage.settings.get(1) == GuildSettings(narrator_role_ids=(), gm_channel_id=None)


async def test_set_then_get_round_trips(storage: Storage) -> None:
    settings = GuildSettings(narrator_role_ids=(30, 10, 30), gm_channel_id=99)
    await storage.settings.set(1, settings)
    assert await storage.settings.get(1) == GuildSettings(narrator_role_ids=(10, 30), gm_channel_id=99)


async def test_set_replaces_the_whole_row(storage: Storage) -> None:
    await storage.settings.set(1, GuildSettings(narrator_role_ids=(5,), gm_channel_id=7))
    await storage.settings.set(1, GuildSettings())
    assert await storage.settings.get(1) == GuildSettings()


async def test_large_discord_ids_survive(storage: Storage) -> None:
    big = 2**63 - 1
    await storage.settings.set(big, GuildSettings(narrator_role_ids=(big,), gm_channel_id=big))
    assert await storage.settings.get(big) == GuildSettings(narrator_role_ids=(big,), gm_channel_id=big)


async def test_settings_are_per_guild(storage: Storage) -> None:
    await storage.settings.set(1, GuildSettings(narrator_role_ids=(5,), gm_channel_id=7))
    assert await storage.settings.get(2) == GuildSettings()


async def test_narrator_roles_change_in_place_and_concurrent_changes_all_land(storage: Storage) -> None:
    await storage.settings.set_gm_channel(1, 7)
    changes = [storage.settings.add_narrator_role(1, role) for role in (30, 10, 20, 30)]
    changes += [storage.settings.set_gm_channel(1, 9)]
    await asyncio.gather(*changes)
    assert await storage.settings.get(1) == GuildSettings(narrator_role_ids=(10, 20, 30), gm_channel_id=9)
    removed = await storage.settings.remove_narrator_role(1, 20)
    assert removed == GuildSettings(narrator_role_ids=(10, 30), gm_channel_id=9)
    assert await storage.settings.remove_narrator_role(1, 99) == removed  # not a Narrator role: no change
    assert await storage.settings.remove_narrator_role(2, 10) == GuildSettings()  # no row: the defaults
    assert await storage.settings.get(2) == GuildSettings()


async def test_large_role_ids_survive_the_json_edits(storage: Storage) -> None:
    big = 2**63 - 1
    assert await storage.settings.add_narrator_role(1, big) == GuildSettings(narrator_role_ids=(big,))
    assert (await storage.settings.add_narrator_role(1, 5)).narrator_role_ids == (5, big)
