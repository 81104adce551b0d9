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
  and every autocomplete with them;
* the surfaces that read or draw much: a night of 6,000 entries of a thousand emoji each
  (``/session`` end, recap and journal, ``/sheet history``, the web view's Sessions pages), the
  largest pictures for ``/character portrait`` and its upload form, ``/say`` and the forms at
  their longest.

A Conflict of 25 fighters with the longest names run in a thread, and the widest cards, are
``test_loop_stalls_conflict.py``'s; pictures built to be costly, read two at once beside another
server, ``test_loop_stalls_pictures.py``'s; a mistyped name against a full roster,
``test_loop_stalls_roster.py``'s.
"""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cogs.say import TEXT_MAX as SAY_MAX
from fake_discord import payloads
from fake_discord.payloads import Resolved
from rules.character import CharacterKind, export_character, make_character
from rules.character.limits import CONCEPT_MAX, NAME_MAX
from rules.character.sheet_files import MAX_UPLOAD_BYTES
from rules.character.transfer import MAX_FILE_BYTES
from storage.journal import TITLE_MAX
from storage.places import Origin
from testbed.bot_env import BotEnv
from testbed.stalls import (
    CRAFTED_FILES,
    DISCORD_OPTION_MAX,
    WIDE,
    Stall,
    StallMeter,
    answered,
    long_night,
    measured,
    name_lists,
    portrait_images,
    widest,
)
from tests.bot.cogs.characters.builder_support import LABELS
from tests.bot.seeded_table import repair, seed_table, sensible
from tests.bot.test_bad_input import ATTACHMENT, INTEGER, JSON, STRING, LogCatcher, Probe, leaves, nest, text
from tests.rules.character.test_roll20 import SAMPLES
from tests.web.support import logged_in, web_client

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
    return "\n".join(
        f"{s.cpu * 1000:6.1f} ms CPU {s.wall * 1000:6.1f} ms wall {s.lag * 1000:6.1f} ms lag  {what}"
        for what, s in ranked
    )


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


async def test_a_long_night_of_widest_entries_holds_the_loop_under_50_ms(bot_env: BotEnv) -> None:
    """6,000 entries of 1,000 emoji each: the recap, the Markdown journal and the web pages are
    built, and the entries read back, off the loop (``storage.journal.read_documents``)."""
    env = bot_env
    env.bot.settings.costly_per_minute = 0
    await env.slash(f'/session start title:"{WIDE * TITLE_MAX}"')
    channel = env.world.guild.channels[0].id
    session = await env.storage.journal.open_in(env.guild_id, channel)
    assert session is not None
    await env.storage.journal.add(env.guild_id, Origin(channel_id=channel), long_night(session.started_at))
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"))
    assert (await env.storage.characters.create(env.guild_id, vin)).id <= 200, "one of the night's Heroes"
    found: dict[str, Stall] = {}
    cases = [
        ("/session status", "Session #"),
        ("/session end", "recap"),
        ("/session recap", "recap"),
        ("/session journal", "The journal of session"),
        ("/sheet history name:Vin", "story so far"),
    ]
    with StallMeter().measuring() as meter:
        for line, expect in cases:
            for user in ("narrator", "player1")[: 1 if line == "/session end" else 2]:
                act = env.slash(line, user)
                found[f"{line} ({user})"] = await answered(env, meter, act, expect)
        found.update(await web_pages(env, meter))
    print(worst(found))
    assert not within(found), within(found)


async def web_pages(env: BotEnv, meter: StallMeter) -> dict[str, Stall]:
    """The web view's Sessions page and the long night's page, as the Narrator and a player."""
    [session] = await env.storage.journal.sessions(env.guild_id)
    found: dict[str, Stall] = {}
    for user, narrator in (("narrator", True), ("player1", False)):
        async with web_client(env) as client:
            await logged_in(client, env, user, narrator=narrator)
            for page in ("sessions", f"sessions/{session.id}"):
                stall, response = await measured(env, meter, client.get(f"/g/{env.guild_id}/{page}"))
                assert response.status == 200 and WIDE in await response.text()
                found[f"web /{page} ({user})"] = stall
    return found


async def test_portraits_and_forms_at_their_largest_hold_the_loop_under_50_ms(
    vin: BotEnv, tmp_path: Path
) -> None:
    """The largest pictures, as the command's option and in its upload form (decoded in a
    worker thread), ``/say`` at its longest line and in its form, ``/edit ratings``'s form and
    the builder's first form (a radio group and menus), every text at its longest in wide
    characters."""
    env = vin
    env.bot.settings.costly_per_minute = 0
    env.bot.portrait_reader.turns.per_minute = 0
    found: dict[str, Stall] = {}
    line = (WIDE * SAY_MAX)[:SAY_MAX]
    with StallMeter().measuring() as meter:
        await env.slash("/roll dice:2", user="player1")  # warm up: a first call's one-time costs
        for name, data in portrait_images().items():
            path = tmp_path / "picture"
            path.write_bytes(data)
            act = env.slash(f'/character portrait image:"{path}"', user="player1")
            found[f"/character portrait {name}"] = await answered(env, meter, act, "New portrait")
            act = env.slash("/character portrait", user="player1")
            found[f"/character portrait (the form) {name}"] = await answered(env, meter, act)
            image = env.harness.attach(path)
            act = env.harness.submit({}, user="player1", files={"image": [image]})
            found[f"the portrait form {name}"] = await answered(env, meter, act, "New portrait")
        for said in (line, WIDE * DISCORD_OPTION_MAX):
            act = env.slash_overriding_visibility("say", [text("text", said)], "player1")
            found[f"/say {len(said):,} characters"] = await answered(env, meter, act)
        opened = await env.slash("/say", user="player1")
        assert opened.modal is not None
        [field] = payloads.text_inputs(opened.modal)
        act = env.harness.submit({field["custom_id"]: line}, user="player1")
        found["the /say form"] = await answered(env, meter, act, "Said as Vin")
        await env.slash("/edit ratings part:Attributes name:Vin", user="player1")
        ratings = {"Physique": "6", "Charm": "5", "Wits": "2", "Strong, average and weak": LABELS}
        act = env.harness.submit(ratings, user="player1")
        found["the /edit ratings form"] = await answered(env, meter, act, "Physique 6")
        found |= await first_forms(env, meter)
    print(worst(found))
    assert not within(found), within(found)


async def first_forms(env: BotEnv, meter: StallMeter) -> dict[str, Stall]:
    """The builder's first form, sent with every text at its longest, a refused and an accepted."""
    found: dict[str, Stall] = {}
    name, concept = widest(NAME_MAX), widest(CONCEPT_MAX)
    await env.slash(f'/character create name:"{name}"', user="player2")
    first = {"name": name, "concept": concept, "Strong, average and weak": LABELS, "Powers": "Misting"}
    act = env.harness.submit(first, user="player2")
    found["the builder's first form (refused)"] = await answered(env, meter, act, "Not saved")
    act = env.harness.submit(first | {"A Misting's metal": "Tin"}, user="player2")
    found["the builder's first form"] = await answered(env, meter, act, "step 3 of 7")
    return found
