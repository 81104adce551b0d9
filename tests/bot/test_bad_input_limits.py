"""Every option of every synced command at and past its limits, and the bugs those found.

The sweeps are deterministic companions of the hypothesis run: each option of each command,
in turn, gets a value at the edge (the longest string the option allows, made of characters
that Markdown escaping doubles; an integer just outside its range; a value outside the
choices; Discord's 6000-character maximum with mentions), while the other options hold values
the bot accepts, so the hostile value reaches as deep as it can. Sent as the Narrator, who
passes every permission check.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from fake_discord.payloads import Resolved
from testbed.bot_env import BotEnv
from tests.bot.seeded_table import repair, seed_table, sensible
from tests.bot.test_bad_input import INTEGER, JSON, STRING, LogCatcher, Probe, boolean, integer, leaves, text

AT_LIMIT = "*_`|\\~>"
"""Characters Markdown escaping doubles: a value at an option's limit can render twice as long."""
PAST_EVERY_LIMIT = ("@everyone <@&1> **" + "\u200b\u202e" + "_|`" * 2000)[:6000]
HUGE = 2**53


@pytest.fixture
async def table(bot_env: BotEnv) -> AsyncIterator[Probe]:
    with LogCatcher() as logs:
        probe = Probe(bot_env, log=logs)
        probe.ids = await seed_table(bot_env)
        yield probe


def cases(probe: Probe, kinds: set[int]) -> list[tuple[str, list[str], list[JSON], JSON]]:
    """(command, path, every option, the option under test) for each option of the given kinds."""
    return [
        (command["name"], path, options, option)
        for command, path, options in leaves(probe.harness.commands)
        for option in options
        if option["type"] in kinds
    ]


async def send_with(
    probe: Probe, name: str, path: list[str], options: list[JSON], option: JSON, value: JSON
) -> None:
    """Send ``value`` for ``option``, sensible values for the other required options, after a repair."""
    await repair(probe)
    resolved = Resolved()
    values = [sensible(probe, o, resolved) for o in options if o.get("required") and o is not option]
    await probe.send(name, [*values, value], path=path, resolved=resolved, user="narrator")


def edge_strings(option: JSON) -> list[str]:
    limit = option.get("max_length")
    edges = [PAST_EVERY_LIMIT]
    if limit:
        edges.append(limit_text(limit))
    if option.get("choices"):
        edges.append("not-a-choice")
    return edges


async def test_every_text_option_at_and_past_its_limit(table: Probe) -> None:
    sent = 0
    for name, path, options, option in cases(table, {STRING}):
        for value in edge_strings(option):
            await send_with(table, name, path, options, option, text(option["name"], value))
            sent += 1
    assert sent > 150
    table.check_log()
    await table.still_works()


async def test_every_integer_option_just_past_its_range_and_far_beyond(table: Probe) -> None:
    sent = 0
    for name, path, options, option in cases(table, {INTEGER}):
        values = [c["value"] for c in option.get("choices") or []]
        low = min(values) if values else option.get("min_value", -10)
        high = max(values) if values else option.get("max_value", 10)
        for value in (low - 1, high + 1, -HUGE, HUGE):
            await send_with(table, name, path, options, option, integer(option["name"], value))
            sent += 1
    assert sent > 150
    table.check_log()
    await table.still_works()


