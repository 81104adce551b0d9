"""The Keep Hasting example of the Conflicts chapter (docs/rulings.md §4–§5), played through Discord.

Only slash commands and button clicks, from the Narrator's and two players' accounts (player1
plays Thorrow, player2 plays Koel), against the real discord.py client and a SQLite file. The
deciding Contest uses the bot's own seeded dice: seed 5754 throws Thorrow's 8 dice as Result 3
with four 6s and Carrow's 4 as Result 3 with one 6, as in the text.

Playing the sheets, the set-up and the declarations takes 30 commands; they are played once per
module (``declared_snapshot``) and every test starts a new bot on a copy of the database and
the Discord they left, as a restarted bot would find them.
"""

import asyncio
import copy
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from rules.burdens import Severity
from rules.character import Resilience, resilience_current
from rules.conflict import Conflict, declaration_order, resolve_order
from storage.conflict_moves import current_conflict
from testbed.bot_env import SEED, BotEnv, Snapshot, running_bot_env, running_snapshot, table_world
from tests.support import run_apart

SEED_FOR_THE_TRIP = 5754

SHEETS = [
    # (who types, command)
    ("narrator", "/character create name:Ignus kind:Villain physique:3 charm:3 wits:2"),
    ("narrator", '/edit trait slot:personality text:"sniveling coward" name:Ignus'),
    ("narrator", '/character create name:"Cordal Bylerum" kind:Villain physique:4 wits:3'),
    ("narrator", '/edit power-add type:allomancy power:Steel rating:6 name:"Cordal Bylerum"'),
    (
        "narrator",
        '/character create name:"Carrow Bylerum" kind:Villain physique:4 charm:3 wits:5'
        " resources:4 influence:4",
    ),
    ("narrator", '/edit trait slot:feature text:"agile tumbler" name:"Carrow Bylerum"'),
    ("narrator", '/edit power-add type:allomancy power:Pewter rating:5 name:"Carrow Bylerum"'),
    ("narrator", '/edit prop-add prop:"Obsidian dagger" weapon:1 name:"Carrow Bylerum"'),
    ("narrator", '/character create name:"House guards" kind:Extra physique:3 wits:4 size:3'),
    ("player1", "/character create name:Thorrow physique:6 wits:4 resources:3 influence:3 spirit:3"),
    ("player1", '/edit trait slot:specialty text:"spear fighter"'),
    ("player1", "/edit power-add type:allomancy power:Pewter rating:5"),
    ("player1", "/edit prop-add prop:Spear weapon:2"),
    ("player2", "/character create name:Koel physique:3 charm:4 wits:3"),
    ("player2", "/edit power-add type:allomancy power:Steel rating:4"),
]

SETUP = [
    ("narrator", '/conflict start kind:physical stakes:"Keep the Bylerum Boys busy"'),
    ("player1", "/conflict join"),
    ("player2", "/conflict join"),
    ("narrator", "/conflict add character:Ignus surprised:true"),
    ("narrator", '/conflict add character:"Cordal Bylerum" surprised:true'),
    ("narrator", '/conflict add character:"House guards" surprised:true'),
    ("narrator", '/conflict add character:"Carrow Bylerum" surprised:true'),
    ("player1", "/burn metal:Pewter"),
    ("narrator", '/burn metal:Pewter who:"Carrow Bylerum"'),
    ("narrator", "/conflict begin"),
]

DECLARATIONS = [
    (
        "narrator",
        '/declare who:Ignus action:full-defence stat:Physique traits:1 tool:1 label:"ducks under the table"',
    ),
    ("narrator", '/declare who:"Cordal Bylerum" action:attack target:Koel stat:Steel'),
    ("narrator", '/declare who:"House guards" action:no-roll label:"close in"'),
    (
        "narrator",
        '/declare who:"Carrow Bylerum" action:attack target:Thorrow stat:Physique traits:1 circumstances:-1'
        ' weapon:"Obsidian dagger"',
    ),
    ("player2", '/declare action:attack target:"House guards" stat:Steel difficulty:3'),
    ("player1", '/declare action:attack target:"Carrow Bylerum" stat:Physique traits:1 weapon:Spear'),
]


async def state(env: BotEnv) -> Conflict:
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    return conflict


def ids_by_name(conflict: Conflict) -> dict[str, int]:
    return {p.name: p.id for p in conflict.participants}


