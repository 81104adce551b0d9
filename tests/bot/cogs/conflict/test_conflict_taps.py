"""The action side of the magic through the real dispatch (docs/rulings.md §9.3, §9.4, §9.7):
a Keeper tapping Steel for Action Dice and then for the Outcome, an Atium burner going first
with Atium's dice, and a Coinshot wresting a held sword braced on anchors."""

from bot.clicks import NOT_OFFERED
from fake_discord import payloads
from rules.character import CharacterKind, Resilience, make_character
from rules.character.feruchemy import Metalmind, MindSize
from rules.journal import EntryKind
from storage import StoredCharacter
from testbed.bot_env import JSON, BotEnv, controls, refused
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, make, thug
from tests.bot.cogs.conflict.test_prompt_moves import modal_fields, pinged_prompts

MIND = 60


async def sazed(env: BotEnv, charges: int = MIND) -> StoredCharacter:
    """A Keeper (Steel and Pewter at 3) with an average Steelmind holding ``charges``."""
    mind = {"kind": "metalmind", "metal": "Steel", "size": MindSize.AVERAGE, "charges": charges}
    character = make_character(
        name="Sazed",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        powers=[{"type": "feruchemy", "name": m, "rating": 3} for m in ("Steel", "Pewter")],
        attributes={"physique": 4, "charm": 3, "wits": 4},
        standings={"resources": 4, "influence": 3, "spirit": 3},
        props=[{"name": "Steel bracer", "implement": mind}],
    )
    return await env.storage.characters.create(env.guild_id, character)


async def steelmind(env: BotEnv) -> int:
    stored = await env.storage.characters.get_by_name(env.guild_id, "Sazed")
    (mind,) = [p.implement for p in stored.character.props if isinstance(p.implement, Metalmind)]
    return mind.charges


async def test_a_keeper_taps_steel_for_action_dice_then_for_the_outcome(bot_env: BotEnv) -> None:
    """§9.4: round 1 taps 5 Steel for 5 Action Dice; round 2 taps 20 for +2 Outcome on a won
    Contest; each tap is spent at the declaration (the journal keeps each line)."""
    env = bot_env
    keeper = await sazed(env)
    await thug(env, [])
    await env.play([*gathering("player1", "Sazed"), ("narrator", "/declare who:Thug action:no-roll")])
    declared = await env.slash(
        "/declare action:attack target:Thug stat:Physique tap:Steel tap_charges:5", user="player1"
    )
    assert not refused(declared), declared.content
    said = str(declared.messages)
    assert "9 Action Dice" in said and "Steel tapped 5" in said
    assert await steelmind(env) == MIND - 5
    acted = await env.slash("/act dice:9", user="player1")
    assert not refused(acted), acted.content
    await env.play(
        [
            ("narrator", '/defend dice:0 attacker_faces:"3 3 1 1 1 1 2 2 4"'),
            ("narrator", "/conflict next-round"),
            ("narrator", "/declare who:Thug action:full-defence stat:Physique"),
        ]
    )
    declared = await env.slash(
        "/declare action:attack target:Thug stat:Physique tap:steel tap_charges:20 tap_for:outcome",
        user="player1",
    )
    assert not refused(declared), declared.content
    assert "+2 Outcome on a success" in str(declared.messages)
    assert await steelmind(env) == MIND - 25
    await env.play([("player1", "/act dice:4")])
    rolled = await env.slash('/defend dice:2 attacker_faces:"5 5 1 2" faces:"4 4"', user="narrator")
    assert not refused(rolled), rolled.content
    assert "**Sazed** succeeds" in str(rolled.messages)
    assert "Outcome +3, with what Steel tapped gave" in str(rolled.messages)  # 5 − 4, +2 tapped
    story = [s.entry for s in await env.storage.journal.of_character(env.guild_id, keeper.id)]
    assert len([e for e in story if e.kind is EntryKind.METALS]) == 2


