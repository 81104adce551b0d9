"""Issue 13, "the rules as written", through the real discord.py path (docs/rulings.md §2–§5).

Each test types the commands a table would and reads what the bot answers; the rule each one
checks is paraphrased in its docstring.
"""

import json
import random
from pathlib import Path

import pytest

from fake_discord.layout import texts
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, Resilience, make_character
from rules.conflict import ConflictType, resolve_order
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, is_board
from testbed.cards import card_field, card_lead, card_text, card_title
from tests.rules.conflict.builders import cast

V1 = Path(__file__).parents[3] / "rules" / "conflict" / "fixtures" / "conflict_v1.json"
"""A Conflict saved by the engine before attacks had a kind (see tests/rules/conflict/test_upgrade.py)."""
CONTEST_SEED = 38
"""Throws the actor's 3 dice as 6 4 4 and the defender's 3 as 6 1 1 (``/contest``)."""


def labels(record: InteractionRecord) -> list[str]:
    return [c["label"] for row in record.components for c in row["components"]]


def narrator_figures(record: InteractionRecord) -> str:
    """The full figures a Narrator's move sends them privately: the public reply shows the
    Narrator's Villains by name and plain state only (docs/rulings.md §7.1)."""
    private = [m for m in record.followups if m["flags"] & 64 and m.get("embeds")]
    assert private, "no private figures for the Narrator"
    return str(private[0]["embeds"][0]["description"])


def field(record: InteractionRecord, name: str) -> str:
    """A card's ``**name:** value``, or an embed's field of that name."""
    assert record.message is not None
    return card_field(record.message, name)


def lead(record: InteractionRecord) -> str:
    assert record.message is not None
    return card_lead(record.message)


async def test_read_a_failed_set_counts_as_zero(bot_env: BotEnv) -> None:
    """docs/rulings.md §2.5: a failed roll's Result is 0 for the Outcome. A set of 4s against
    Difficulty 5 is Outcome −5 with 5 Complications, and the 4s are still shown."""
    reply = await bot_env.slash('/read faces:"4 4 1" difficulty:5', user="player2")
    assert lead(reply).startswith("Failure — Result 4 vs Difficulty 5")
    assert field(reply, "Dice") == "**4** **4** 1"
    assert field(reply, "Outcome") == "-5 — Disastrous"
    assert field(reply, "Complications").startswith("5")


async def test_contest_failed_outright_has_the_defenders_result_as_outcome(bot_env: BotEnv) -> None:
    """docs/rulings.md §3.6: when the actor fails outright, their Result counts as 0, so the
    Contest's Outcome is the defender's Result (1 here, not 1 − 4 floored at 0)."""
    bot_env.bot.rng = random.Random(CONTEST_SEED)
    reply = await bot_env.slash("/contest actor_dice:3 opponent_dice:3 difficulty:5", user="player1")
    assert reply.message is not None
    assert card_title(reply.message) == "Opposing side wins"
    assert lead(reply).startswith("The acting side's action failed outright")
    sides = [t for t in texts(reply.message["components"]) if t.startswith("**")]
    assert [t.splitlines()[-1] for t in sides] == ["Result 4 · Nudges 1", "Result 1 · Nudges 1"]
    assert "Contest Outcome 1" in card_text(reply.message)


async def test_odds_of_a_failure_heavy_roll(bot_env: BotEnv) -> None:
    """docs/rulings.md §2.5 in the exact odds: 2 dice against Difficulty 5 fail 35 times in 36,
    and every failure reads −5 (no −1 for a pair of 4s), with 163/36 Complications expected."""
    reply = await bot_env.slash("/odds roll dice:2 difficulty:5")
    assert "2.8%" in lead(reply)
    assert field(reply, "Outcomes") == "`-5` 97.2%\n`+0` 2.8%"
    assert field(reply, "Expected Complications") == "4.53"


