"""The outbox and the boards' versions: queued with a move, settled once, found again at start."""

from collections.abc import Mapping
from datetime import timedelta

import pytest

from bot.cogs.conflict.transaction import run_transition, start_conflict
from rules.character import Character, CharacterKind
from rules.conflict import Command, Conflict, End, Join
from storage import MessageKind, NewMessage, Storage
from storage.conflict_documents import DOCUMENTS, load_stored
from storage.errors import NotFoundError
from storage.sql import utc_now

GUILD, CHANNEL = 1, 10


def message(text: str, *, action: int | None = None, interaction: int | None = None) -> NewMessage:
    return NewMessage(
        kind=MessageKind.OUTCOME,
        payload={"content": text, "embeds": [{"title": text}], "allowed_mentions": {"parse": []}},
        action_id=action,
        interaction_id=interaction,
    )


async def test_rows_keep_their_order_payload_and_nonce(storage: Storage) -> None:
    first, second = await storage.outbox.add(GUILD, CHANNEL, 7, [message("one", action=3), message("two")])
    assert first.id < second.id
    assert first.nonce == f"mab{first.id}" and len(first.nonce) <= 25
    assert (first.conflict_id, first.action_id, first.kind) == (7, 3, MessageKind.OUTCOME)
    waiting = await storage.outbox.waiting(GUILD, CHANNEL)
    assert [m.payload["content"] for m in waiting] == ["one", "two"]
    assert waiting == [first, second]
    assert await storage.outbox.waiting_channels() == [(GUILD, CHANNEL)]


async def test_a_row_is_delivered_once_and_then_leaves_the_queue(storage: Storage) -> None:
    [row] = await storage.outbox.add(GUILD, CHANNEL, None, [message("one", interaction=99)])
    assert await storage.outbox.delivered(row.id, 555)
    assert not await storage.outbox.delivered(row.id, 556)  # already settled: the first id stays
    stored = await storage.outbox.get(row.id)
    assert stored is not None and stored.settled and stored.message_id == 555
    assert await storage.outbox.waiting(GUILD, CHANNEL) == []
    assert await storage.outbox.waiting_channels() == []


async def test_an_attempt_is_noted_once_before_the_post(storage: Storage) -> None:
    [row] = await storage.outbox.add(GUILD, CHANNEL, None, [message("one")])
    await storage.outbox.attempted(row.id)
    first = await storage.outbox.get(row.id)
    await storage.outbox.attempted(row.id)
    again = await storage.outbox.get(row.id)
    assert first is not None and again is not None
    assert first.attempted_at is not None and again.attempted_at == first.attempted_at
    assert not again.settled


async def test_a_gone_channel_settles_its_rows_with_the_reason(storage: Storage) -> None:
    await storage.outbox.add(GUILD, CHANNEL, None, [message("one"), message("two")])
    [other] = await storage.outbox.add(GUILD, CHANNEL + 1, None, [message("elsewhere")])
    assert await storage.outbox.failed(GUILD, CHANNEL, "Unknown Channel") == 2
    assert await storage.outbox.waiting(GUILD, CHANNEL) == []
    assert await storage.outbox.waiting(GUILD, CHANNEL + 1) == [other]


async def test_the_latest_prompt_of_an_action_is_found(storage: Storage) -> None:
    old, _ = await storage.outbox.add(
        GUILD, CHANNEL, 7, [message("ask", action=3), message("other", action=4)]
    )
    [again] = await storage.outbox.add(GUILD, CHANNEL, 7, [message("ask again", action=3)])
    assert await storage.outbox.latest_prompt(7, 3) == again
    assert old != again
    assert await storage.outbox.latest_prompt(7, 5) is None
    assert await storage.outbox.latest_prompt(8, 3) is None


async def test_pruning_keeps_waiting_rows_and_live_prompts(storage: Storage) -> None:
    alive = await storage.conflicts.create(GUILD, CHANNEL, "{}")
    rows = await storage.outbox.add(
        GUILD, CHANNEL, alive.id, [message("said"), message("asked", action=1), message("unsent")]
    )
    [ended] = await storage.outbox.add(GUILD, CHANNEL + 1, alive.id + 1, [message("old ask", action=1)])
    for row in (rows[0], rows[1], ended):
        await storage.outbox.delivered(row.id, row.id + 1000)
    assert await storage.outbox.prune(utc_now() - timedelta(days=1)) == 0  # nothing old enough
    assert await storage.outbox.prune(utc_now() + timedelta(seconds=1)) == 2
    left = [await storage.outbox.get(row.id) for row in (*rows, ended)]
    assert [row is not None for row in left] == [False, True, True, False]


