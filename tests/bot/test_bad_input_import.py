"""``/character import`` with hostile files, lying attachments and names that are taken.

The file is the one option whose whole content is the user's: it may be anything (not JSON,
nested 60,000 deep, a number with 5,000 digits, another schema, 70 KiB, binary), and the
attachment object may claim any size. Each must be refused with the rules' plain words and
store nothing; a sheet that is fine belongs to whoever imports it unless a Narrator says so.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from fake_discord.payloads import ATTACHMENT_SIZE_LIMIT, Resolved
from fake_discord.world import FakeMember
from rules.character import CharacterKind, export_character, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.seeded_table import member_option, seed_table
from tests.bot.test_bad_input import ATTACHMENT, JSON, LogCatcher, Outcome, Probe, text


def hostile_file(kind: str) -> tuple[bytes, int | None]:
    """A file for ``/character import`` and the size its attachment claims (None: its real size)."""
    good = export_character(make_character(name="Imported Vin", kind=CharacterKind.HERO, owner_id=42))
    data = json.loads(good)
    files: dict[str, tuple[bytes, int | None]] = {
        "good": (good.encode(), None),
        "not json": (b"this is not JSON {", None),
        "deep array": (b"[" * 30_000 + b"]" * 30_000, None),
        "deep object": (b'{"a":' * 10_000 + b"1" + b"}" * 10_000, None),
        "huge number": (good.replace('"physique": 2', '"physique": 1' + "0" * 5000).encode(), None),
        "huge exponent": (good.replace('"physique": 2', '"physique": 1e999999').encode(), None),
        "schema 999": (json.dumps({**data, "schema_version": 999}).encode(), None),
        "schema string": (json.dumps({**data, "schema_version": "1"}).encode(), None),
        "no schema": (json.dumps({k: v for k, v in data.items() if k != "schema_version"}).encode(), None),
        "list": (json.dumps([data]).encode(), None),
        "70 KiB": (good.encode() + b" " * (70 * 1024), None),
        "binary": (bytes(range(256)) * 64, None),
        "utf-16": (good.encode("utf-16"), None),
        "claims 30 MiB": (good.encode(), ATTACHMENT_SIZE_LIMIT + 5 * 1024 * 1024),
        "claims 0, is 70 KiB": (good.encode() + b" " * (70 * 1024), 0),
        "empty": (b"", None),
    }
    return files[kind]


HOSTILE_FILES = [
    "good",
    "not json",
    "deep array",
    "deep object",
    "huge number",
    "huge exponent",
    "schema 999",
    "schema string",
    "no schema",
    "list",
    "70 KiB",
    "binary",
    "utf-16",
    "claims 30 MiB",
    "claims 0, is 70 KiB",
    "empty",
]


def attachment(probe: Probe, resolved: Resolved, kind: str) -> JSON:
    """An ``/character import`` file option whose attachment the fake serves like Discord's CDN."""
    data, claimed = hostile_file(kind)
    found = probe.harness.fake.add_file("sheet.json", data, "application/json")
    if claimed is not None:
        found["size"] = claimed
    return {"type": ATTACHMENT, "name": "file", "value": resolved.add_attachment(found)}


@pytest.fixture
async def probe(bot_env: BotEnv) -> AsyncIterator[Probe]:
    with LogCatcher() as logs:
        probe = Probe(bot_env, log=logs)
        probe.ids = await seed_table(bot_env)
        yield probe


async def import_file(
    probe: Probe,
    kind: str,
    *,
    user: str = "player1",
    name: str | None = None,
    owner: str | FakeMember | None = None,
) -> Outcome:
    resolved = Resolved()
    values = [attachment(probe, resolved, kind)]
    if name is not None:
        values.append(text("name", name))
    if owner is not None:
        values.append(member_option(probe, resolved, owner))
    return await probe.send("character", values, path=["import"], user=user, resolved=resolved)


def sheet_file(probe: Probe, resolved: Resolved, **fields: Any) -> JSON:
    """A well-formed export of a sheet with ``fields``, served as an attachment."""
    fields.setdefault("kind", CharacterKind.HERO)
    data = export_character(make_character(**fields)).encode()
    found = probe.harness.fake.add_file("sheet.json", data, "application/json")
    return {"type": ATTACHMENT, "name": "file", "value": resolved.add_attachment(found)}


EXPECTED = {
    "not json": "not valid JSON",
    "deep array": "not a character sheet",
    "deep object": "not a character sheet",
    "huge number": "not a character sheet",
    "huge exponent": "must be a whole number",
    "schema 999": "version",
    "schema string": "version",
    "no schema": "version",
    "list": "not a character sheet",
    "70 KiB": "64 KiB",
    "binary": "not a character sheet",
    "utf-16": "not a character sheet",
    "claims 30 MiB": "64 KiB",
    "claims 0, is 70 KiB": "64 KiB",
    "empty": "not a character sheet",
}


