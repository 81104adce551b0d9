"""The rules of bot.access on plain data: control, secrecy, honest dice and the plain states
(docs/rulings.md §6.9, §7), and that their SQL forms in storage pick exactly the same rows;
so does bot.reach's rule of where a member reads (§7.6)."""

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.access import Caller
from bot.reach import reads, reads_channel, table_reach
from bot.secrecy import PlainState, is_secret, plain_state, visibility_of
from rules.burdens import Severity
from rules.character import Character, CharacterKind, make_character
from rules.conflict import Join, apply, new_conflict
from rules.journal import EntryKind, JournalEntry
from storage import RollRecord, Storage
from storage.places import Origin, Reach

GUILD, PLAYER, OTHER, FORMER = 1, 10, 11, 12
T0 = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
NARRATOR = Caller(guild_id=GUILD, user_id=99, narrator=True)
PLAYER_CALLER = Caller(guild_id=GUILD, user_id=PLAYER, narrator=False)
FORMER_CALLER = Caller(guild_id=GUILD, user_id=FORMER, narrator=False)


def sheet(kind: CharacterKind, owner: int, **fields: Any) -> Character:
    return make_character(
        name=f"{kind.value}-{owner}",
        kind=kind,
        owner_id=owner,
        attributes={"physique": 4, "charm": 2, "wits": 2},
        **fields,
    )


HERO = sheet(CharacterKind.HERO, PLAYER)
OTHERS_HERO = sheet(CharacterKind.HERO, OTHER)
VILLAIN = sheet(CharacterKind.VILLAIN, FORMER)  # made by a Narrator who has since lost the role


@pytest.mark.parametrize(
    ("caller", "character", "controls"),
    [
        (PLAYER_CALLER, HERO, True),
        (PLAYER_CALLER, OTHERS_HERO, False),
        (PLAYER_CALLER, VILLAIN, False),
        (FORMER_CALLER, VILLAIN, False),  # the recorded creator controls nothing now
        (NARRATOR, HERO, True),
        (NARRATOR, VILLAIN, True),
    ],
)
def test_control_follows_the_role(caller: Caller, character: Character, controls: bool) -> None:
    assert caller.controls(character) is controls


@pytest.mark.parametrize(
    ("caller", "character", "revealed", "reads"),
    [
        (PLAYER_CALLER, OTHERS_HERO, False, True),
        (PLAYER_CALLER, VILLAIN, False, False),
        (PLAYER_CALLER, VILLAIN, True, True),
        (FORMER_CALLER, VILLAIN, False, False),
        (NARRATOR, VILLAIN, False, True),
    ],
)
def test_who_reads_a_sheet(caller: Caller, character: Character, revealed: bool, reads: bool) -> None:
    assert caller.can_read(character, revealed) is reads
    assert is_secret(character.kind, revealed) is (character.kind is not CharacterKind.HERO and not revealed)


@pytest.mark.parametrize(
    ("caller", "roller", "table_dice", "allowed"),
    [
        (PLAYER_CALLER, HERO, False, False),
        (PLAYER_CALLER, HERO, True, True),
        (PLAYER_CALLER, OTHERS_HERO, True, False),
        (PLAYER_CALLER, VILLAIN, True, False),
        (PLAYER_CALLER, None, True, False),
        (NARRATOR, VILLAIN, False, True),
        (NARRATOR, HERO, False, True),
    ],
)
def test_who_types_faces(caller: Caller, roller: Character | None, table_dice: bool, allowed: bool) -> None:
    assert caller.may_type_faces(roller, table_dice) is allowed


def hurt(character: Character, **damage: int) -> Character:
    return character.model_copy(update={"damage": character.damage.model_copy(update=damage)})


def burdened(character: Character, severity: Severity) -> Character:
    return make_character(
        **{**character.model_dump(), "burdens": [{"name": "Cut", "severity": severity.value}]}
    )


GROUP = sheet(CharacterKind.EXTRA, FORMER, size=4)