async def test_a_move_queues_its_messages_in_its_own_transaction(storage: Storage) -> None:
    """The rows commit with the state, and a refused move queues nothing."""
    vin = await storage.characters.create(GUILD, Character(name="Vin", kind=CharacterKind.HERO, owner_id=5))
    thug = await storage.characters.create(
        GUILD, Character(name="Thug", kind=CharacterKind.VILLAIN, owner_id=6)
    )
    joins = (Join(character_id=vin.id), Join(character_id=thug.id))

    started = await start_conflict(
        storage, GUILD, CHANNEL, "physical", "A brawl", joins, messages=[message("begins")]
    )
    assert [m.payload["content"] for m in started.messages] == ["begins"]
    assert started.characters.keys() == {vin.id, thug.id}
    ended = await run_transition(storage, GUILD, CHANNEL, End(), messages=[message("ends")])
    assert ended.stored is None and ended.conflict_id == started.conflict_id
    assert [m.payload["content"] for m in await storage.outbox.waiting(GUILD, CHANNEL)] == ["begins", "ends"]

    def refuse(state: Conflict, sheets: Mapping[int, Character]) -> Command:
        raise RuntimeError("rendering failed")

    again = await start_conflict(storage, GUILD, CHANNEL, "physical", "Round two", joins)
    with pytest.raises(RuntimeError, match="rendering failed"):
        await run_transition(storage, GUILD, CHANNEL, refuse, messages=[message("refused")])
    assert await storage.conflicts.get(GUILD, CHANNEL) == again.stored  # nothing was written
    assert len(await storage.outbox.waiting(GUILD, CHANNEL)) == 2
    with pytest.raises(NotFoundError):
        await run_transition(storage, GUILD, CHANNEL + 5, End(), messages=[message("nowhere")])


async def test_a_stored_document_is_parsed_once(storage: Storage) -> None:
    document = '{"schema_version": 2, "channel_id": 10, "type": "physical", "stakes": "x"}'
    stored = await storage.conflicts.create(GUILD, CHANNEL, document)
    first = load_stored(stored)
    assert load_stored(stored) is first


async def test_only_a_channels_newest_document_is_kept(storage: Storage) -> None:
    """A hit is always the text's own state; a channel's older document is parsed anew."""
    older = '{"schema_version": 2, "channel_id": 10, "type": "physical", "stakes": "x"}'
    newer = older.replace('"x"', '"y"')
    stored = await storage.conflicts.create(GUILD, CHANNEL, older)
    first = load_stored(stored)
    saved = await storage.conflicts.save(GUILD, stored, newer)
    assert load_stored(saved).stakes == "y"
    assert load_stored(saved) is load_stored(saved)
    again = load_stored(stored)  # the older text: parsed again, the same state by value
    assert again == first and again is not first
    elsewhere = DOCUMENTS.load(11, older.replace('"channel_id": 10', '"channel_id": 11'))
    assert elsewhere.channel_id == 11 and load_stored(stored) is again


async def test_boards_know_which_conflict_and_version_they_show(storage: Storage) -> None:
    running = await storage.conflicts.create(GUILD, CHANNEL, "{}")
    # Each mark reads back the Conflict as saved, which the board worker checks what it drew against.
    assert await storage.boards.set(GUILD, CHANNEL, 100, conflict_id=running.id, version=1) == (running.id, 1)
    row = await storage.boards.row(GUILD, CHANNEL)
    assert row is not None and row.shows(running.id, 1) and not row.shows(running.id, 2)
    moved = await storage.conflicts.save(GUILD, running, "{}")
    assert await storage.boards.shown(GUILD, CHANNEL, 100, running.id, 3) == (running.id, moved.version)
    # a late refresh never goes back, and still reads what is saved
    assert await storage.boards.shown(GUILD, CHANNEL, 100, running.id, 2) == (running.id, moved.version)
    row = await storage.boards.row(GUILD, CHANNEL)
    assert row is not None and row.rendered_version == 3
    await storage.boards.shown(GUILD, CHANNEL, 999, running.id, 9)  # not this board's message
    assert (await storage.boards.row(GUILD, CHANNEL)) == row
    [live] = await storage.conflicts.live()
    assert live.stored == moved and live.board == row
    assert await storage.boards.orphans() == []
    await storage.boards.set(GUILD, CHANNEL + 1, 200, conflict_id=running.id + 1, version=4)
    [orphan] = await storage.boards.orphans()
    assert (orphan.channel_id, orphan.message_id) == (CHANNEL + 1, 200)


async def test_live_conflicts_come_in_pages_across_servers(storage: Storage) -> None:
    made = [await storage.conflicts.create(guild, CHANNEL, "{}") for guild in range(1, 8)]
    first = await storage.conflicts.live(limit=3)
    rest = await storage.conflicts.live(after_id=first[-1].stored.id, limit=10)
    assert [c.stored for c in first + rest] == made
    assert all(c.board is None for c in first + rest)
