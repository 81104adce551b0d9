"""Cross-server and cross-user probes: nobody reads or changes what is not theirs to.

The fake Discord hosts two servers with the same bot. The same people are members of both,
with other roles: player1, a plain player at the Scadrial Table (server A), runs the Other
Table (server B) as its Narrator. Server A holds sheets, rolls and a running Conflict, each
marked with a secret that must never show in server B, whatever is typed or autocompleted
there; and nothing done in server B may change a row of server A.

Within server A, player2 (no Narrator rights) tries to change player1's Hero by every command
that takes a character, and to act, defend and spend Nudges for it in the Conflict, and to
answer player1's delete confirmation: each is refused privately, with nothing stored.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.inputs.templates import LABELS
from fake_discord import payloads
from fake_discord.payloads import Resolved
from fake_discord.permissions import EMBED_LINKS, EVERYONE_PERMISSIONS, MANAGE_GUILD, MANAGE_MESSAGES
from fake_discord.world import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, World, default_world
from rules.character import METALS, export_character, revise_character
from rules.character.stunts import CATALOGUE
from testbed.bot_env import running_bot_env
from tests.bot.seeded_table import member_option, seed_table
from tests.bot.test_bad_input import (
    ATTACHMENT,
    JSON,
    STRING,
    USER,
    LogCatcher,
    Outcome,
    Probe,
    db_rows,
    integer,
    leaves,
    text,
)

SECRET = "Q7-SECRET"
"""In every text of server A that another server might be shown."""


def add_other_table(world: World) -> FakeGuild:
    """Server B: the same people with other roles (player1 is its Narrator), and a stranger."""
    ids = world.ids
    guild_id = ids.next()
    narrator = FakeRole(ids.next(), "Narrator", MANAGE_GUILD, position=2)
    bot_role = FakeRole(ids.next(), "Mistborn Bot", MANAGE_MESSAGES | EMBED_LINKS, position=1, managed=True)
    guild = FakeGuild(
        id=guild_id,
        name="Other Table",
        owner_id=ids.next(),
        roles=[FakeRole(guild_id, "@everyone", EVERYONE_PERMISSIONS), narrator, bot_role],
        channels=[FakeChannel(ids.next(), "table"), FakeChannel(ids.next(), "ooc")],
        members=[FakeMember(world.bot, [bot_role.id])],
    )
    for name in ("narrator", "player1", "player2"):
        found = world.guild.member(name)
        assert found is not None
        guild.members.append(FakeMember(found.user, [narrator.id] if name == "player1" else []))
    guild.members.append(FakeMember(FakeUser(ids.next(), "stranger")))
    world.guilds.append(guild)
    return guild


@pytest.fixture
async def servers(tmp_path: Path) -> AsyncIterator[Probe]:
    """Like ``bot_env`` with a second server; the bot's commands are global, as in production."""
    world = default_world()
    add_other_table(world)  # server B: world.guilds[1]
    async with running_bot_env(tmp_path / "bot.sqlite3", world, seed=7, sync_global=True) as env:
        with LogCatcher() as logs:
            probe = Probe(env, log=logs)
            probe.ids = await seed_table(env)
            await fill_server_a(probe)
            yield probe


async def fill_server_a(probe: Probe) -> None:
    """Secrets everywhere in server A: sheets, a roll, a Conflict waiting for Vin's defence."""
    env, guild = probe.env, probe.env.guild_id
    for name in ("Vin", "Elend", "Straff"):
        stored = await env.storage.characters.get(guild, probe.ids[name])
        wits = 4 if name == "Vin" else 2  # Straff declares first, then acts first
        physique = 5 if name == "Straff" else 2
        attributes = {"physique": physique, "charm": 2, "wits": wits}
        secret = revise_character(stored.character, notes=f"{SECRET} notes of {name}", attributes=attributes)
        await env.storage.characters.update(guild, stored, secret)
    for user, line in [
        ("player1", f"/roll dice:4 label:{SECRET}-roll"),
        ("narrator", f'/conflict start kind:physical stakes:"{SECRET} stakes"'),
        ("player1", "/conflict join"),
        ("narrator", "/conflict add character:Straff"),
        ("narrator", "/conflict begin"),
        ("narrator", "/declare who:Straff action:attack target:Vin stat:Physique"),
        ("player1", "/declare action:attack target:Straff stat:Physique"),
        ("narrator", "/act dice:5 who:Straff"),
    ]:
        reply = await env.slash(line, user=user)
        assert not reply.ephemeral, (line, reply.content)
    await probe.settle()


