"""Hypothesis-generated option values for every command the bot syncs, sent as raw payloads.

The commands are read from what the bot synced to the fake Discord (so a new command is fuzzed
without touching this file); each option gets values of its registered type: Markdown, mentions,
zero-width and right-to-left characters, strings at and past the option's and Discord's
lengths, integers at, inside and past their bounds and far beyond, values outside the choices,
members (the bot too), roles (``@everyone`` and the bot's own) and channels, hostile files; and
a string option with autocomplete is sometimes sent as an autocomplete request instead.
One bot serves all the examples of a test: ``repair`` puts the table back before each example
so later examples still reach deep code. Every interaction is checked by :class:`Probe`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from fake_discord.payloads import AUTOCOMPLETE, Resolved
from testbed.bot_env import BotEnv
from tests.bot.seeded_table import SENSIBLE, repair, seed_table
from tests.bot.test_bad_input import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    JSON,
    ROLE,
    STRING,
    USER,
    LogCatcher,
    Probe,
    leaves,
)
from tests.bot.test_bad_input_import import HOSTILE_FILES, attachment

pytestmark = pytest.mark.slow

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    # The examples share one bot whose state moves on, so a shrunk example would not replay
    # the same; the notes name every interaction of a failing example instead.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
PER_EXAMPLE = 6
"""Interactions per example, then one ordinary command to show the bot is still up."""

DISCORD_STRING_MAX = 6000
HOSTILE = [
    "",
    " ",
    "\u3000\t",
    "**bold** __under__ ~~gone~~ ||spoiler||",
    "`code` ```block```",
    "> quote\n>>> all quoted",
    "# Heading\n- list",
    "[link](https://example.com)",
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<@!123456789012345678>",
    "<@&123456789012345678>",
    "<#123456789012345678>",
    "</roll:123456789012345678>",
    "\u200b",
    "\ufeff",
    "\u200bVin\u200b",
    "\u202eniV",
    "\u202e@everyone\u202c",
    "Vin\u0000",
    "Vin\r\nElend",
    "🔥" * 30,
    "e\u0301" * 40,
    "\\",
    "\\*",
    "'; DROP TABLE characters; --",
    "%s %d {0} {name}",
    "null",
    "NaN",
    "-0",
    "7 7 7",
    "0",
    "1,,,2",
    "999999999999999999999",
]
"""Lone surrogates are left out: UTF-8 cannot carry them, so Discord never delivers one."""
MEANINGFUL = ["Vin", "Elend", "Straff", "Physique", "Steel", "Pewter", "Cracked rib", "Stubborn", "Nobody"]
FRAGMENTS = HOSTILE[3:] + MEANINGFUL + ["x", " ", "\n"]
UNITS = ["x", "*", "_", "@", "\\", "`", "|", "\u200b", "🔥", " ", "\u202e"]


def long_texts(limit: int | None) -> st.SearchStrategy[str]:
    """Strings at and past the option's limit and Discord's, of characters escaping doubles."""
    sizes = sorted({DISCORD_STRING_MAX, 2001, 4097} | ({limit, limit + 1} if limit else set()))

    def build(size: int, unit: str, head: str) -> str:
        return (head + unit * size)[:size]

    return st.builds(
        build, st.sampled_from(sizes), st.sampled_from(UNITS), st.sampled_from(["", "Vin", "@here "])
    )


def hostile_texts(limit: int | None) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(HOSTILE),
        st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6).map("".join),
        st.text(max_size=80),
        long_texts(limit),
    )


def strings(option: JSON) -> st.SearchStrategy[str]:
    choices = [c["value"] for c in option.get("choices") or []]
    fine = st.sampled_from(choices or SENSIBLE.get(option["name"]) or MEANINGFUL)
    return st.one_of(fine, fine, fine, hostile_texts(option.get("max_length")))


def integers(option: JSON) -> st.SearchStrategy[int]:
    low, high = option.get("min_value"), option.get("max_value")
    if option.get("choices"):
        values = [c["value"] for c in option["choices"]]
        low, high = min(values), max(values)
    low = -10 if low is None else int(low)
    high = 10 if high is None else int(high)
    edges = [low, high, low - 1, high + 1, 0, -1, 2**31, -(2**31), 2**53, -(2**53)]
    fine = st.integers(low, high)
    return st.one_of(fine, fine, fine, st.sampled_from(edges), st.integers(low - 3, high + 3))


def option_value(data: st.DataObject, probe: Probe, option: JSON, resolved: Resolved) -> JSON:
    """One value of the option's registered type, values Discord's client would refuse included."""
    kind, guild = option["type"], probe.env.world.guild
    value: Any
    if kind == STRING:
        value = data.draw(strings(option))
    elif kind == INTEGER:
        value = data.draw(integers(option))
    elif kind == BOOLEAN:
        value = data.draw(st.booleans())
    elif kind == USER:
        value = resolved.add_member(guild, data.draw(st.sampled_from(guild.members)))
    elif kind == ROLE:
        value = resolved.add_role(data.draw(st.sampled_from(guild.roles)))
    elif kind == CHANNEL:
        channel = data.draw(st.sampled_from(guild.channels))
        value = resolved.add_channel(guild, channel, guild.permissions_of(guild.members[0]))
    elif kind == ATTACHMENT:
        return attachment(probe, resolved, data.draw(st.sampled_from(HOSTILE_FILES)))
    else:  # pragma: no cover - a new option type needs a generator here
        raise AssertionError(f"no generator for option type {kind}")
    return {"type": kind, "name": option["name"], "value": value}


FAMILIES = {
    "dice and server": {
        "roll",
        "gmroll",
        "read",
        "contest",
        "odds",
        "history",
        "help",
        "setup",
        "sync",
        "status",
        "request",
        "scene",
        "web",
        "session",
    },
    "characters": {"character", "edit", "sheet", "burden", "say"},
    "conflict": {"conflict", "burn", "drink", "declare", "act", "switch", "pass", "defend", "nudges"},
    "powers and campaign": {"power", "rolls", "advancement", "story", "secret", "template"},
}


@pytest.fixture
async def table(bot_env: BotEnv) -> AsyncIterator[Probe]:
    """One bot for all the examples of a test, with the seeded table."""
    with LogCatcher() as logs:
        probe = Probe(bot_env, log=logs)
        synced = {command["name"] for command, _, _ in leaves(probe.harness.commands)}
        assert synced == set().union(*FAMILIES.values()), "a new command: put it in a FAMILIES entry"
        probe.ids = await seed_table(bot_env)
        yield probe


async def fuzz(probe: Probe, data: st.DataObject, family: set[str]) -> None:
    await repair(probe)
    commands = [(c["name"], path, o) for c, path, o in leaves(probe.harness.commands) if c["name"] in family]
    for _ in range(PER_EXAMPLE):
        name, path, options = data.draw(st.sampled_from(commands), label="command")
        user = data.draw(st.sampled_from(["narrator", "player1", "player2"]), label="user")
        resolved, values = Resolved(), []
        for option in options:
            # Discord refuses an interaction that lacks a required option, whatever the client.
            if option.get("required") or data.draw(st.booleans()):
                values.append(option_value(data, probe, option, resolved))
        completing = [
            v for v in values if any(o["name"] == v["name"] and o.get("autocomplete") for o in options)
        ]
        focus = bool(completing) and data.draw(st.booleans(), label="autocomplete")
        if focus:
            data.draw(st.sampled_from(completing))["focused"] = True
        note(f"{'autocomplete ' if focus else ''}/{name} {' '.join(path)} as {user}: {values!r:.400}")
        outcome = await probe.send(
            name, values, user=user, path=path, resolved=resolved, autocomplete=bool(focus)
        )
        if focus:
            assert outcome.record.type == AUTOCOMPLETE and outcome.record.response_type == 8
    probe.check_log()
    await probe.still_works()


@SETTINGS
@given(data=st.data())
async def test_dice_and_server_commands_survive_any_option_values(table: Probe, data: st.DataObject) -> None:
    await fuzz(table, data, FAMILIES["dice and server"])


@SETTINGS
@given(data=st.data())
async def test_character_commands_survive_any_option_values(table: Probe, data: st.DataObject) -> None:
    await fuzz(table, data, FAMILIES["characters"])


@SETTINGS
@given(data=st.data())
async def test_conflict_commands_survive_any_option_values(table: Probe, data: st.DataObject) -> None:
    await fuzz(table, data, FAMILIES["conflict"])


@SETTINGS
@given(data=st.data())
async def test_powers_and_campaign_commands_survive_any_option_values(
    table: Probe, data: st.DataObject
) -> None:
    await fuzz(table, data, FAMILIES["powers and campaign"])