async def test_the_roll_log_keeps_the_outcome_as_read(bot_env: BotEnv) -> None:
    """docs/rulings.md §2.5 in the roll log: seed 0 throws 4 4 1, so `/roll dice:3 difficulty:5`
    fails with a set of 4s, and the log (and `/history rolls`) says Outcome −5."""
    bot_env.bot.rng = random.Random(0)
    reply = await bot_env.slash("/roll dice:3 difficulty:5", user="player1")
    assert field(reply, "Outcome") == "-5 — Disastrous"
    (logged,) = await bot_env.storage.rolls.recent(bot_env.guild_id)
    assert (logged.faces, logged.result, logged.outcome, logged.success) == ((4, 4, 1), 4, -5, False)
    history = await bot_env.slash("/history rolls", user="player1")
    assert "Result 4 vs 5, Outcome -5" in history.embeds[0]["description"]


async def test_free_nudges_alone_offer_no_beat(bot_env: BotEnv) -> None:
    """docs/rulings.md §2.10: only rolled 6s catch a Beat. Seed 0 throws 13 dice's 10 as a set
    of 4s without a single 6: the 3 free Nudges are perks of the success, and no Beat is offered."""
    bot_env.bot.rng = random.Random(0)
    reply = await bot_env.slash("/roll dice:13", user="player1")
    assert lead(reply).startswith("Success — Result 4")
    nudges = field(reply, "Nudges")
    assert nudges.startswith("3 (0 rolled + 3 free)")
    assert "catch a Beat:" not in nudges and "Only rolled 6s catch a Beat" in nudges


async def vin_against_a_busy_thug(env: BotEnv, physique: int, attack: str = "stat:Physique") -> None:
    """Vin (player1's Hero, Physique ``physique``) attacks a Thug (Physique 5, Wits 2, leather
    armour 1) who is busy barring a door: an action that needs no roll."""
    guild = env.guild_id
    vin = make_character(
        name="Vin",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        attributes={"physique": physique, "wits": 4},
    )
    thug = make_character(
        name="Thug",
        kind=CharacterKind.VILLAIN,
        owner_id=env.user_id("narrator"),
        attributes={"physique": 5, "wits": 2},
        props=[{"name": "Leather", "armour": 1}],
    )
    stored = await env.storage.characters.create(guild, vin)
    await env.storage.characters.create(guild, thug)
    await env.storage.active.set(guild, env.user_id("player1"), stored.id)
    for user, line in [
        ("narrator", '/conflict start kind:physical stakes:"A brawl in the alley"'),
        ("player1", "/conflict join"),
        ("narrator", "/conflict add character:Thug"),
        ("narrator", "/conflict begin"),
        ("narrator", '/declare who:Thug action:no-roll label:"bars the door"'),
        ("player1", f"/declare action:attack target:Thug {attack}"),
    ]:
        reply = await env.slash(line, user=user)
        assert not reply.ephemeral, reply.content


@pytest.mark.parametrize(("physique", "beat"), [(5, False), (6, False), (7, True)])
async def test_the_beat_button_shows_only_with_dice_to_act(
    bot_env: BotEnv, physique: int, beat: bool
) -> None:
    """docs/rulings.md §2.10, §4.15: three rolled 6s catch a Beat, but in a Conflict the extra
    action needs a pool of 2 from the dice left, so the button shows only then (Vin attacks
    with 5 dice and keeps none, 1 or 2; issue 17, defect 6)."""
    await vin_against_a_busy_thug(bot_env, physique)
    await bot_env.slash("/act dice:5", user="player1")
    rolled = await bot_env.slash('/defend dice:0 attacker_faces:"6 6 6 3 3"', user="narrator")
    assert "has 3 Nudges to spend" in rolled.content
    beats = ["Catch a Beat"] if beat else []
    assert labels(rolled) == ["All on damage", *beats, "Spend none", "Split Nudges…", "Undo"]


def board_text(env: BotEnv) -> str:
    channel = str(env.world.guild.channels[0].id)
    boards = [m for m in env.harness.fake.messages.values() if m["channel_id"] == channel and is_board(m)]
    return card_text(boards[-1])


