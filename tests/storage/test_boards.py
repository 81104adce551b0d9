"""The Conflict board's message id per channel."""

from pathlib import Path

from storage import Storage


async def test_board_ids_are_kept_per_guild_and_channel(tmp_path: Path) -> None:
    path = tmp_path / "boards.sqlite3"
    async with await Storage.open(path) as storage:
        assert await storage.boards.get(1, 10) is None
        await storage.boards.set(1, 10, 100)
        await storage.boards.set(1, 10, 101)
        await storage.boards.set(2, 10, 200)
    async with await Storage.open(path) as storage:
        assert await storage.boards.get(1, 10) == 101
        assert await storage.boards.get(2, 10) == 200
        assert await storage.boards.get(1, 11) is None
        await storage.boards.clear(1, 10)
        assert await storage.boards.get(1, 10) is None and await storage.boards.get(2, 10) == 200
