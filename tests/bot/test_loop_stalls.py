"""One member must not stall every server: no interaction holds the event loop past 50 ms.

Every server shares the bot's one event loop; while one interaction computes, every other
waits, and past 3 s Discord gives up on them. So each interaction here is measured by the
longest step the loop ran while it was handled (``testbed.stalls.StallMeter``: the code between
two awaits, CPU time of the loop's thread), never by its wall time. Sent as the Narrator, who
passes every check, so the text reaches as deep as it can:

* the inputs that once took seconds (issue 30): ``/conflict order`` with 1,800 commas (30 s),
  ``/request roll heroes:`` with 1,000 (15 s), ``/declare burdens:`` with 400, Roll20 files
  with 200,000 ordered ids (10 s) or 160,000 Stunts, every accepted file at its largest;
* every option of every command at Discord's 6,000 characters and at its own limit,
  in each of the shapes that are worst for a parser of names (``testbed.stalls.name_lists``),
  and every autocomplete with them.
"""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import pytest

from fake_discord import payloads
from fake_discord.payloads import Resolved
from rules.character import CharacterKind, export_character, make_character
from rules.character.sheet_files import MAX_UPLOAD_BYTES
from rules.character.transfer import MAX_FILE_BYTES
from testbed.bot_env import BotEnv
from testbed.stalls import CRAFTED_FILES, DISCORD_OPTION_MAX, Stall, StallMeter, name_lists
from tests.bot.test_bad_input import (
    ATTACHMENT,
    INTEGER,
    JSON,
    STRING,
    LogCatcher,
    Probe,
    leaves,
    nest,
    repair,
    seed_table,
    sensible,
    text,
)
from tests.rules.character.test_roll20 import SAMPLES

BUDGET = 0.050
"""Seconds one interaction may hold the loop: a sixtieth of the 3 s every other one has."""


@dataclass
class Table:
    probe: Probe
    meter: StallMeter

    async def stall(
        self,
        name: str,
        values: list[JSON],
        *,
        path: list[str] | None = None,
        user: str = "narrator",
        resolved: Resolved | None = None,
        autocomplete: bool = False,
    ) -> Stall:
        """Send ``/name path… values`` and return the longest step the loop ran meanwhile (until
        the handler and the work it started, boards included, have ended)."""
        probe = self.probe
        actor = probe.actor(user)
        build = payloads.autocomplete if autocomplete else payloads.slash_command
        command = probe.command(name, actor.guild)
        payload = build(probe.env.world, actor, command, nest(path or [], values), resolved or Resolved())
        await probe.settle()
        gc.collect()  # a collection of the test's own garbage is no step of this interaction's
        gc.freeze()
        await asyncio.sleep(0)  # the step that collected ends here, before the meter starts
        self.meter.reset()
        await probe.deliver(payload)
        await probe.settle()
        return self.meter.reset()


@pytest.fixture
async def table(bot_env: BotEnv) -> AsyncIterator[Table]:
    bot_env.bot.settings.costly_per_minute = 0  # every call reaches the command, none is turned away
    with LogCatcher() as logs, StallMeter().measuring() as meter:
        probe = Probe(bot_env, log=logs)
        probe.ids = await seed_table(bot_env)
        await repair(probe)
        yield Table(probe, meter)
    gc.unfreeze()
    probe.check_log()


def attachment(probe: Probe, resolved: Resolved, data: bytes) -> JSON:
    found = probe.harness.fake.add_file("sheet.json", data, "application/json")
    return {"type": ATTACHMENT, "name": "file", "value": resolved.add_attachment(found)}


def padded(data: bytes, size: int) -> bytes:
    """The same JSON, spaced out to exactly ``size`` bytes: the largest file its format takes."""
    return data[:-1] + b" " * (size - len(data)) + data[-1:]


def largest_files() -> dict[str, bytes]:
    """Every file ``/character import`` accepts, at the largest size it accepts, and the crafted ones."""
    ours = export_character(make_character(name="Zane", kind=CharacterKind.HERO, owner_id=42)).encode()
    roll20 = json.dumps(json.loads((SAMPLES / "full.json").read_bytes()) | {"name": "Zane"}).encode()
    return {
        "ours, 64 KiB": padded(ours, MAX_FILE_BYTES),
        "roll20, 512 KiB": padded(roll20, MAX_UPLOAD_BYTES),
        **{name: make() for name, make in CRAFTED_FILES.items()},
    }