@pytest.mark.parametrize(
    ("character", "state"),
    [
        (VILLAIN, PlainState.UNHURT),  # Health 6, Reputation 4, Willpower 4
        (hurt(VILLAIN, health=1), PlainState.WOUNDED),
        (burdened(VILLAIN, Severity.SERIOUS), PlainState.WOUNDED),
        (hurt(VILLAIN, health=3), PlainState.GRAVELY_WOUNDED),  # 3 of 6 left: half
        (hurt(VILLAIN, reputation=2), PlainState.GRAVELY_WOUNDED),
        (burdened(VILLAIN, Severity.GRAVE), PlainState.GRAVELY_WOUNDED),
        (burdened(VILLAIN, Severity.MORTAL), PlainState.GRAVELY_WOUNDED),
        (hurt(VILLAIN, willpower=4), PlainState.DEFEATED),
        (GROUP, PlainState.UNHURT),
        (GROUP.model_copy(update={"members_down": 1}), PlainState.WOUNDED),
        (GROUP.model_copy(update={"members_down": 2}), PlainState.GRAVELY_WOUNDED),
        (GROUP.model_copy(update={"members_down": 4}), PlainState.DEFEATED),
    ],
)
def test_plain_states(character: Character, state: PlainState) -> None:
    """docs/rulings.md §7.1: the thresholds players see instead of numbers."""
    assert plain_state(character) is state


def test_the_public_view_hides_secret_participants_and_keeps_defeat() -> None:
    sheets = {1: HERO, 2: VILLAIN, 3: OTHERS_HERO.model_copy(update={"kind": CharacterKind.VILLAIN})}
    conflict = new_conflict(100, "physical", "stakes")
    for cid in sheets:
        conflict = apply(conflict, Join(character_id=cid), sheets).state
    defeated = conflict.participant(2).model_copy(update={"defeated": True})
    conflict = conflict.with_participant(defeated)
    view = visibility_of(conflict, sheets, revealed={3})
    assert view.shows(1) and not view.shows(2) and view.shows(3)
    assert view.state(2) == "defeated"  # in the Conflict stays defeated, whatever the sheet says


def test_the_view_is_worked_out_again_when_a_sheet_or_what_is_revealed_changes() -> None:
    """A move's visibility is worked out once and reused for the same objects only: a new sheet
    object (a villain hurt) or a new reveal gives a new answer."""
    sheets = {1: HERO, 2: VILLAIN}
    conflict = new_conflict(100, "physical", "stakes")
    for cid in sheets:
        conflict = apply(conflict, Join(character_id=cid), sheets).state
    first = visibility_of(conflict, sheets, frozenset())
    assert visibility_of(conflict, dict(sheets), set()) is first  # same objects: the same answer
    hurt_villain = {**sheets, 2: hurt(VILLAIN, health=1)}
    assert visibility_of(conflict, hurt_villain, frozenset()).state(2) != first.state(2)
    assert visibility_of(conflict, sheets, {2}).shows(2) and not first.shows(2)


ROLLS = [(user, secret) for user in (PLAYER, OTHER, 99) for secret in (False, True)]


@pytest.mark.parametrize("caller", [PLAYER_CALLER, NARRATOR, FORMER_CALLER])
async def test_the_roll_query_picks_what_can_see_roll_allows(tmp_path: Path, caller: Caller) -> None:
    """The SQL form (``roll_viewer``) and the rule (``can_see_roll``) agree, row by row."""
    async with await Storage.open(tmp_path / "db.sqlite3") as storage:
        for user, secret in ROLLS:
            await storage.rolls.append(
                RollRecord(
                    guild_id=GUILD,
                    user_id=user,
                    at=datetime.now(UTC),
                    label=f"{user}-{secret}",
                    dice=2,
                    free_nudges=0,
                    underflow=0,
                    difficulty=1,
                    faces=(3, 3),
                    result=3,
                    outcome=2,
                    success=True,
                    secret=secret,
                )
            )
        every = await storage.rolls.recent(GUILD, limit=100)
        seen = await storage.rolls.recent(GUILD, limit=100, viewer=caller.roll_viewer)
        assert seen == [r for r in every if caller.can_see_roll(r)]
        stats = await storage.rolls.stats(GUILD, viewer=caller.roll_viewer)
        assert stats.rolls == len(seen) and stats.secret == sum(r.secret for r in seen)


