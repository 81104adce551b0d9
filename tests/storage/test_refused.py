"""Refused channels: marked once with Discord's latest reason, read back after a restart, cleared."""

from storage import Storage


async def test_a_mark_keeps_the_latest_reason_and_clearing_says_whether_there_was_one(
    storage: Storage,
) -> None:
    await storage.refused.mark(1, 10, "403 Missing Access (50001)")
    await storage.refused.mark(1, 10, "403 Missing Permissions (50013)")
    await storage.refused.mark(2, 10, "403 Missing Access (50001)")  # another server, same channel id
    marked = {(r.guild_id, r.channel_id): r.reason for r in await storage.refused.all()}
    assert marked == {(1, 10): "403 Missing Permissions (50013)", (2, 10): "403 Missing Access (50001)"}
    assert await storage.refused.clear(1, 10)
    assert not await storage.refused.clear(1, 10)
    assert [(r.guild_id, r.channel_id) for r in await storage.refused.all()] == [(2, 10)]
