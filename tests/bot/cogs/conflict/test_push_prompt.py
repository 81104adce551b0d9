"""A Coinshot's round from the prompt, through the real dispatch (docs/rulings.md §9.3, §9.10):
Burn Steel, "Push a coin at Thug", Act — no command typed. The detail menu's push form takes the
object's size, where it is and the anchoring; a push offered while Steel burned is refused once
it no longer does; nobody else is offered one."""

import copy
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.render.buttons import OPTION_MAX, declare_detail_select, declare_select, new_action_select
from fake_discord.payloads import JSON
from rules.character import CharacterKind, Resilience
from rules.conflict import ActionKind
from rules.powers.pushes import ObjectSize
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.prompts import latest_ping
from tests.bot.cogs.conflict.test_conflict_pushes import fight, gathering, make, thug
from tests.bot.cogs.conflict.test_prompt_moves import declared, modal_fields, state
from tests.bot.cogs.conflict.test_undo import with_undo

QUICK = "Attack…"
DETAIL = "Declare with Traits, Tool, Power, Burdens, label…"
COMPONENT = 3
"""A click or a menu pick, as Discord types the interaction (a slash command is 2)."""


def options(message: JSON, placeholder: str) -> list[str]:
    """The option labels of the menu with ``placeholder`` on ``message``."""
    menus = [c for row in message.get("components", []) for c in row["components"]]
    menu = next((c for c in menus if c.get("placeholder") == placeholder), None)
    return [o["label"] for o in menu["options"]] if menu else []


def pushes(message: JSON) -> list[str]:
    return [o for m in (QUICK, DETAIL) for o in options(message, m) if o.startswith(("Push", "Pull"))]


async def prompt(env: BotEnv, user: str = "player1") -> JSON:
    await env.bot.conflicts.idle()
    return latest_ping(env, user)


def sent_by(env: BotEnv, user: str, since: int) -> list[int]:
    """The type of each interaction ``user`` sent after the first ``since``."""
    uid = str(env.user_id(user))
    sent = list(env.harness.fake.interactions.values())[since:]
    return [r.type for r in sent if str((r.payload.get("member") or {}).get("user", {}).get("id")) == uid]


async def test_a_coinshots_round_from_the_prompt_needs_no_command(bot_env: BotEnv) -> None:
    """Burn Steel, push a coin, act: three clicks, each on what the bot posted; the attack rolls
    Steel's rating against the Thug's Physique, the coin +1 in the damage (§9.3)."""
    env = bot_env
    await fight(env)
    asked = await prompt(env)
    assert pushes(asked) == []  # Steel not burning yet: the Burn button first
    since = len(env.harness.fake.interactions)
    burnt = await env.harness.click("Burn Steel", message=asked, user="player1")
    assert not refused(burnt), burnt.content
    again = await prompt(env)  # asked again after the burn, now with the pushes
    assert options(again, QUICK) == ["Thug", "Push a coin at Thug"]
    assert "push a coin at one with Steel" in again["content"]
    assert "Push at Thug…" in options(again, DETAIL)
    await env.restart()  # the menu names what it needs in its custom id and values
    picked = await env.harness.select(QUICK, ["Push a coin at Thug"], message=again, user="player1")
    assert not refused(picked), picked.content
    kel = declared(await state(env), "Kel")
    assert kel.action.kind is ActionKind.ATTACK and kel.action.push is ObjectSize.SMALL
    assert kel.dice is not None and kel.dice.stat == "Steel"
    assert "5 Action Dice — Steel 5" in str(picked.messages)
    acted = await env.harness.click("Act with 3", message=await prompt(env), user="player1")
    assert not refused(acted), acted.content
    assert "Physique against a physical attack" in str(acted.messages)
    assert sent_by(env, "player1", since) == [COMPONENT] * 3  # and not one command typed
    rolled = await env.slash('/defend dice:0 attacker_faces:"3 3 1"', user="narrator")
    assert "[1 + pushed small object 1]" in str(rolled.messages)
    hit = await env.storage.characters.get_by_name(env.guild_id, "Thug")
    assert hit.character.damage.get(Resilience.HEALTH) == 2


async def burning_steel(env: BotEnv) -> JSON:
    await fight(env)
    await env.play([("player1", "/burn metal:Steel")])
    return await prompt(env)


