"""The Conflict's corners and words (issue 29): weapons and Props, failed actions, called kinds,
groups' verbs, the tie line and armour, each through the real dispatch."""

import pytest

from bot.render.dice import outcome_text
from rules.roll import read
from testbed.bot_env import BotEnv, board_message, embeds_text, refused
from testbed.cards import card_text, card_title

STRAFF_SNEERS = [
    ("player1", "/character create name:Vin physique:3 charm:3 wits:4"),
    ("narrator", "/character create name:Straff kind:Villain physique:3 charm:5 wits:2"),
    ("narrator", '/edit prop-add prop:"Duelling blade" weapon:2 name:Straff'),
    ("narrator", '/edit prop-add prop:"Forged letter" weapon:1 name:Straff'),
    ("narrator", '/conflict start kind:social stakes:"The ball"'),
    ("player1", "/conflict join"),
    ("narrator", "/conflict add character:Straff"),
    ("narrator", "/conflict begin"),
]


@pytest.mark.parametrize(
    ("options", "damage", "sum"),
    [
        # A sword does not sharpen an insult (docs/rulings.md §5.1)...
        ("stat:Charm", "1 damage to Reputation", "[1]"),
        # ...but a Prop the social attack names adds its bonus.
        ('stat:Charm weapon:"Forged letter"', "2 damage to Reputation", "[1 + Forged letter 1]"),
        # A physical blow takes the best weapon unnamed.
        ("stat:Physique", "3 damage to Health", "[1 + Duelling blade 2]"),
    ],
)
async def test_a_blade_does_not_sharpen_an_insult(
    bot_env: BotEnv, options: str, damage: str, sum: str
) -> None:
    env = bot_env
    await env.play(STRAFF_SNEERS)
    await env.play(
        [
            ("narrator", f"/declare who:Straff action:attack target:Vin challenge:true {options}"),
            ("player1", "/declare action:full-defence stat:Charm"),
        ]
    )
    hit = await env.slash('/act dice:2 who:Straff faces:"3 3"', user="narrator")
    assert not refused(hit), hit.content
    [line] = [line for line in hit.text.splitlines() if "**Vin** takes" in line][:1]
    assert f"**Vin** takes {damage}" in line and line.endswith(sum)


