"""A sheet changed outside the Conflict's own moves is what the Conflict reads (docs/rulings.md
§9.2), through the real dispatch: ``/sheet damage`` that knocks a burner out in a live Conflict,
or a Narrator's ``/power stop`` or ``/power flare``, shows on the board at once and counts in
the very next move; and a Pewterarm's drag shows on the board, a hidden one's to the Narrator
only (§9.3, §9.9)."""

import pytest

from rules.character import CharacterKind, make_character
from rules.conflict import Conflict, Participant
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, board_message, refused
from testbed.cards import card_text

HEALTH = 7  # Physique 4 + Resources 3; Pewter 5 raises it to 12 while it burns


async def make(env: BotEnv, name: str, owner: str, kind: CharacterKind, wits: int) -> None:
    character = make_character(
        name=name,
        kind=kind,
        owner_id=env.user_id(owner),
        attributes={"physique": 4, "charm": 3, "wits": wits},
        standings={"resources": 3, "influence": 3, "spirit": 3},
        powers=[{"type": "allomancy", "name": m, "rating": 5} for m in ("Pewter", "Tin")],
    )
    await env.storage.characters.create(env.guild_id, character)


async def brawl(env: BotEnv) -> None:
    """Vin burns Pewter and Tin against the Thug (a hidden Villain, who declares first), round 1
    begun."""
    await make(env, "Vin", "player1", CharacterKind.HERO, wits=4)
    await make(env, "Thug", "narrator", CharacterKind.VILLAIN, wits=2)
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"A brawl"'),
            ("player1", "/character use name:Vin"),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Thug"),
            ("player1", "/burn metal:Pewter"),
            ("player1", "/burn metal:Tin"),
            ("narrator", "/conflict begin"),
        ]
    )


async def board(env: BotEnv) -> str:
    await env.bot.conflicts.idle()
    return card_text(await board_message(env))


async def vin(env: BotEnv) -> Participant:
    """Vin as the channel's Conflict stores him after the next move (the Thug's declaration)."""
    declared = await env.slash("/declare who:Thug action:no-roll", user="narrator")
    assert not refused(declared), declared.content
    conflict: Conflict | None = await current_conflict(
        env.storage, env.guild_id, env.world.guild.channels[0].id
    )
    assert conflict is not None
    return next(p for p in conflict.participants if p.name == "Vin")


async def test_sheet_damage_that_knocks_a_burner_out_ends_the_conflicts_burns_at_once(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    await brawl(env)
    assert "burning Pewter+Tin" in await board(env)
    hit = await env.slash("/sheet damage amount:12 name:Vin", user="narrator")
    assert not refused(hit), hit.content
    assert "Vin is knocked out: every metal stops burning." in str(hit.messages)
    shown = await board(env)
    assert "burning" not in shown and f"Health 0/{HEALTH}" in shown  # no Pewter boost left
    stored = await vin(env)
    assert stored.burning == () and stored.flared == ()


async def test_sheet_damage_counts_pewter_as_the_sheet_burns_it(bot_env: BotEnv) -> None:
    """No ``pewter:`` option: Health is counted with the boost while Pewter burns (§9.2), so a
    hit of 7 leaves 5 of 12 and the burns go on."""
    env = bot_env
    await brawl(env)
    hit = await env.slash(f"/sheet damage amount:{HEALTH} name:Vin", user="narrator")
    assert not refused(hit), hit.content
    assert "knocked out" not in str(hit.messages)
    shown = await board(env)
    assert "burning Pewter+Tin" in shown and "Health 5/12" in shown


@pytest.mark.parametrize(
    ("line", "words", "burning", "flared"),
    [
        ("/power stop metal:Tin name:Vin", "burning Pewter ·", ("Pewter",), ()),
        ("/power flare metal:Tin name:Vin", "flaring Tin", ("Pewter", "Tin"), ("Tin",)),
    ],
)
async def test_a_narrators_power_change_shows_in_the_conflict_at_once(
    bot_env: BotEnv, line: str, words: str, burning: tuple[str, ...], flared: tuple[str, ...]
) -> None:
    env = bot_env
    await brawl(env)
    changed = await env.slash(line, user="narrator")
    assert not refused(changed), changed.content
    assert words in await board(env)
    stored = await vin(env)
    assert (stored.burning, stored.flared) == (burning, flared)


async def test_pewter_drag_shows_on_the_board_and_a_hidden_ones_only_to_the_narrator(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    await brawl(env)
    assert "Pewter drag" not in await board(env)
    for name in ("Vin", "Thug"):
        dragged = await env.slash(f"/power drag name:{name}", user="narrator")
        assert not refused(dragged), dragged.content
    shown = await board(env)
    assert shown.count("Pewter drag") == 1  # Vin's; the hidden Thug's is the Narrator's
    assert "Pewter drag" in row_of(shown, "Vin") and "Pewter drag" not in row_of(shown, "Thug")
    full = await env.harness.click("Narrator view", message=await board_message(env), user="narrator")
    [private] = full.messages
    assert "Pewter drag" in row_of(card_text(private), "Thug")


def row_of(text: str, name: str) -> str:
    return next(row for row in text.splitlines() if row.removeprefix("▶ ").startswith(f"**{name}**"))
