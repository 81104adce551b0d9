"""Issue 14's secrecy matrix, every cell through the real discord.py path (``secrecy_matrix``).

For each member of ``PERSONAS`` and each thing in ``ROWS``: put the table back as it was (every
row of every table), set the Conflict up for that thing if it needs it, send the interaction as
that member, and read what the bot did. A refusal must be private and leave the database
exactly as it was. The observed matrix must equal ``EXPECTED``, cell by cell.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench.bot_env import BotEnv, make_settings
from bot.app import MistbornBot
from fake_discord import payloads
from fake_discord.commandline import find_command, parse_slash
from fake_discord.harness import running_bot
from fake_discord.payloads import Actor
from fake_discord.records import InteractionRecord
from fake_discord.world import (
    ADMINISTRATOR,
    FakeGuild,
    FakeMember,
    FakeRole,
    World,
    add_table_guild,
    default_world,
)
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    Command,
    Conflict,
    Declare,
    DiceSpec,
    Reorder,
    waiting,
)
from storage import GuildSettings, Storage
from storage.conflict_runner import run_transition
from tests.bot.secrecy_matrix import EXPECTED, PERSONAS, ROWS, markdown
from tests.bot.test_bad_input import LogCatcher, Outcome, Probe, Rows, db_rows

JSON = dict[str, Any]
USERS = {p: {"player": "player1", "other": "player2"}.get(p, p) for p in PERSONAS}
OWN = {
    "player": "Vin",
    "other": "Elend",
    "stranger": "Vin",
    "keeper": "Straff",
    "former": "Straff",
    "admin": "Straff",
}
"""The character each member acts for in their own name (the Narrators: the Villain)."""
PLAN, GMROLL = "Q7-PLAN", "Q7-GMROLL"


@dataclass
class Table:
    env: BotEnv
    probe: Probe
    other: FakeGuild
    base: Rows = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    said: str = ""
    """What the last refusal said."""

    @property
    def storage(self) -> Storage:
        return self.env.storage


def build_world() -> tuple[World, FakeGuild]:
    """The Scadrial Table with a Keeper role (to be made the Narrator role), an Admin role, and
    the members keeper, former (both Keepers) and admin; another server with a stranger in it."""
    world = default_world()
    guild = world.guild
    guild.roles += [
        FakeRole(world.ids.next(), "Keeper", permissions=0, position=1),
        FakeRole(world.ids.next(), "Admin", permissions=ADMINISTRATOR, position=3),
    ]
    world.add_member("keeper", roles=("Keeper",))
    former = world.add_member("former", roles=("Keeper",))
    world.add_member("admin", roles=("Admin",))
    other = add_table_guild(world, "Other Table")
    world.add_member("stranger", guild=other)
    other.members.append(FakeMember(former.user))
    return world, other


SETUP = [
    ("player1", "/character create name:Vin"),
    ("player2", "/character create name:Elend"),
    ("former", f'/character create name:Straff kind:villain concept:"{PLAN} burn the keep"'),
    ("former", "/character use name:Straff"),
    ("narrator", f"/gmroll dice:3 label:{GMROLL}"),
    ("player1", "/roll dice:4 label:open"),
    ("narrator", '/conflict start kind:physical stakes:"The keep"'),
    ("player1", "/conflict join"),
    ("player2", "/conflict join"),
    ("narrator", "/conflict add character:Straff"),
]


@pytest.fixture
async def secrecy_table(tmp_path: Path) -> AsyncIterator[Table]:
    db_path = tmp_path / "bot.sqlite3"
    world, other = build_world()
    storage = await Storage.open(db_path)

    def make_bot() -> MistbornBot:
        settings = make_settings(db_path, world.guild.id)
        return MistbornBot(settings=settings, storage=storage, rng=random.Random(14), sync_global=True)

    try:
        async with running_bot(make_bot, world=world) as harness:
            assert isinstance(harness.bot, MistbornBot)
            env = BotEnv(harness=harness, bot=harness.bot, storage=storage, world=world, db_path=db_path)
            env.bot.conflicts.defend_grace = 0
            keeper = world.guild.role("Keeper")
            assert keeper is not None
            await storage.settings.set(env.guild_id, GuildSettings(narrator_role_ids=(keeper.id,)))
            for user, line in SETUP:
                reply = await env.slash(line, user=user)
                assert not (reply.ephemeral and not reply.embeds), (line, reply.content)
            former = world.guild.member("former")
            assert former is not None
            former.role_ids.remove(keeper.id)  # no longer a Narrator, from the next interaction on
            with LogCatcher() as logs:
                table = Table(env=env, probe=Probe(env, log=logs), other=other)
                table.ids = {c.name: c.id for c in await storage.characters.list_by_guild(env.guild_id)}
                await table.probe.settle()
                table.base = await db_rows(storage)
                yield table
                table.probe.check_log()
            assert not harness.violations, harness.violations
    finally:
        await storage.close()


async def restore(storage: Storage, rows: Rows) -> None:
    """Every table back to ``rows`` (SQLite's counters included), in one transaction."""
    async with storage.database.transaction() as conn:
        await conn.execute("PRAGMA defer_foreign_keys = ON")
        for table in rows:
            await conn.execute(f'DELETE FROM "{table}"')
        for table, found in rows.items():
            for row in found:
                marks = ", ".join("?" * len(row))
                await conn.execute(f'INSERT INTO "{table}" VALUES ({marks})', row)


def actor(t: Table, persona: str) -> Actor:
    guild = t.other if persona == "stranger" else t.env.world.guild
    member = guild.member(USERS[persona])
    assert member is not None
    return Actor(guild, guild.channels[0], member)


def refusal(outcome: Outcome) -> bool:
    """Refused: an error the bot answered (a button, which has no tree handler: a private
    reply of words only)."""
    if outcome.record.type != payloads.COMPONENT:
        return outcome.refused
    messages = outcome.record.messages
    return bool(messages) and all(m["flags"] & payloads.EPHEMERAL and not m["embeds"] for m in messages)


async def deliver(t: Table, payload: JSON) -> Outcome:
    """Send as is; a refusal must be private and change nothing stored."""
    await t.probe.settle()
    before = await db_rows(t.storage)
    outcome = await t.probe.deliver(payload)
    if refusal(outcome):
        t.said = " ".join(str(m.get("content")) for m in outcome.record.messages)
        await t.probe.settle()
        assert await db_rows(t.storage) == before, f"a refusal changed storage: {outcome.text}"
        assert all(m["flags"] & payloads.EPHEMERAL for m in outcome.record.messages), outcome.text
    return outcome


async def slash(t: Table, persona: str, line: str, *, autocomplete: bool = False) -> Outcome:
    who = actor(t, persona)
    commands = t.env.harness.fake.commands.visible_in(who.guild.id)
    parsed = parse_slash(line, commands, who.guild, who.member, focus=autocomplete)
    build = payloads.autocomplete if autocomplete else payloads.slash_command
    return await deliver(t, build(t.env.world, who, parsed.command, parsed.options, parsed.resolved))


def text(record: InteractionRecord) -> str:
    return record.text


def shown(outcome: Outcome, what: str, *, needle: str = "Straff") -> str:
    """``what`` privately/publicly if ``needle`` is in the reply, else refused."""
    if refusal(outcome):
        return "refused"
    assert needle in text(outcome.record), outcome.text
    return f"{what} {'privately' if outcome.record.ephemeral else 'publicly'}"


def accepted(outcome: Outcome) -> str:
    return "refused" if refusal(outcome) else "accepted"


# -- setting the Conflict up for one cell ------------------------------------------------------


async def move(t: Table, make: Callable[[Conflict], Command]) -> None:
    channel = t.env.world.guild.channels[0].id
    await run_transition(t.storage, t.env.guild_id, channel, lambda state, sheets: make(state))


async def declare_all(t: Table, attack_vin: bool) -> None:
    """Everyone declares in turn: a rolled action with no target; Straff attacks Vin if asked."""
    for _ in range(3):

        def make(state: Conflict) -> Command:
            pid = waiting(state).participants[0]
            target = t.ids["Vin"] if attack_vin and pid == t.ids["Straff"] else None
            kind = ActionKind.ATTACK if target is not None else ActionKind.ACTION
            return Declare(
                participant=pid, action=ActionSpec(kind=kind, target=target), dice=DiceSpec(stat="Physique")
            )

        await move(t, make)


async def acting(t: Table) -> None:
    """All three hold 2 Action Dice and share the first step: each may act now."""
    await declare_all(t, attack_vin=False)


async def defending(t: Table) -> None:
    """Straff's attack on Vin waits for Vin's defence."""
    await declare_all(t, attack_vin=True)
    await move(t, lambda state: Act(participant=t.ids["Straff"], pool=2))


async def declaring_first(t: Table, persona: str) -> None:
    first = t.ids.get(OWN[persona], t.ids["Vin"])
    rest = [t.ids[n] for n in ("Vin", "Elend", "Straff") if t.ids[n] != first]
    await move(t, lambda state: Reorder(order=(first, *rest)))


async def table_dice(t: Table, on: bool) -> None:
    settings = await t.storage.settings.get(t.env.guild_id)
    await t.storage.settings.set(t.env.guild_id, settings.model_copy(update={"table_dice": on}))


def who(persona: str) -> str:
    return "" if persona in ("player", "other") else f"who:{OWN[persona]} "


# -- one function per row ----------------------------------------------------------------------

Cell = Callable[[Table, str], Awaitable[str]]


async def cell_show(t: Table, p: str) -> str:
    return shown(await slash(t, p, "/character show name:Straff"), "shown", needle=PLAN)


async def cell_export(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/character export name:Straff")
    if refusal(outcome):
        return "refused"
    assert outcome.record.message is not None and outcome.record.message["attachments"]
    return f"file {'privately' if outcome.record.ephemeral else 'publicly'}"


async def cell_list(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/character list")
    assert not refusal(outcome), outcome.text
    if "Straff" not in text(outcome.record):
        return "not listed"
    return f"listed {'privately' if outcome.record.ephemeral else 'publicly'}"


async def cell_autocomplete(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/character show name:Str", autocomplete=True)
    return "offered" if any(c["name"] == "Straff" for c in outcome.record.choices) else "not offered"


async def cell_menu(t: Table, p: str) -> str:
    who_ = actor(t, p)
    command = find_command(t.env.harness.fake.commands.visible_in(who_.guild.id), "View sheet", kind=2)
    target = who_.guild.member("former")
    assert target is not None
    outcome = await deliver(t, payloads.user_menu(t.env.world, who_, command, target))
    return shown(outcome, "shown")


async def cell_history(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/history rolls")
    assert not refusal(outcome), outcome.text
    if GMROLL not in text(outcome.record):
        return "not listed"
    return f"listed {'privately' if outcome.record.ephemeral else 'publicly'}"


async def cell_fairness(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/history fairness")
    assert not refusal(outcome), outcome.text
    match = re.search(r"(\d+) rolls, \d+ dice", text(outcome.record))
    assert match is not None, outcome.text
    if int(match[1]) < 2:  # the open roll only (or, elsewhere, nothing)
        return "not counted"
    return f"counted {'privately' if outcome.record.ephemeral else 'publicly'}"


async def cell_board(t: Table, p: str) -> str:
    harness = t.env.harness
    message_id = await t.storage.boards.get(t.env.guild_id, t.env.world.guild.channels[0].id)
    assert message_id is not None
    board = harness.fake.messages[message_id]
    [button] = [c for row in board["components"] for c in row["components"] if c["label"] == "Narrator view"]
    outcome = await deliver(t, payloads.component_click(t.env.world, actor(t, p), board, button))
    if refusal(outcome):
        return "refused"
    assert outcome.record.ephemeral and re.search(r"Straff\*\* · .*AD \d", text(outcome.record))
    return "full board privately"


async def cell_contest(t: Table, p: str) -> str:
    outcome = await slash(t, p, "/contest actor_dice:3 opponent:Straff opponent_stat:Physique")
    return "refused" if refusal(outcome) else "rolled"


def faces(own: bool, on: bool) -> Cell:
    async def cell(t: Table, p: str) -> str:
        await table_dice(t, on)
        if own:
            await acting(t)
            return accepted(await slash(t, p, f'/act {who(p)}dice:2 faces:"3 3"'))
        await defending(t)
        return accepted(await slash(t, p, '/defend dice:0 attacker_faces:"3 3"'))

    return cell


async def cell_challenge(t: Table, p: str) -> str:
    await declaring_first(t, p)
    target = "Vin" if OWN[p] == "Straff" else "Straff"
    line = f"/declare {who(p)}action:attack target:{target} stat:Physique challenge:true"
    return accepted(await slash(t, p, line))


def sheet(line: str) -> Cell:
    async def cell(t: Table, p: str) -> str:
        return accepted(await slash(t, p, line.format(name=OWN[p])))

    return cell


async def cell_act_villain(t: Table, p: str) -> str:
    await acting(t)
    return accepted(await slash(t, p, "/act who:Straff dice:2"))


CELLS: dict[str, Cell] = {
    "show": cell_show,
    "export": cell_export,
    "list": cell_list,
    "autocomplete": cell_autocomplete,
    "menu": cell_menu,
    "history": cell_history,
    "fairness": cell_fairness,
    "board": cell_board,
    "contest": cell_contest,
    "faces_own_off": faces(own=True, on=False),
    "faces_own_on": faces(own=True, on=True),
    "faces_other_off": faces(own=False, on=False),
    "faces_other_on": faces(own=False, on=True),
    "challenge": cell_challenge,
    "heal": sheet("/sheet heal amount:1 name:{name}"),
    "damage": sheet("/sheet damage amount:1 name:{name}"),
    "burden": sheet("/burden add burden:Cut severity:serious name:{name}"),
    "act_villain": cell_act_villain,
}


SECRET = "one of the Narrator's characters"
NOT_HERE = {"stranger": "There is no character named"}
NO_CONFLICT = {"stranger": "There is no Conflict running"}
REASONS: dict[str, dict[str, str]] = {
    "show": {"player": SECRET, "other": SECRET, "former": SECRET, **NOT_HERE},
    "export": {"player": SECRET, "other": SECRET, "former": SECRET, **NOT_HERE},
    "menu": {"player": SECRET, "other": SECRET, "former": SECRET, "stranger": "no active character"},
    "board": dict.fromkeys(("player", "other", "former", "stranger"), "Only a Narrator"),
    "contest": {"player": SECRET, "other": SECRET, "former": SECRET, **NOT_HERE},
    "faces_own_off": {"player": "Typed dice", "other": "Typed dice", "former": "not yours", **NO_CONFLICT},
    "faces_own_on": {"former": "not yours", **NO_CONFLICT},
    **{
        key: {
            "player": "Only the one who rolls Straff's dice",
            "other": "Only Vin's player",
            "former": "Only Vin's player",
            **NO_CONFLICT,
        }
        for key in ("faces_other_off", "faces_other_on")
    },
    "challenge": {"player": "unopposed", "other": "unopposed", "former": "not yours", **NO_CONFLICT},
    **{
        key: {
            "player": "is in the Conflict in",
            "other": "is in the Conflict in",
            "former": SECRET,
            **NOT_HERE,
        }
        for key in ("heal", "damage", "burden")
    },
    "act_villain": {"player": "not yours", "other": "not yours", "former": "not yours", **NO_CONFLICT},
}
"""Why each refusal is refused: a phrase its reply must hold (a refusal for another reason,
such as "not your turn", would not prove the rule)."""


def test_every_row_has_a_cell_and_an_expectation() -> None:
    assert list(CELLS) == list(ROWS) == list(EXPECTED)
    assert all(set(cells) == set(PERSONAS) for cells in EXPECTED.values())
    refused = {(key, p) for key, cells in EXPECTED.items() for p, cell in cells.items() if cell == "refused"}
    assert refused == {(key, p) for key, reasons in REASONS.items() for p in reasons}
    assert markdown().count("\n") == len(ROWS) + 1


@pytest.mark.parametrize("persona", list(PERSONAS))
async def test_the_secrecy_matrix(secrecy_table: Table, persona: str) -> None:
    t = secrecy_table
    observed: dict[str, str] = {}
    for row_key, cell in CELLS.items():
        await t.probe.settle()
        await restore(t.storage, t.base)
        t.said = ""
        observed[row_key] = await cell(t, persona)
        if observed[row_key] == "refused":
            reason = REASONS[row_key][persona]
            assert reason in t.said, f"{row_key}: refused for another reason: {t.said}"
    expected = {row_key: cells[persona] for row_key, cells in EXPECTED.items()}
    wrong = {key: (observed[key], expected[key]) for key in ROWS if observed[key] != expected[key]}
    assert not wrong, f"{PERSONAS[persona]}: (observed, expected) {wrong}"


async def test_the_public_board_shows_straff_by_state_only(secrecy_table: Table) -> None:
    t = secrecy_table
    message_id = await t.storage.boards.get(t.env.guild_id, t.env.world.guild.channels[0].id)
    assert message_id is not None
    [embed] = t.env.harness.fake.messages[message_id]["embeds"]
    straff = next(line for f in embed["fields"] for line in f["value"].split("\n") if "Straff" in line)
    vin = next(line for f in embed["fields"] for line in f["value"].split("\n") if "Vin" in line)
    assert straff.endswith("unhurt") and "AD" not in straff and "Health" not in straff
    assert "AD 0" in vin and "Health" in vin