async def test_the_push_form_throws_a_medium_object_anchored(bot_env: BotEnv) -> None:
    """The detail menu's push form: a medium object (+2), anchored at 1 Health (§9.3), Traits
    and a label, as `/declare stat:Steel push:medium anchored:true` makes it."""
    env = bot_env
    asked = await burning_steel(env)
    opened = await env.harness.select(DETAIL, ["Push at Thug…"], message=asked, user="player1")
    assert modal_fields(opened) == ["size", "where", "anchored", "traits", "label"], opened.content
    sent = await env.harness.submit(
        {"size": "medium", "where": "loose", "anchored": True, "traits": "1", "label": "flings a horseshoe"},
        user="player1",
    )
    assert not refused(sent), sent.content
    kel = declared(await state(env), "Kel")
    assert (kel.action.push, kel.action.anchored, kel.action.label) == (
        ObjectSize.MEDIUM,
        True,
        "flings a horseshoe",
    )
    assert kel.dice is not None and (kel.dice.stat, kel.dice.traits_for) == ("Steel", 1)
    acted = await env.harness.click("Act with 3", message=await prompt(env), user="player1")
    assert not refused(acted), acted.content
    kel_sheet = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    assert kel_sheet.character.damage.get(Resilience.HEALTH) == 1  # the anchoring's Health
    rolled = await env.slash('/defend dice:0 attacker_faces:"3 3 1"', user="narrator")
    assert "[1 + pushed medium object 2]" in str(rolled.messages)


async def test_the_push_form_wrests_metal_held_or_in_the_body(bot_env: BotEnv) -> None:
    """Held or inside is a rolled action, no attack: the Contest that disarms (§9.3)."""
    env = bot_env
    asked = await burning_steel(env)
    await env.harness.select(DETAIL, ["Push at Thug…"], message=asked, user="player1")
    sent = await env.harness.submit({"size": "large", "where": "inside"}, user="player1")
    assert not refused(sent), sent.content
    kel = declared(await state(env), "Kel")
    assert kel.action.kind is ActionKind.ACTION and kel.action.push is None
    assert (kel.action.held, kel.action.inside, kel.action.anchored) == (True, True, False)
    assert kel.dice is not None and kel.dice.stat == "Steel"


async def test_a_push_is_refused_once_steel_no_longer_burns(bot_env: BotEnv) -> None:
    env = bot_env
    stale = copy.deepcopy(await burning_steel(env))  # as a slow client still shows it
    await env.play([("player1", "/burn metal:Steel burning:false")])
    assert pushes(await prompt(env)) == []
    quick = await env.harness.select(QUICK, ["Push a coin at Thug"], message=stale, user="player1")
    assert refused(quick) and quick.ephemeral
    assert "no longer burns Steel" in quick.content and "/burn metal:Steel" in quick.content
    detail = await env.harness.select(DETAIL, ["Push at Thug…"], message=stale, user="player1")
    assert refused(detail) and detail.ephemeral and detail.modal is None
    assert declared_nothing(await state(env))


def declared_nothing(conflict: Any) -> bool:
    kel = next(p for p in conflict.participants if p.name == "Kel")
    return kel.round.declaration is None


async def test_a_lurcher_pulls_with_iron(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, "Lurch", "player1", ["Iron"])
    await thug(env, [])
    script = [*gathering("player1", "Lurch"), ("narrator", "/declare who:Thug action:no-roll")]
    await env.play([*script, ("player1", "/burn metal:Iron")])
    asked = await prompt(env)
    assert pushes(asked) == ["Pull a coin at Thug", "Pull at Thug…"]
    picked = await env.harness.select(QUICK, ["Pull a coin at Thug"], message=asked, user="player1")
    assert not refused(picked), picked.content
    lurch = declared(await state(env), "Lurch")
    assert lurch.action.push is ObjectSize.SMALL and lurch.dice is not None and lurch.dice.stat == "Iron"


async def test_no_push_for_a_non_burner_nor_on_a_hidden_villains_prompt(bot_env: BotEnv) -> None:
    """Vin burns nothing; the Thug's Steel is the Narrator's, and its prompt is public (§7.1)."""
    env = bot_env
    await env.play([("player1", "/character create name:Vin physique:7 charm:3 wits:7")])
    await thug(env, ["Steel"])
    await env.play([*gathering("player1", "Vin"), ("narrator", "/burn metal:Steel who:Thug")])
    await env.bot.conflicts.idle()
    thugs = [m for m in env.harness.fake.messages.values() if "**Thug** declares" in str(m.get("content"))]
    assert thugs and options(thugs[-1], QUICK) == ["Vin"] and pushes(thugs[-1]) == []
    await env.play([("narrator", "/declare who:Thug action:no-roll")])
    vins = await prompt(env)
    assert options(vins, QUICK) == ["Thug"] and pushes(vins) == []