@pytest.mark.parametrize("caller", [PLAYER_CALLER, NARRATOR])
async def test_the_sheet_query_picks_what_can_read_allows(tmp_path: Path, caller: Caller) -> None:
    async with await Storage.open(tmp_path / "db.sqlite3") as storage:
        for index, (kind, revealed) in enumerate(
            [(k, r) for k in CharacterKind for r in (False, True)], start=1
        ):
            made = make_character(name=f"Name {index}", kind=kind, owner_id=FORMER)
            stored = await storage.characters.create(GUILD, made)
            await storage.characters.set_revealed(GUILD, stored.id, revealed)
        every = await storage.characters.summaries(GUILD)
        public_only = not caller.reads_secret_sheets
        listed = await storage.characters.summaries(GUILD, public_only=public_only)
        assert listed == [c for c in every if caller.can_read(c, c.revealed)]
        found = await storage.characters.search(GUILD, "name", public_only=public_only)
        assert found == [c for c in every if caller.can_read(c, c.revealed)]


TABLE, OOC, THREAD, OTHER_THREAD = 500, 501, 600, 601
SAID = [
    Origin(channel_id=channel, private_thread_id=thread, actor_id=PLAYER)
    for channel in (TABLE, OOC)
    for thread in (None, THREAD, OTHER_THREAD)
]
REACHES = [
    None,  # a Narrator
    Reach(),  # Discord could not say
    Reach(channels=frozenset({TABLE})),
    Reach(channels=frozenset({TABLE, OOC}), threads=frozenset({THREAD})),
    Reach(channels=frozenset({OOC}), threads=frozenset({THREAD, OTHER_THREAD})),
    table_reach(TABLE),
]


def told(n: int, said: Origin) -> JournalEntry:
    text = f"{n}: {said.channel_id}/{said.private_thread_id}"
    return JournalEntry(
        at=T0 + timedelta(seconds=n), kind=EntryKind.ROLL, text=text, public=text, character_id=7
    )


@pytest.mark.parametrize("reach", REACHES)
async def test_the_journal_queries_pick_what_reads_allows(tmp_path: Path, reach: Reach | None) -> None:
    """docs/rulings.md §7.6: the SQL form (``storage.places.reach_clause``) and the rule
    (``bot.reach.reads``) agree, row by row, in a session, a character's story and the list."""
    async with await Storage.open(tmp_path / "db.sqlite3") as storage:
        rows = [(said, told(n, said)) for n, said in enumerate(SAID)]
        for said, entry in rows:
            await storage.journal.add(GUILD, said, [entry])
        sessions = [await storage.journal.start(GUILD, channel, "Night", 99, T0) for channel in (TABLE, OOC)]
        story = await storage.journal.of_character(GUILD, 7, reach=reach)
        assert [s.entry for s in story] == [entry for said, entry in rows if reads(reach, said)]
        for session in sessions:
            wanted = [e for said, e in rows if said.channel_id == session.channel_id and reads(reach, said)]
            assert await storage.journal.entries(session, reach=reach) == wanted
            assert await storage.journal.all_entries(session, page=1, reach=reach) == wanted
            assert await storage.journal.count(session, reach=reach) == len(wanted)
        listed = await storage.journal.sessions(GUILD, reach=reach)
        assert listed == [s for s in reversed(sessions) if reads_channel(reach, s.channel_id)]


@pytest.mark.parametrize("reach", REACHES)
async def test_the_roll_query_picks_what_reads_allows(tmp_path: Path, reach: Reach | None) -> None:
    async with await Storage.open(tmp_path / "db.sqlite3") as storage:
        places = [(None, None), *((s.channel_id, s.private_thread_id) for s in SAID)]  # None: logged before
        for channel, thread in places:
            record = RollRecord(
                guild_id=GUILD, user_id=PLAYER, at=T0, label=f"{channel}/{thread}", dice=1, free_nudges=0,
                underflow=0, difficulty=1, faces=(3,), result=0, outcome=-1, success=False,
                channel_id=channel, private_thread_id=thread,
            )  # fmt: skip
            await storage.rolls.append(record)
        every = await storage.rolls.recent(GUILD, limit=100)
        assert len(every) == len(places)
        assert await storage.rolls.recent(GUILD, limit=100, reach=reach) == [
            r for r in every if reads(reach, r)
        ]