def within(found: dict[str, Stall]) -> list[str]:
    over = [(what, s) for what, s in found.items() if s.cpu > BUDGET]
    return [f"{what}: {s.cpu * 1000:.0f} ms CPU ({s.wall * 1000:.0f} ms) in {s.step}" for what, s in over]


async def warm_up(table: Table) -> None:
    """Every command once with ordinary values, unmeasured: a first call's one-time costs (an
    import, a first Conflict loaded, a cache filled) are no member's input's."""
    probe = table.probe
    for command, path, options in leaves(probe.harness.commands):
        resolved = Resolved()
        values = [sensible(probe, o, resolved) for o in options if o.get("required")]
        await table.stall(command["name"], values, path=path, resolved=resolved)
        await repair(probe)
    resolved = Resolved()
    sheet = attachment(probe, resolved, (SAMPLES / "full.json").read_bytes())
    await table.stall("character", [sheet], path=["import"], resolved=resolved)
    await repair(probe)


async def test_the_crafted_worst_cases_hold_the_loop_under_50_ms(table: Table) -> None:
    await warm_up(table)
    found: dict[str, Stall] = {}
    lists = [
        ("conflict", ["order"], "names", 1800, []),
        ("request", ["roll"], "heroes", 1000, [text("stat", "Physique")]),
        ("request", ["contest"], "heroes", 1000, [text("stat", "Physique"), text("opposing_stat", "Wits")]),
    ]
    for name, path, option, limit, others in lists:
        for size in (limit, DISCORD_OPTION_MAX):
            for shape, value in name_lists(size).items():
                found[f"/{name} {path[0]} {option}: {shape} ×{size}"] = await table.stall(
                    name, [*others, text(option, value)], path=path
                )
    for who in ("Vin", "Elend", "Straff"):
        for shape, value in name_lists(400).items():
            values = [
                text("action", "attack"),
                text("target", "Straff"),
                text("burdens", value),
                text("who", who),
            ]
            found[f"/declare burdens as {who}: {shape}"] = await table.stall("declare", values)
    for kind, data in largest_files().items():
        resolved = Resolved()
        found[f"/character import {kind}"] = await table.stall(
            "character", [attachment(table.probe, resolved, data)], path=["import"], resolved=resolved
        )
        await repair(table.probe)
    print(worst(found))
    assert not within(found), within(found)


def worst(found: dict[str, Stall], count: int = 5) -> str:
    ranked = sorted(found.items(), key=lambda item: -item[1].cpu)[:count]
    return "\n".join(f"{s.cpu * 1000:6.1f} ms CPU {s.wall * 1000:6.1f} ms wall  {what}" for what, s in ranked)


def string_values(option: JSON) -> Iterator[tuple[str, str]]:
    limits = {DISCORD_OPTION_MAX, option.get("max_length") or DISCORD_OPTION_MAX}
    for limit in sorted(limits):
        for shape, value in name_lists(limit).items():
            yield f"{shape} ×{limit}", value


async def test_every_option_of_every_command_at_its_largest_holds_the_loop_under_50_ms(table: Table) -> None:
    probe = table.probe
    await warm_up(table)
    found: dict[str, Stall] = {}
    for command, path, options in leaves(probe.harness.commands):
        name = command["name"]
        await repair(probe)
        for option in options:
            values: list[tuple[str, JSON]] = []
            if option["type"] == STRING and not option.get("choices"):
                values = [(shape, text(option["name"], value)) for shape, value in string_values(option)]
            elif option["type"] == INTEGER:
                values = [
                    (
                        "largest",
                        {"type": INTEGER, "name": option["name"], "value": option.get("max_value", 2**53)},
                    )
                ]
            for shape, value in values:
                resolved = Resolved()
                others = [
                    sensible(probe, o, resolved) for o in options if o.get("required") and o is not option
                ]
                where = f"/{name} {' '.join(path)} {option['name']}: {shape}"
                found[where] = await table.stall(name, [*others, value], path=path, resolved=resolved)
                if option.get("autocomplete"):
                    focused = {**value, "focused": True}
                    found[where + " (autocomplete)"] = await table.stall(
                        name, [*others, focused], path=path, resolved=resolved, autocomplete=True
                    )
            await repair(probe)
    print(len(found), "interactions\n" + worst(found))
    assert len(found) > 500
    assert not within(found), within(found)