async def test_a_physical_attack_on_willpower_against_a_busy_target(bot_env: BotEnv) -> None:
    """docs/rulings.md §4.5, §4.11, §5.2: Vin beats the Thug to break his will — a physical
    attack (Physique) on Willpower. Busy with a no-roll action, the Thug gets Defense Dice by
    the kind of the attack (his Physique 5, not the Wits 2 that Willpower would suggest), his
    armour stops a point because the blow is physical, and the kind is shown throughout."""
    env = bot_env
    await vin_against_a_busy_thug(env, 4, "stat:Physique resilience:willpower")
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    declaration = conflict.participant(1).round.declaration
    assert declaration is not None
    declared = declaration.action
    assert (declared.attack_kind, declared.resilience) == (ConflictType.PHYSICAL, Resilience.WILLPOWER)

    acted = await env.slash("/act dice:4", user="player1")
    assert "**Vin** attacks **Thug** (physical, Willpower) with 4 dice" in acted.embeds[0]["description"]
    # The Thug is the Narrator's: the public prompt names the rule, not his dice (§7.1).
    assert "Vin makes a physical attack on their Willpower with 4 dice" in acted.content
    assert "they get Defense Dice from their Physique against a physical attack" in acted.content
    assert "Narrator: choose the defence below" in acted.content and "5 Defense Dice" not in acted.content
    await env.bot.conflicts.boards.idle()
    board = board_text(env)
    assert "physical attack → **Thug** (Will)" in board
    assert "In progress: **Vin** → **Thug** (physical, Willpower), 4 dice" in board

    rolled = await env.slash('/defend dice:0 attacker_faces:"3 3 1 2"', user="narrator")
    public, lines = rolled.embeds[0]["description"], narrator_figures(rolled)
    assert "**Thug** is busy elsewhere, so gets Defense Dice\n" in public and "armour 1" not in public
    # The table sees the blow glance off, never the armour's value (issue 29; §7.1).
    assert "**Thug** is hit, but armour stops the blow: still unhurt" in public
    assert "**Thug** is busy elsewhere, so gets 5 Defense Dice — Physique 5" in lines
    assert "**Thug** takes no damage (1 − armour 1)" in lines
    thug = (await env.storage.characters.get_by_name(env.guild_id, "Thug")).character
    assert thug.damage.willpower == 0


async def test_a_conflict_saved_before_attack_kinds_plays_on(bot_env: BotEnv) -> None:
    """A Conflict saved by the old engine (schema 1, tests/rules/conflict/fixtures/conflict_v1.json) is
    loaded by the bot, upgraded, and played on by the rule as written (docs/rulings.md §4.11):
    the busy Thug defends Vin's Physique attack on his Willpower with his Physique."""
    env = bot_env
    for character_id, sheet in sorted(cast().items()):
        owner = env.user_id("player1" if sheet.kind is CharacterKind.HERO else "narrator")
        stored = await env.storage.characters.create(
            env.guild_id, sheet.model_copy(update={"owner_id": owner})
        )
        assert stored.id == character_id
    channel = env.world.guild.channels[0].id
    document = json.loads(V1.read_text(encoding="utf-8"))
    document["channel_id"] = channel
    await env.storage.conflicts.create(env.guild_id, channel, json.dumps(document))

    status = await env.slash("/conflict status", user="player1")
    assert status.ephemeral
    await env.bot.conflicts.boards.idle()
    assert "physical attack → **Thug** (Will)" in board_text(env)
    rolled = await env.slash('/defend dice:0 attacker_faces:"3 3 1"', user="narrator")
    lines = narrator_figures(rolled)
    assert "**Thug** is busy elsewhere, so gets 5 Defense Dice — Physique 5" in lines
    # Vin's best weapon counts for the physical blow, taken when it lands (docs/rulings.md §5.1).
    assert "**Thug** takes 1 damage to Willpower (4 → 3)" in lines
    assert "[1 + Dagger 1 − armour 1]" in lines
    upgraded = await current_conflict(env.storage, env.guild_id, channel)
    assert upgraded is not None
    assert upgraded.schema_version == 2


@pytest.fixture
async def three_way(bot_env: BotEnv) -> BotEnv:
    """Brute (6 Action Dice) and Thug (5) attack Vin (player1's Hero, 4), who attacks the Thug."""
    env = bot_env
    guild = env.guild_id
    narrator = env.user_id("narrator")
    vin = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"), attributes={"physique": 4}
    )
    stored = await env.storage.characters.create(guild, vin)
    await env.storage.active.set(guild, env.user_id("player1"), stored.id)
    for name, physique in (("Thug", 5), ("Brute", 6)):
        sheet = make_character(
            name=name, kind=CharacterKind.VILLAIN, owner_id=narrator, attributes={"physique": physique}
        )
        await env.storage.characters.create(guild, sheet)
    for user, line in [
        ("narrator", '/conflict start kind:physical stakes:"A brawl in the alley"'),
        ("player1", "/conflict join"),
        ("narrator", "/conflict add character:Thug"),
        ("narrator", "/conflict add character:Brute"),
        ("narrator", "/conflict begin"),
        ("narrator", "/declare who:Vin action:attack target:Thug stat:Physique"),
        ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
        ("narrator", "/declare who:Brute action:attack target:Vin stat:Physique"),
    ]:
        reply = await env.slash(line, user=user)
        assert not reply.ephemeral, f"{line}: {reply.content}"
    return env