def guild_rows(rows: dict[str, list[tuple[Any, ...]]], guild_id: int) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of one server: every table keys them by guild id in its first columns."""
    return {table: [r for r in found if guild_id in r[:2]] for table, found in rows.items()}


def shown(outcome: Outcome) -> str:
    return outcome.text + repr(outcome.record.choices)


READS = [
    ("character", ["show"], [text("name", "Vin")]),
    ("character", ["show"], []),
    ("character", ["list"], []),
    ("character", ["export"], [text("name", "Vin")]),
    ("character", ["export"], []),
    ("roll", [], [text("stat", "Physique"), text("character", "Vin")]),
    ("roll", [], [text("stat", "Physique")]),
    ("contest", [], [text("actor", "Vin"), text("actor_stat", "Wits"), integer("opponent_dice", 3)]),
    ("contest", [], [integer("actor_dice", 3), text("opponent", "Straff"), text("opponent_stat", "Wits")]),
    ("history", ["rolls"], []),
    ("history", ["fairness"], []),
    ("conflict", ["status"], []),
    ("setup", ["show"], []),
]
CHANGES = [
    ("character", ["rename"], [text("name", "Vin"), text("new_name", "Zane")]),
    ("character", ["delete"], [text("name", "Vin")]),
    ("character", ["use"], [text("name", "Vin")]),
    ("edit", ["attribute"], [text("attribute", "wits"), integer("value", 9), text("name", "Vin")]),
    ("edit", ["kind"], [text("kind", "extra"), text("name", "Vin")]),
    ("sheet", ["damage"], [integer("amount", 5), text("name", "Vin")]),
    ("sheet", ["breather"], [text("kind", "long"), text("name", "Vin")]),
    ("burden", ["add"], [text("burden", "Cursed"), text("severity", "mortal"), text("name", "Vin")]),
    ("conflict", ["add"], [text("character", "Vin")]),
    ("conflict", ["adjust"], [text("who", "Vin"), integer("dice", -5)]),
    ("conflict", ["end"], []),
    ("declare", [], [text("action", "no-roll"), text("who", "Vin")]),
    ("defend", [], [integer("dice", 0)]),
    ("nudges", [], [integer("damage", 1)]),
    ("pass", [], [text("who", "Straff")]),
    ("burn", [], [text("metal", "Pewter"), text("who", "Vin")]),
    ("say", [], [text("text", "I yield."), text("character", "Vin")]),  # speaking as Vin (§7.5)
]


@pytest.mark.parametrize("user", ["player1", "stranger"])
async def test_server_b_never_sees_or_changes_server_a(servers: Probe, user: str) -> None:
    """Every read, change and autocomplete from server B, as its Narrator and as a stranger."""
    probe, other = servers, servers.env.world.guilds[1]
    a_before = guild_rows(await db_rows(probe.env.storage), probe.env.guild_id)
    for name, path, values in READS + CHANGES:
        outcome = await probe.send(name, values, path=path, user=user, guild=other)
        assert SECRET not in shown(outcome), (name, path, outcome.text)
    for name, path in [("character", ["list"]), ("history", ["rolls"]), ("history", ["fairness"])]:
        resolved = Resolved()
        player1 = probe.actor("player1", other).member
        option: JSON = {"type": USER, "name": "member", "value": resolved.add_member(other, player1)}
        outcome = await probe.send(name, [option], path=path, user=user, guild=other, resolved=resolved)
        assert SECRET not in shown(outcome) and "Vin" not in shown(outcome), outcome.text
    for command, path, options in leaves(probe.harness.fake.commands.visible_in(other.id)):
        for option in options:
            if option["type"] == STRING and option.get("autocomplete"):
                value = {**text(option["name"], ""), "focused": True}
                outcome = await probe.send(
                    command["name"], [value], path=path, user=user, guild=other, autocomplete=True
                )
                offered = {c["name"] for c in outcome.record.choices}
                commands = {f"/{c['name']}" for c in probe.harness.fake.commands.visible_in(other.id)}
                # What every server is offered alike: metals, commands, built-in templates, Stunts.
                stunts = {f"{s.name} — {s.does}"[:100] for s in CATALOGUE}
                alike = set(METALS) | commands | set(LABELS.values()) | stunts
                assert offered <= alike, (command["name"], path, option["name"], offered)
    menu = payloads.user_menu(
        probe.env.world,
        probe.actor(user, other),
        next(c for c in probe.harness.fake.commands.visible_in(other.id) if c.get("type") == 2),
        probe.actor("player1", other).member,
    )
    viewed = await probe.refused(menu)
    assert "no active character in this server" in viewed.content
    assert guild_rows(await db_rows(probe.env.storage), probe.env.guild_id) == a_before
    probe.check_log()
    await probe.still_works(guild=other)


async def test_a_player_cannot_change_another_players_hero(servers: Probe) -> None:
    """player2 holds no Narrator rights in server A; Vin is player1's, Straff the Narrator's."""
    words = ("not yours", "Only a Narrator", "Only Vin's player")
    for name, path, values in CHANGES:
        if name == "nudges":  # none to spend yet: see the test below
            continue
        outcome = await servers.send(name, values, path=path, user="player2")
        assert outcome.refused and any(w in outcome.record.content for w in words), (name, outcome.text)
    servers.check_log()


async def test_a_player_cannot_roll_contest_or_import_over_another_players_hero(servers: Probe) -> None:
    probe = servers
    for name, values in [
        ("roll", [text("stat", "Physique"), text("character", "Vin")]),
        ("contest", [text("actor", "Vin"), text("actor_stat", "Wits"), integer("opponent_dice", 2)]),
        ("gmroll", [integer("dice", 3)]),
    ]:
        outcome = await probe.send(name, values, user="player2")
        assert outcome.refused and ("not yours" in outcome.text or "Only a Narrator" in outcome.text)
    stored = await probe.env.storage.characters.get(probe.env.guild_id, probe.ids["Vin"])
    for owner, message in [(None, "already a character named Vin"), ("player1", "Only a Narrator")]:
        resolved = Resolved()
        sheet = probe.harness.fake.add_file("vin.json", export_character(stored.character).encode(), None)
        values = [{"type": ATTACHMENT, "name": "file", "value": resolved.add_attachment(sheet)}]
        if owner is not None:
            values.append(member_option(probe, resolved, owner))
        given = await probe.send("character", values, path=["import"], user="player2", resolved=resolved)
        assert given.refused and message in given.record.content, given.record.content


async def test_a_player_cannot_answer_another_players_buttons(servers: Probe) -> None:
    """The defence prompt is Vin's; the delete question is player1's, and ephemeral to them."""
    probe = servers
    harness = probe.harness
    prompt, button = harness.find_component("Don't defend", harness.member("player1"))
    click = payloads.component_click(probe.env.world, probe.actor("player2"), prompt, button)
    record = await probe.refused(click)
    assert "Only Vin's player or a Narrator" in str(record.messages)
    # Vin fights, so may not be deleted (issue 17, 4): the question is asked of a sheet out of it.
    await probe.env.slash("/character create name:Spook physique:3 wits:4", user="player1")
    asked = await probe.send("character", [text("name", "Spook")], path=["delete"], user="player1")
    assert not asked.refused
    question = asked.record.message
    assert question is not None
    [delete] = [c for row in question["components"] for c in row["components"] if c["label"] == "Delete"]
    click = payloads.component_click(probe.env.world, probe.actor("player2"), question, delete)
    refused = await probe.refused(click)
    assert "Only the member who asked" in str(refused.messages)
    names = {s.name for s in await probe.env.storage.characters.list_by_guild(probe.env.guild_id)}
    assert "Spook" in names


async def test_only_the_attackers_side_spends_its_nudges(servers: Probe) -> None:
    """Straff (the Narrator's) hits Vin with two Nudges: neither player may spend them."""
    probe = servers
    # The attacker's dice are typed by whoever rolls them, the Narrator, never by the defender
    # (docs/rulings.md §7.2): the Narrator answers for Vin once the player's moment is over.
    typed = await probe.send(
        "defend", [integer("dice", 0), text("attacker_faces", "3 3 6 6 1")], user="player1"
    )
    assert typed.refused and "Only the one who rolls Straff's dice" in typed.record.content
    probe.env.bot.conflicts.grace.seconds = 0
    defended = await probe.send(
        "defend", [integer("dice", 0), text("attacker_faces", "3 3 6 6 1")], user="narrator"
    )
    assert not defended.refused and "Nudges" in defended.text, defended.text
    for user in ("player1", "player2"):
        outcome = await probe.send("nudges", [integer("damage", 2)], user=user)
        assert outcome.refused and "Only Straff's player or a Narrator" in outcome.record.content