async def test_a_prop_named_when_acting_counts_for_the_called_kind(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(STRAFF_SNEERS)
    await env.play(
        [
            ("narrator", "/declare who:Straff action:attack target:Vin challenge:true stat:Physique"),
            ("player1", "/declare action:full-defence stat:Charm"),
        ]
    )
    called = '/act dice:2 who:Straff kind:social weapon:"Forged letter" faces:"3 3"'
    hit = await env.slash(called, user="narrator")
    assert not refused(hit), hit.content
    assert "**Vin** takes 2 damage to Health (5 → 3)" in hit.text and "[1 + Forged letter 1]" in hit.text
    assert "Duelling blade" not in hit.text


async def test_the_weapon_option_suggests_the_movers_props(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(STRAFF_SNEERS)
    offered = await env.harness.autocomplete("/declare action:attack who:Straff weapon:", user="narrator")
    assert [c["name"] for c in offered.choices] == ["Duelling blade", "Forged letter"]
    hidden = await env.harness.autocomplete("/declare action:attack who:Straff weapon:", user="player1")
    assert hidden.choices == []  # a Villain's Props are the Narrator's (docs/rulings.md §7.1)
    acting = await env.harness.autocomplete("/act dice:2 who:Straff weapon:Forg", user="narrator")
    assert [c["name"] for c in acting.choices] == ["Forged letter"]


async def test_a_kind_called_at_act_is_what_the_board_shows(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(STRAFF_SNEERS)
    await env.play(
        [
            ("narrator", "/declare who:Straff action:attack target:Vin stat:Physique challenge:true"),
            ("player1", "/declare action:full-defence stat:Charm"),
        ]
    )
    called = '/act dice:2 who:Straff kind:mental resilience:Willpower faces:"3 3"'
    hit = await env.slash(called, user="narrator")
    assert not refused(hit), hit.content
    assert "**Vin** takes 1 damage to Willpower" in hit.text  # no blade in a mental attack
    await env.bot.conflicts.boards.idle()
    board = card_text(await board_message(env))
    assert "mental attack → **Vin** (Will)" in board
    assert "physical attack" not in board


async def test_a_hidden_targets_armour_stopping_the_blow_says_so(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            *STRAFF_SNEERS,
            ("narrator", '/edit prop-add prop:"Plate" armour:3 name:Straff'),
            ("narrator", "/declare who:Straff action:full-defence stat:Physique"),
            ("narrator", "/declare who:Vin action:attack target:Straff stat:Physique challenge:true"),
        ]
    )
    hit = await env.slash('/act dice:2 who:Vin faces:"3 3"', user="narrator")
    assert not refused(hit), hit.content
    public = embeds_text(hit.embeds)
    assert "**Straff** is hit, but armour stops the blow: still unhurt" in public
    assert "now unhurt" not in public


@pytest.mark.parametrize(
    ("faces", "difficulty", "said"),
    [
        ((1, 2), 1, "Outcome -1, Just shy: 1 Complication"),
        ((6, 2, 4, 1), 2, "Outcome -2, Unfortunate: 1 Complication (1 cancelled by Nudges)"),
        ((6, 6, 4, 1), 2, "Outcome -2, Unfortunate: 0 Complications (2 cancelled by Nudges)"),
        (
            (4, 4, 1),
            5,
            "Outcome -5, Disastrous: 5 Complications, or one for the roller and every ally nearby",
        ),
        ((3, 3), 2, "Outcome +1, Good"),
    ],
)
def test_a_roll_reads_its_outcome_in_one_line(faces: tuple[int, ...], difficulty: int, said: str) -> None:
    assert outcome_text(read(faces, difficulty=difficulty)) == said


async def test_a_failed_action_reads_like_any_roll(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            *STRAFF_SNEERS,
            ("narrator", "/declare who:Straff action:full-defence stat:Charm"),
            ("player1", "/declare action:action stat:Wits difficulty:2"),
        ]
    )
    failed = await env.slash('/act dice:4 who:Vin faces:"6 2 4 1"', user="narrator")
    assert not refused(failed), failed.content
    public = embeds_text(failed.embeds)
    assert "→ **Vin** fails. Outcome -2, Unfortunate: 1 Complication (1 cancelled by Nudges)." in public, (
        public
    )
    assert "Undefended: a matching set" not in public


GUARDS_BRAWL = [
    ("player1", "/character create name:Vin physique:2 charm:3 wits:4"),
    ("narrator", '/character create name:"House guards" kind:Extra size:3 physique:4 wits:1'),
    ("narrator", '/conflict start kind:physical stakes:"The gate"'),
    ("player1", "/conflict join"),
    ("narrator", '/conflict add character:"House guards"'),
    ("narrator", "/conflict begin"),
    ("narrator", '/declare who:"House guards" action:attack target:Vin stat:Physique'),
    ("player1", '/declare action:attack target:"House guards" stat:Physique'),
]


async def test_a_group_takes_plural_verbs_in_a_conflict(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(GUARDS_BRAWL)
    early = await env.slash("/act dice:2", user="player1")
    assert refused(early) and "It is not Vin's turn yet: House guards act first." in early.content
    attack = await env.slash('/act dice:2 who:"House guards"', user="narrator")
    assert not refused(attack), attack.content
    assert "House guards make a physical attack on your Health" in attack.content
    defended = await env.slash("/defend dice:0", user="player1")
    assert not refused(defended), defended.content
    rolled = embeds_text(defended.embeds)
    assert "**House guards** roll " in rolled and "**House guards** rolls" not in rolled
    assert "**House guards** succeed" in rolled or "**House guards** fail" in rolled
    back = await env.slash("/act dice:2", user="player1")
    assert not refused(back), back.content
    greedy = await env.slash("/defend dice:3", user="narrator")
    assert refused(greedy) and "House guards have only 2 Defense Dice to defend with." in greedy.content


async def test_a_single_character_acts_first_in_the_singular(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            *STRAFF_SNEERS,
            ("narrator", "/declare who:Straff action:attack target:Vin stat:Charm"),
            ("player1", "/declare action:attack target:Straff stat:Wits"),
        ]
    )
    early = await env.slash("/act dice:2", user="player1")
    assert refused(early) and "It is not Vin's turn yet: Straff acts first." in early.content


async def test_a_group_wins_a_contest_in_the_plural(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(GUARDS_BRAWL[:2])
    titles = set()
    for _ in range(12):
        reply = await env.slash('/contest actor:"House guards" actor_stat:Physique opponent_dice:2')
        assert reply.message is not None
        titles.add(card_title(reply.message))
    assert "House guards win" in titles and "House guards wins" not in titles


async def test_a_wits_tie_is_told_to_the_narrator_alone_and_once(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            ("player1", "/character create name:Vin physique:3 wits:3"),
            ("narrator", "/character create name:Straff kind:Villain physique:3 wits:3"),
            ("narrator", '/conflict start kind:physical stakes:"The ball"'),
            ("player1", "/conflict join"),
        ]
    )
    added = await env.slash("/conflict add character:Straff", user="narrator")
    assert not refused(added), added.content
    public = added.message or {}
    said = public.get("content", "") + embeds_text(public.get("embeds", []))
    assert "Tied on Wits" not in said and "/conflict order" not in said  # Straff's Wits stay secret
    private = [m for m in added.messages if int(m.get("flags") or 0) & 64]
    notes = [e.get("description", "") for m in private for e in m.get("embeds", [])]
    assert any("Tied on Wits, so by join order: Vin → Straff" in n for n in notes), notes
    assert any("`/conflict order names:Vin, Straff`" in n for n in notes)
    await env.play(
        [
            ("narrator", "/conflict begin"),
            ("player1", "/declare action:full-defence stat:Physique"),
            ("narrator", "/declare who:Straff action:full-defence stat:Physique"),
        ]
    )
    again = await env.slash("/conflict next-round", user="narrator")
    assert not refused(again), again.content
    assert "Tied on Wits" not in again.text  # once: not at every new round


async def test_a_tie_a_player_makes_is_in_the_narrator_view_only(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            ("player1", "/character create name:Vin physique:3 wits:3"),
            ("narrator", "/character create name:Straff kind:Villain physique:3 wits:3"),
            ("narrator", '/conflict start kind:physical stakes:"The ball"'),
            ("narrator", "/conflict add character:Straff"),
        ]
    )
    joined = await env.slash("/conflict join", user="player1")
    assert not refused(joined), joined.content
    assert "Tied on Wits" not in joined.text  # the player would learn Straff's Wits
    await env.bot.conflicts.boards.idle()
    full = await env.harness.click("Narrator view", user="narrator")
    assert full.ephemeral and "Tied on Wits, so by join order: Straff → Vin" in card_text(full.messages[0])


async def test_a_groups_turn_is_asked_in_the_plural(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(GUARDS_BRAWL[:5])
    begun = await env.slash("/conflict begin", user="narrator")
    assert not refused(begun), begun.content
    await env.bot.conflicts.idle()
    asked = [str(m.get("content")) for m in env.harness.fake.messages.values() if m.get("components")]
    assert any("**House guards** declare for round 1" in text for text in asked), asked
    assert not any("**House guards** declares" in text for text in asked)
    await env.play(GUARDS_BRAWL[6:])
    await env.bot.conflicts.idle()
    asked = [str(m.get("content")) for m in env.harness.fake.messages.values() if m.get("components")]
    assert any("**House guards** act now" in text for text in asked), asked
    assert not any("**House guards** acts" in text for text in asked)