async def play_to_the_declarations(db_path: Path) -> Snapshot:
    """The sheets, the set-up and everyone's declaration, played through Discord once."""
    async with running_bot_env(db_path, table_world()) as env:
        await env.play(SHEETS + SETUP)
        conflict = await state(env)
        names = [p.name for p in declaration_order(conflict)]
        assert names == ["Ignus", "Cordal Bylerum", "House guards", "Carrow Bylerum", "Koel", "Thorrow"]
        await env.play(DECLARATIONS)
        await env.bot.conflicts.boards.idle()
        # No dice were thrown yet, so a new bot with the same seed throws what this one would.
        assert env.bot.rng.getstate() == random.Random(SEED).getstate()
        messages = env.harness.fake.messages
    return Snapshot.take(env, messages)


@pytest.fixture(scope="module")
def declared_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    folder = tmp_path_factory.mktemp("keep-hasting")
    return run_apart(play_to_the_declarations(folder / "declared.sqlite3"))


@pytest.fixture
async def declared(declared_snapshot: Snapshot, tmp_path: Path) -> AsyncIterator[BotEnv]:
    """Everyone has declared: a new bot on a copy of ``declared_snapshot``."""
    async with running_snapshot(declared_snapshot, tmp_path / "bot.sqlite3") as env:
        yield env


async def test_declarations_give_the_dice_of_the_example(declared: BotEnv) -> None:
    conflict = await state(declared)
    dice = {p.name: (p.round.action_dice, p.round.defense_dice) for p in conflict.participants}
    assert dice == {
        "Ignus": (0, 5),
        "Cordal Bylerum": (6, 0),
        "House guards": (0, 0),
        "Carrow Bylerum": (9, 0),
        "Koel": (4, 0),
        "Thorrow": (12, 0),
    }
    ids = ids_by_name(conflict)
    order = [[conflict.name_of(i) for i in step] for step in resolve_order(conflict)]
    assert order == [["Thorrow"], ["Carrow Bylerum"], ["Cordal Bylerum"], ["Koel"]]
    assert ids["Thorrow"] in {p.id for p in conflict.participants}


async def test_thorrow_trips_carrow_and_wounds_him(declared: BotEnv) -> None:
    env = declared
    env.bot.rng = random.Random(SEED_FOR_THE_TRIP)
    act = await env.slash("/act dice:8", user="player1")
    assert not act.ephemeral
    narrator_id = env.user_id("narrator")
    assert act.content.startswith(f"<@{narrator_id}>")  # Carrow's controller is prompted
    labels = [c["label"] for row in act.components for c in row["components"]]
    # Carrow's sheet is the Narrator's (docs/rulings.md §7.1): the public prompt offers every
    # count, so its buttons do not tell the table he holds 9, and his dice or a Narrator view
    # to a Narrator alone.
    defend = ["Don't defend", *[f"Defend with {n}" for n in range(2, 11)]]
    assert labels == [*defend, "Its dice (Narrator)", "Narrator view", "Undo"]  # Undo: §4.24
    assert "9 Action Dice" not in act.content and "Physique" not in act.embeds[0]["description"]

    conflict = await state(env)
    thorrow = conflict.participant(ids_by_name(conflict)["Thorrow"])
    assert (thorrow.round.action_dice, thorrow.round.defense_dice) == (0, 4)

    defended = await env.harness.click("Defend with 4", user="narrator")
    assert not defended.ephemeral
    conflict = await state(env)
    ids = ids_by_name(conflict)
    carrow = conflict.participant(ids["Carrow Bylerum"])
    assert carrow.round.action_dice == 5
    order = [[conflict.name_of(i) for i in step] for step in resolve_order(conflict)]
    assert order == [["Cordal Bylerum"], ["Carrow Bylerum"], ["Koel"]]
    assert conflict.pending is not None and conflict.pending.nudges == 4  # won on Nudges, 4 to 1

    spent = await env.slash("/nudges damage:2 story:2", user="player1")
    assert not spent.ephemeral
    stored = await env.storage.characters.get_by_name(env.guild_id, "Carrow Bylerum")
    carrow_sheet = stored.character
    assert carrow_sheet.damage.health == 5  # 1 + spear 2 + 2 Nudges
    assert resilience_current(carrow_sheet, Resilience.HEALTH, burning_pewter=True) == 8
    assert [(b.name, b.severity) for b in carrow_sheet.burdens] == [("Wounded (Health)", Severity.SERIOUS)]

    await env.bot.conflicts.boards.idle()
    boards = [m for m in env.harness.fake.messages.values() if m.get("embeds") and not m.get("interaction")]
    assert boards, "the status board was never posted"