async def test_a_new_action_pushes_a_coin_too(bot_env: BotEnv) -> None:
    """The act step's New action… menu offers the push: a switch, its dice halved (§4.8)."""
    env = bot_env
    asked = await burning_steel(env)
    await env.harness.select(QUICK, ["Thug"], message=asked, user="player1")
    offered = await env.harness.click("New action…", message=await prompt(env), user="player1")
    assert "attack or push a coin at whom?" in offered.content
    switched = await env.harness.select(
        "New action: attack…", ["Push a coin at Thug"], message=offered.messages[-1], user="player1"
    )
    assert (
        "switches to a physical attack on **Thug** (Health) with a small metal object pushed or pulled: "
        "5 dice (Steel 5)" in str(switched.messages)
    )
    kel = next(p for p in (await state(env)).participants if p.name == "Kel")
    assert kel.round.switched and kel.round.declaration is not None
    assert kel.round.declaration.action.push is ObjectSize.SMALL


async def test_a_villains_narrator_is_offered_the_push_for_a_shown_villain(bot_env: BotEnv) -> None:
    """A revealed Villain's Steel is the table's to see, so its prompt offers the push."""
    env = bot_env
    await env.play([("player1", "/character create name:Vin physique:3 charm:3 wits:7")])
    await make(env, "Coin", "narrator", ["Steel"], kind=CharacterKind.VILLAIN)
    revealed = await env.slash("/character reveal name:Coin", user="narrator")
    assert "now open to the players" in revealed.content
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"The keep"'),
            ("player1", "/character use name:Vin"),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Coin"),
            ("narrator", "/burn metal:Steel who:Coin"),
            ("narrator", "/conflict begin"),
        ]
    )
    asked = await prompt(env, "narrator")
    assert pushes(asked) == ["Push a coin at Vin", "Push at Vin…"]


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=0, max_value=40),
    name=st.text(min_size=1, max_size=100),
    pushes_with=st.sampled_from(["", "Steel", "Iron"]),
)
@example(count=0, name="0", pushes_with="Steel")
@example(count=40, name="x" * 100, pushes_with="Iron")
def test_the_menus_keep_to_25_options_however_many_targets(count: int, name: str, pushes_with: str) -> None:
    """Every menu of targets stays within Discord's 25 options and 100 characters a label or a
    value; a target pushed at is attacked too, and up to 11 targets all get both."""
    targets = tuple((pid, f"{name}{pid}"[-100:]) for pid in range(1, count + 1))
    menus = [
        declare_select(1, 1, 99, targets, pushes_with),
        declare_detail_select(1, 1, 99, targets, pushes_with),
        new_action_select(1, 1, 99, targets, pushes_with),
    ]
    for menu in menus:
        assert 1 <= len(menu.options) <= OPTION_MAX
        for option in menu.options:
            assert len(option.label) <= 100 and len(option.value) <= 100
            assert len(option.description or "") <= 100
        values = [o.value for o in menu.options]
        pushed = [int(v.split(":")[1]) for v in values if v.startswith(("push:", "pull:"))]
        attacked = {int(v.removeprefix("attack:")) for v in values if v.removeprefix("attack:").isdigit()}
        attacked -= {0}  # "nobody", the quick menu's only option when there is no target
        assert set(pushed) <= attacked
        assert bool(pushed) == bool(pushes_with and count)
        if pushes_with and count <= 11:
            assert set(pushed) == attacked == set(range(1, count + 1))


async def test_every_pick_on_the_prompt_carries_the_scenes_circumstances(bot_env: BotEnv) -> None:
    """docs/rulings.md §1: the scene's Circumstances go on every roll that names none, so the quick
    picks (an attack, a coin, a Full defence) declare with them as ``/declare`` does."""
    env = bot_env
    asked = await burning_steel(env)
    await env.slash('/scene circumstances value:-1 note:"thick mist"', user="narrator")
    for pick, menu in (("Thug", QUICK), ("Push a coin at Thug", QUICK)):
        picked = await env.harness.select(menu, [pick], message=asked, user="player1")
        assert not refused(picked), picked.content
        kel = declared(await state(env), "Kel")
        assert kel.dice is not None and kel.dice.circumstances == -1, (pick, kel.dice)
        undone = await env.harness.click("Undo", message=with_undo(picked), user="player1")
        assert not refused(undone), undone.content
        asked = await prompt(env)
    full = await env.harness.click("Full defence", message=asked, user="player1")
    assert not refused(full), full.content
    kel = declared(await state(env), "Kel")
    assert kel.dice is not None and kel.dice.circumstances == -1