@pytest.mark.parametrize(
    ("name", "path", "values", "user", "message"),
    [
        ("declare", [], [text("action", "fly"), text("stat", "Physique")], "player1", "not an action"),
        ("switch", [], [text("action", "dance"), text("stat", "Physique")], "player1", "not a rolled action"),
        ("act", [], [integer("dice", 4), text("resilience", "sanity")], "player1", "not a Resilience"),
        ("act", [], [integer("dice", 4), text("defeat_burden", "fatal")], "player1", "not a defeat Burden"),
        (
            "conflict",
            ["add"],
            [text("character", "Elend"), text("side", "villains")],
            "narrator",
            "not a side",
        ),
        ("sync", [], [text("scope", "everywhere " * 500)], "narrator", "Choose the scope"),
        (
            "edit",
            ["attribute"],
            [text("attribute", "Luck"), integer("value", 3)],
            "player1",
            "not an Attribute",
        ),
        (
            "edit",
            ["standing"],
            [text("standing", "**Luck**"), integer("value", 3)],
            "player1",
            "not a Standing",
        ),
    ],
)
async def test_choices_outside_the_list_are_refused_plainly(
    table: Probe, name: str, path: list[str], values: list[JSON], user: str, message: str
) -> None:
    """Each of these once reached the engine unchecked: a KeyError, a pydantic ValidationError
    or a 6000-character reply, so the user got the apology or no answer at all."""
    await repair(table)
    outcome = await table.send(name, values, path=path, user=user)
    assert outcome.refused and message in outcome.record.content, outcome.text
    assert len(outcome.record.content) < 300
    table.check_log()


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("Nobody" * 1000, "Nobody" * 10 + "Nob…"),
        ("**Vin** @everyone", "\\*\\*Vin\\*\\* @\u200beveryone"),
        ("  Kel   sier  ", "Kel sier"),
    ],
)
async def test_unknown_names_are_refused_short_and_inert(table: Probe, value: str, shown: str) -> None:
    """The refusal once echoed the whole name: 6000 characters made the reply too long to send."""
    for name, path, extra in [
        ("character", ["show"], []),
        ("character", ["use"], []),
        ("sheet", ["heal"], [integer("amount", 1)]),
        ("roll", [], [text("stat", "Physique")]),
    ]:
        option = "character" if name == "roll" else "name"
        outcome = await table.send(name, [*extra, text(option, value)], path=path)
        assert outcome.refused
        assert outcome.record.content == (
            f"There is no character named {shown} in this server; `/character list` shows the sheets here."
        )


async def test_the_bot_itself_as_a_member_option(table: Probe) -> None:
    """Discord lets a member option name the bot: it has no sheets, and owns none."""
    resolved = Resolved()
    bot = table.env.world.guild.member(table.env.world.bot.id)
    assert bot is not None
    member = {"type": 6, "name": "member", "value": resolved.add_member(table.env.world.guild, bot)}
    listed = await table.send(
        "character", [member, boolean("private", True)], path=["list"], resolved=resolved
    )
    assert not listed.refused and listed.record.ephemeral
    owner = {"type": 6, "name": "owner", "value": member["value"]}
    made = await table.send(
        "character", [text("name", "Tin"), owner], path=["create"], resolved=resolved, user="narrator"
    )
    assert made.refused and "not a bot" in made.record.content


async def test_a_conflict_with_every_text_at_its_limit_still_fits_discord(table: Probe) -> None:
    """Names, stakes, labels and reasons at their longest, of characters escaping doubles, on the
    replies, the board and the summary (the sweeps above cannot start a second Conflict)."""
    env, guild = table.env, table.env.guild_id
    names = []
    for letter, name in zip("ABC", ("Vin", "Elend", "Straff"), strict=True):
        stored = await env.storage.characters.get(guild, table.ids[name])
        names.append((await env.storage.characters.rename(guild, stored, letter + limit_text(63))).name)
    ended = await table.send("conflict", [], path=["end"], user="narrator")
    assert ended.refused  # none is running yet
    stakes = [text("kind", "social"), text("stakes", limit_text(200))]
    assert not (await table.send("conflict", stakes, path=["start"], user="narrator")).refused
    for name in names:
        added = await table.send("conflict", [text("character", name)], path=["add"], user="narrator")
        assert not added.refused, added.text
    assert not (await table.send("conflict", [], path=["begin"], user="narrator")).refused
    declared: set[str] = set()
    for _ in names:  # in whatever order the Wits ties fall
        for name in names:
            values = [text("action", "no-roll"), text("label", limit_text(100)), text("who", name)]
            if name not in declared and not (await table.send("declare", values, user="narrator")).refused:
                declared.add(name)
    assert declared == set(names)
    for name in names:
        values = [text("who", name), integer("dice", 3), text("reason", limit_text(100))]
        assert not (await table.send("conflict", values, path=["adjust"], user="narrator")).refused
    assert not (await table.send("conflict", [], path=["status"], user="narrator")).refused
    summary = await table.send("conflict", [], path=["end"], user="narrator")
    assert not summary.refused and len(summary.record.embeds) == 2
    await table.settle()
    table.check_log()


def limit_text(size: int) -> str:
    return (AT_LIMIT * size)[:size]