async def order_names(env: BotEnv) -> list[list[str]]:
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    return [[conflict.name_of(pid) for pid in step] for step in resolve_order(conflict)]


async def test_a_switcher_goes_after_someone_holding_one_die(three_way: BotEnv) -> None:
    """docs/rulings.md §4.7: a character who declares a new action goes at the very end of the
    round, after everyone still to act — here after Vin, who holds a single die."""
    env = three_way
    await env.slash("/conflict adjust who:Vin dice:-3")
    assert await order_names(env) == [["Brute"], ["Thug"], ["Vin"]]
    switched = await env.slash("/switch who:Brute action:attack target:Vin stat:Physique traits:1")
    assert "halved" not in switched.embeds[0]["description"]  # Brute's dice are the Narrator's
    lines = narrator_figures(switched)
    assert "halved to 4 → 4 Action Dice; goes last" in lines
    assert await order_names(env) == [["Thug"], ["Vin"], ["Brute"]]
    await env.bot.conflicts.boards.idle()
    # The public board shows no count for the Narrator's Thug; the Narrator view does (§7.1).
    assert "Resolve order: ▶ **Thug** · **Vin** 1 · **Brute** (switched, goes last)" in board_text(env)
    full = await env.harness.click("Narrator view", user="narrator")
    assert full.ephemeral and "Resolve order: ▶ **Thug** 5 · **Vin** 1" in card_text(full.messages[0])


async def test_one_action_die_can_only_not_act(three_way: BotEnv) -> None:
    """docs/rulings.md §4.9: with 1 Action Die no pool can be formed: the bot says so plainly,
    offers only not acting, refuses `/act` and `/switch`, and `/pass` works."""
    env = three_way
    await env.slash("/conflict adjust who:Vin dice:-3")
    await env.slash("/pass who:Brute")
    passed = await env.slash("/pass who:Thug")
    assert next(f["value"] for f in passed.embeds[0]["fields"] if f["name"] == "Next") == (
        "Not act: **Vin** (1 Action Die: too few for a pool, so they can only not act) — `/pass`"
    )
    acted = await env.slash("/act dice:2", user="player1")
    assert acted.ephemeral
    assert (
        "Vin holds only 1 Action Die, too few for a pool of 2: they can only choose not to act"
        in acted.content
    )
    switched = await env.slash("/switch action:attack target:Brute stat:Physique traits:9", user="player1")
    assert switched.ephemeral and "can only choose not to act" in switched.content
    held = await env.slash("/pass", user="player1")
    assert (
        not held.ephemeral
        and "**Vin** does not act: now holds 1 Defense Die" in held.embeds[0]["description"]
    )
    help_reply = await env.slash("/help", user="player1")
    assert "with fewer than 2 you cannot act, only `/pass`" in field(help_reply, "The dice")
    assert "its Outcome is −Difficulty" in field(help_reply, "The dice")


async def test_two_action_dice_act_with_a_pool_of_two(three_way: BotEnv) -> None:
    """A pool of 2 is a pool (docs/rulings.md §4.8): `/act dice:2` with exactly 2 Action Dice is
    taken, not refused."""
    env = three_way
    await env.slash("/conflict adjust who:Vin dice:-2")
    await env.slash("/pass who:Brute")
    passed = await env.slash("/pass who:Thug")
    assert "Act: **Vin** (2 Action Dice) — `/act`" in str(passed.embeds[0]["fields"])
    acted = await env.slash("/act dice:2", user="player1")
    assert not acted.ephemeral
    assert "**Vin** attacks **Thug** (physical, Health) with 2 dice" in acted.embeds[0]["description"]