@pytest.mark.parametrize("kind", [k for k in HOSTILE_FILES if k != "good"])
async def test_hostile_files_are_refused_and_store_nothing(probe: Probe, kind: str) -> None:
    outcome = await import_file(probe, kind)
    assert outcome.refused and outcome.record.ephemeral, outcome.text
    assert EXPECTED[kind] in outcome.record.content, outcome.record.content
    assert len(outcome.record.content) < 400
    probe.check_log()
    await probe.still_works()


async def test_a_file_claiming_more_than_discord_allows_is_never_downloaded(probe: Probe) -> None:
    outcome = await import_file(probe, "claims 30 MiB")
    assert outcome.refused and "64 KiB" in outcome.record.content
    assert not [r for r in probe.harness.fake.requests if r.startswith("GET /files/")]


async def test_an_imported_sheet_belongs_to_the_importer_not_the_file(probe: Probe) -> None:
    outcome = await import_file(probe, "good", user="player2", name="**Tin** @everyone")
    assert not outcome.refused and outcome.record.ephemeral and outcome.record.message is not None
    said = card_text(outcome.record.message)
    assert "\\*\\*Tin\\*\\*" in said and "@everyone" not in said
    stored = await probe.env.storage.characters.get_by_name(probe.env.guild_id, "**Tin** @everyone")
    assert stored.character.owner_id == probe.env.user_id("player2")


@pytest.mark.parametrize(
    ("user", "fields", "name", "owner", "message"),
    [
        ("player2", {"name": "Vin"}, None, None, "already a character named Vin"),
        ("player2", {"name": "Zane"}, "  vin ", None, "already a character named vin"),
        ("narrator", {"name": "VIN"}, None, None, "already a character named VIN"),
        ("player1", {"name": "Zane"}, None, "player2", "Only a Narrator can import a character for"),
        (
            "player1",
            {"name": "Zane", "kind": CharacterKind.VILLAIN},
            None,
            None,
            "Only a Narrator can import",
        ),
        ("player1", {"name": "Zane"}, "x" * 6000, None, "too long"),
        ("player1", {"name": "Zane"}, "  ", None, "cannot be empty"),
    ],
)
async def test_imports_over_a_taken_name_or_for_someone_else_are_refused(
    probe: Probe, user: str, fields: dict[str, Any], name: str | None, owner: str | None, message: str
) -> None:
    """Nobody replaces a sheet by importing one with its name, or plants a sheet on someone else."""
    resolved = Resolved()
    values = [sheet_file(probe, resolved, owner_id=probe.env.user_id(user), **fields)]
    if name is not None:
        values.append(text("name", name))
    if owner is not None:
        values.append(member_option(probe, resolved, owner))
    outcome = await probe.send("character", values, path=["import"], user=user, resolved=resolved)
    assert outcome.refused and message in outcome.record.content, outcome.record.content
    vin = await probe.env.storage.characters.get(probe.env.guild_id, probe.ids["Vin"])
    assert vin.version == 1 and vin.character.owner_id == probe.env.user_id("player1")


async def test_the_bot_cannot_own_an_imported_sheet(probe: Probe) -> None:
    bot = probe.env.world.guild.member(probe.env.world.bot.id)
    outcome = await import_file(probe, "good", user="narrator", owner=bot)
    assert outcome.refused and "not a bot" in outcome.record.content


async def test_a_sheet_whose_fields_break_the_rules_is_refused(probe: Probe) -> None:
    """Valid JSON of the right schema, but values the rules refuse: each is one plain refusal."""
    good = json.loads(export_character(make_character(name="Zane", kind=CharacterKind.HERO, owner_id=1)))
    broken: list[JSON] = [
        {"name": "x" * 100},
        {"name": "@everyone\u0000"},
        {"attributes": {"physique": 11, "charm": 2, "wits": 2}},
        {"attributes": {"physique": -(2**63), "charm": 2, "wits": 2}},
        {"owner_id": "everyone"},
        {"kind": "god"},
        {"burdens": [{"name": "b", "severity": "fatal"}] * 3},
        {"powers": [{"type": "allomancy", "name": "Steel", "rating": 3}] * 200},
        {"notes": "n" * 100_000},
    ]
    for change in broken:
        data = {**good, "character": {**good["character"], **change}}
        found = probe.harness.fake.add_file("sheet.json", json.dumps(data).encode(), "application/json")
        resolved = Resolved()
        option = {"type": ATTACHMENT, "name": "file", "value": resolved.add_attachment(found)}
        outcome = await probe.send("character", [option], path=["import"], resolved=resolved)
        assert outcome.refused and len(outcome.record.content) < 400, (change, outcome.text)
    probe.check_log()


@pytest.mark.parametrize("invisible", ["\u200b", "\ufeff\u200b", "\u202e"])
async def test_an_invisible_name_is_refused(probe: Probe, invisible: str) -> None:
    outcome = await import_file(probe, "good", name=invisible)
    assert outcome.refused