async def test_a_tap_the_sheet_cannot_pay_is_refused_privately(bot_env: BotEnv) -> None:
    env = bot_env
    await sazed(env, charges=8)
    await thug(env, [])
    await env.play([*gathering("player1", "Sazed"), ("narrator", "/declare who:Thug action:no-roll")])
    lines = [
        ("tap:Steel tap_charges:31", "taps 1 to 30 Steel"),
        ("tap:Steel tap_charges:10", "fullest Steelmind holds 8"),
        ("tap:Steel tap_charges:7 tap_for:nudges", "multiple of 5"),
        ("tap:Tin tap_charges:5", "no Feruchemical Tin"),
        ("tap_charges:5", "Name the metal to tap"),
        ("tap:Steel", "how many charges"),
    ]
    for options, refusal in lines:
        reply = await env.slash(f"/declare action:attack target:Thug stat:Physique {options}", user="player1")
        assert refused(reply) and reply.ephemeral, options
        assert refusal in reply.content, (options, reply.content)
    assert await steelmind(env) == 8


async def test_an_atium_burner_declares_last_and_acts_first_with_atiums_dice(bot_env: BotEnv) -> None:
    """§9.3: the Thug (Wits 2) burning Atium declares after Kel (Wits 4) and resolves before
    him, with Atium's 5 dice on his attack."""
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, ["Atium"])
    await env.play([*gathering("player1", "Kel"), ("narrator", "/burn metal:Atium who:Thug")])
    early = await env.slash("/declare who:Thug action:attack target:Kel stat:Physique")
    assert refused(early) and "Kel's turn to declare" in early.content
    await env.play([("player1", "/declare action:attack target:Thug stat:Physique traits:6")])
    declared = await env.slash("/declare who:Thug action:attack target:Kel stat:Physique")
    said = str(declared.messages)
    assert "Atium 5" in said and "10 Action Dice" in said
    late = await env.slash("/act dice:4", user="player1")
    assert refused(late) and "Thug acts first" in late.content


async def test_a_coinshot_wrests_a_held_sword_braced_on_anchors(bot_env: BotEnv) -> None:
    """§9.3: a Contest against the holder's Physique; a win disarms or knocks down; the anchors
    cost Kel 1 Health."""
    env = bot_env
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, [])
    await env.play(
        [
            *gathering("player1", "Kel"),
            ("narrator", "/declare who:Thug action:no-roll"),
            ("player1", "/burn metal:Steel"),
        ]
    )
    declared = await env.slash(
        "/declare action:action target:Thug stat:Steel held:true anchored:true", user="player1"
    )
    assert not refused(declared), declared.content
    assert "on a metal object they hold, braced on anchors" in str(declared.messages)
    acted = await env.slash("/act dice:5", user="player1")
    assert "braces between two heavy anchors" in str(acted.messages)
    rolled = await env.slash('/defend dice:2 attacker_faces:"5 5 1 2 3" faces:"1 2"', user="narrator")
    said = str(rolled.messages)
    assert "Physique 5" in said and "disarmed or knocked down" in said
    kel = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    assert kel.character.damage.get(Resilience.HEALTH) == 1
    thug_sheet = await env.storage.characters.get_by_name(env.guild_id, "Thug")
    assert thug_sheet.character.damage.get(Resilience.HEALTH) == 0


async def keepers_turn(env: BotEnv) -> JSON:
    """Sazed's turn to declare against a Thug who takes no roll: the prompt pinging his player."""
    await sazed(env)
    await thug(env, [])
    await env.play([*gathering("player1", "Sazed"), ("narrator", "/declare who:Thug action:no-roll")])
    await env.bot.conflicts.idle()
    return pinged_prompts(env, "player1")[-1]