async def test_thorrow_switches_and_moves_last(declared: BotEnv) -> None:
    env = declared
    reply = await env.slash(
        '/switch action:attack target:"House guards" stat:Physique traits:1 weapon:Spear', user="player1"
    )
    assert not reply.ephemeral
    conflict = await state(env)
    thorrow = conflict.participant(ids_by_name(conflict)["Thorrow"])
    assert thorrow.round.action_dice == 6 and thorrow.round.switched
    order = [[conflict.name_of(i) for i in step] for step in resolve_order(conflict)]
    assert order[-1] == ["Thorrow"]


async def test_players_cannot_act_for_others_or_run_the_round(declared: BotEnv) -> None:
    env = declared
    refused = await env.slash("/act dice:8 who:Thorrow", user="player2")
    assert refused.ephemeral and "not yours" in refused.content
    for line in ("/conflict next-round", "/conflict end", "/conflict adjust who:Koel dice:3"):
        reply = await env.slash(line, user="player1")
        assert reply.ephemeral and "Only a Narrator" in reply.content
    out_of_turn = await env.slash("/act dice:4", user="player2")
    assert out_of_turn.ephemeral
    conflict = await state(env)
    assert {p.name: p.round.action_dice for p in conflict.participants}["Thorrow"] == 12


async def test_a_player_cannot_answer_for_someone_elses_defence(declared: BotEnv) -> None:
    env = declared
    await env.slash("/act dice:8", user="player1")
    refused = await env.harness.click("Defend with 4", user="player2")
    assert refused.ephemeral and "Only Carrow Bylerum's player or a Narrator" in refused.content
    pending = (await state(env)).pending
    assert pending is not None and pending.awaiting.value == "defence"


async def test_two_clicks_at_once_apply_once(declared: BotEnv) -> None:
    env = declared
    await env.slash("/act dice:8", user="player1")
    prompt = env.harness.last_message()
    first, second = await asyncio.gather(
        env.harness.click("Defend with 4", message=prompt, user="narrator"),
        env.harness.click("Defend with 3", message=prompt, user="narrator"),
    )
    outcomes = sorted([first.ephemeral, second.ephemeral])
    assert outcomes == [False, True]
    loser = first if first.ephemeral else second
    assert "already been settled" in loser.content or "No attack is waiting" in loser.content
    carrow = (await state(env)).participant(ids_by_name(await state(env))["Carrow Bylerum"])
    assert carrow.round.action_dice in (5, 6)  # exactly one defence was spent


async def test_a_stale_button_is_refused(declared: BotEnv) -> None:
    env = declared
    await env.slash("/act dice:8", user="player1")
    # A client that has not yet seen the prompt lose its buttons still shows the old ones.
    prompt = copy.deepcopy(env.harness.last_message())
    assert prompt is not None
    await env.harness.click("Don't defend", message=prompt, user="narrator")
    assert not env.harness.fake.messages[int(prompt["id"])].get("components")
    before = await state(env)
    stale = await env.harness.click("Defend with 4", message=prompt, user="narrator")
    assert stale.ephemeral and "already been settled" in stale.content
    assert await state(env) == before


async def test_restart_mid_defence_resumes_and_old_buttons_work(declared: BotEnv) -> None:
    env = declared
    await env.slash("/act dice:8", user="player1")
    prompt = env.harness.last_message()
    before = await state(env)
    await env.restart(seed=SEED_FOR_THE_TRIP)
    assert await state(env) == before  # same round, phase, dice and pending defence
    clicked = await env.harness.click("Defend with 4", message=prompt, user="narrator")
    assert not clicked.ephemeral
    after = await state(env)
    assert after.pending is not None and after.pending.nudges == 4
    spent = await env.slash("/nudges damage:2 story:2", user="player1")
    assert not spent.ephemeral
    carrow = (await env.storage.characters.get_by_name(env.guild_id, "Carrow Bylerum")).character
    assert carrow.damage.health == 5