async def test_a_keepers_round_from_the_prompt_taps_in_the_declare_form(bot_env: BotEnv) -> None:
    """The declare form offers a Keeper a tap (§9.4): the menu, the form and Act with 9 make the
    round, three interactions, the Narrator's defence apart."""
    env = bot_env
    prompt = await keepers_turn(env)
    detail = "Declare with Traits, Tool, Power, Burdens, label…"
    opened = await env.harness.select(detail, ["Attack Thug"], message=prompt, user="player1")
    assert modal_fields(opened) == ["stat", "traits", "tool", "tap", "label"]
    wrong = await env.harness.submit({"tap": "Steel lots"}, user="player1")
    assert refused(wrong) and "Steel 20 outcome" in wrong.content
    await env.harness.select(detail, ["Attack Thug"], message=prompt, user="player1")
    unreadable = await env.harness.submit({"tap": "Steel ²"}, user="player1")  # isdigit, not int
    assert refused(unreadable) and "Steel 20 outcome" in unreadable.content, unreadable.content
    await env.harness.select(detail, ["Attack Thug"], message=prompt, user="player1")
    sent = await env.harness.submit({"tap": "Steel 5"}, user="player1")
    assert not refused(sent), sent.content
    assert await steelmind(env) == MIND - 5
    await env.bot.conflicts.idle()
    acted = await env.harness.click("Act with 9", message=pinged_prompts(env, "player1")[-1], user="player1")
    assert not refused(acted), acted.content


async def test_a_hidden_villains_tap_is_the_narrators_only(bot_env: BotEnv) -> None:
    """§7.1, §9.9: a Villain's tap spends and counts, but the table sees neither the metal nor
    the charges, on the declaration, the roll or the journal."""
    env = bot_env
    mind = {"kind": "metalmind", "metal": "Steel", "size": MindSize.AVERAGE, "charges": MIND}
    villain = make_character(
        name="Keeper",
        kind=CharacterKind.VILLAIN,
        owner_id=env.user_id("narrator"),
        powers=[{"type": "feruchemy", "name": "Steel", "rating": 3}],
        attributes={"physique": 4, "charm": 3, "wits": 2},
        standings={"resources": 4, "influence": 3, "spirit": 3},
        props=[{"name": "Steel bracer", "implement": mind}],
    )
    stored = await env.storage.characters.create(env.guild_id, villain)
    await make(env, "Kel", "player1", ["Steel"])
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"The keep"'),
            ("player1", "/character use name:Kel"),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Keeper"),
            ("narrator", "/conflict begin"),
        ]
    )
    declared = await env.slash(
        "/declare who:Keeper action:attack target:Kel stat:Physique tap:Steel tap_charges:20 tap_for:outcome"
    )
    assert not refused(declared), declared.content
    public = [m for m in declared.messages if not int(m.get("flags") or 0) & 64]
    assert public and all("tapped" not in str(m) and "Steel bracer" not in str(m) for m in public)
    story = [s.entry for s in await env.storage.journal.of_character(env.guild_id, stored.id)]
    [line] = [e for e in story if e.kind is EntryKind.METALS]
    assert "-20 Steel (tapped)" in line.text and line.public is None
    await env.play([("player1", "/declare action:no-roll"), ("narrator", "/act who:Keeper dice:4")])
    rolled = await env.slash("/defend dice:0", user="player1")
    assert not refused(rolled), rolled.content
    assert "tapped" not in str([m for m in rolled.messages if not int(m.get("flags") or 0) & 64])


async def test_a_forged_pick_in_the_declare_menu_is_refused_plainly(bot_env: BotEnv) -> None:
    """Discord sends only a menu's own values: any other (a target that is no id, an action the
    menu never listed) came from a forged click, and is the user's error, said privately."""
    env = bot_env
    prompt = await keepers_turn(env)
    menu = next(c for c in controls(prompt) if str(c.get("placeholder", "")).startswith("Declare with"))
    player = env.harness.actor("player1")
    for value in ("attack:x", "attack:²", "attack:" + "1" * 25, "dance"):
        answered = await env.harness.send(payloads.component_click(env.world, player, prompt, menu, [value]))
        assert refused(answered) and answered.content == NOT_OFFERED, (value, answered.content)
    opened = await env.harness.select(menu["placeholder"], ["Attack Thug"], message=prompt, user="player1")
    assert modal_fields(opened) == ["stat", "traits", "tool", "tap", "label"]
