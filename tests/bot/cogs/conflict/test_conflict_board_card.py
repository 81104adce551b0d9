"""The Conflict board is a card (a layout message), through discord.py's dispatch on the fake
Discord: its accent tells the phase, the turn's buttons sit under whoever is up and work as the
prompt's do, a 20-fighter (and a 25-fighter) board stays within Discord's limits as the fake
received it, and the public card hides the Narrator's secret numbers, which the Narrator's own
view (the same card, privately) shows (docs/rulings.md §7.1)."""

import re
from typing import Any

import pytest

from bot.cogs.conflict.transaction import run_transition
from bot.render.card_plan import MAX_COMPONENTS, MAX_TEXT
from bot.render.conflict_card import PHASE_ACCENT
from fake_discord.layout import THUMBNAIL, walk
from rules.character import CharacterKind, make_character
from rules.conflict import MAX_PARTICIPANTS, Join, Phase
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, board_message, controls, refused, text_displays
from testbed.cards import card_text

JSON = dict[str, Any]
IS_COMPONENTS_V2 = 1 << 15


def container(message: JSON) -> JSON:
    """The card's one container, after checking the message is a card and nothing else."""
    assert int(message["flags"]) & IS_COMPONENTS_V2, "a board is a layout message"
    assert not message.get("content") and not message.get("embeds"), "nothing beside the card"
    [top] = message["components"]
    assert top["type"] == 17
    return dict(top)


def under(message: JSON, name: str) -> list[str]:
    """The labels of the buttons right under ``name``'s section (up to the next text)."""
    children = container(message)["components"]
    start = next(
        i
        for i, c in enumerate(children)
        if c["type"] in (9, 10)
        and card_text({"components": [c]}).removeprefix("▶ ").startswith(f"**{name}**")
    )
    labels: list[str] = []
    for child in children[start + 1 :]:
        if child["type"] != 1:
            break
        labels += [str(c.get("label") or c.get("placeholder")) for c in child["components"]]
    return labels


def counted(components: list[JSON]) -> tuple[int, int]:
    """Components as Discord counts them (recursively) and characters of text displays."""
    count = text = 0
    for component in components:
        count += 1
        text += len(component.get("content") or "") if component.get("type") == 10 else 0
        nested = list(component.get("components") or [])
        nested += [component["accessory"]] if isinstance(component.get("accessory"), dict) else []
        inner, chars = counted(nested)
        count, text = count + inner, text + chars
    return count, text


async def settled(env: BotEnv) -> JSON:
    """The board once every refresh has run (a closed board has no row: the last one shown)."""
    await env.bot.conflicts.idle()
    await env.bot.conflicts.boards.idle()
    if await env.storage.boards.get(env.guild_id, env.world.guild.channels[0].id) is None:
        return {}
    return await board_message(env)


DETAIL = "Declare with Traits, Tool, Power, Burdens, label…"


async def test_the_card_in_each_phase_with_the_turns_buttons_under_whoever_is_up(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(DUEL[:5])  # gathered: Vin and the Thug, not begun
    board = await settled(env)
    assert container(board)["accent_color"] == PHASE_ACCENT[Phase.GATHER].value
    assert "Phase: gathering the cast" in card_text(board)
    assert [c["label"] for c in controls(board)] == ["Begin round 1", "Narrator view"]

    begun = await env.harness.click("Begin round 1", message=board, user="narrator")
    assert not refused(begun), begun.content
    board = await settled(env)
    assert container(board)["accent_color"] == PHASE_ACCENT[Phase.DECLARE].value
    text = card_text(board)
    assert "Phase: declaring actions" in text and "Next: " in text and "Stakes: A brawl" in text
    # The Thug (Wits lower) declares first: its prompt's buttons are under it on the board.
    assert under(board, "Thug") == ["Attack…", "Act without attacking", "Full defence", "No roll", DETAIL]
    assert under(board, "Vin") == []

    declared = await env.slash("/declare who:Thug action:attack target:Vin stat:Physique", user="narrator")
    assert not refused(declared), declared.content
    board = await settled(env)
    assert under(board, "Vin")[1:] == ["Act without attacking", "Full defence", "No roll", DETAIL]
    stranger = await env.harness.click("Full defence", message=board, user="player2")
    assert refused(stranger), "only Vin's player (or a Narrator) answers Vin's turn"
    clicked = await env.harness.click("Full defence", message=board, user="player1")
    assert not refused(clicked), clicked.content
    board = await settled(env)
    assert container(board)["accent_color"] == PHASE_ACCENT[Phase.RESOLVE].value
    assert "Phase: resolving actions" in card_text(board) and "full defence" in card_text(board)

    # The Thug is the Narrator's secret Villain: its buttons offer every pool, as its prompt does.
    acts = [*(f"Act with {n}" for n in range(2, 11)), "Not act", "New action…"]
    assert under(board, "Thug") == [*acts, "If this defeats them: leave a Burden…"]
    acted = await env.harness.click("Act with 5", message=board, user="narrator")
    assert not refused(acted), acted.content
    board = await settled(env)
    defence = under(board, "Vin")
    assert defence[0] == "Don't defend" and all(label.startswith("Defend with") for label in defence[1:])
    defended = await env.harness.click("Don't defend", message=board, user="player1")
    assert not refused(defended), defended.content

    ended = await env.slash("/conflict end", user="narrator")
    assert not refused(ended), ended.content
    await settled(env)
    board = env.harness.fake.messages[int(board["id"])]  # the same message, closed
    assert container(board)["accent_color"] == PHASE_ACCENT[Phase.ENDED].value
    assert "Conflict over" in card_text(board) and controls(board) == []


async def test_the_public_card_hides_the_narrators_numbers(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play([*DUEL, THUG_ATTACKS])
    board = await settled(env)
    rows = [card_text({"components": [{"type": 10, "content": t}]}) for t in text_displays(board)]
    thug = next(row for row in rows if row.removeprefix("▶ ").startswith("**Thug**"))
    vin = next(row for row in rows if row.removeprefix("▶ ").startswith("**Vin**"))
    assert not re.search(r"AD \d|DD \d|Health \d|Physique", thug), thug
    assert re.search(r"AD \d", vin) and re.search(r"Health \d", vin), vin

    # The Narrator's view is the same card, privately, with every number.
    peeked = await env.harness.click("Narrator view", message=board, user="player1")
    assert refused(peeked) and "Narrator" in peeked.content
    full = await env.harness.click("Narrator view", message=board, user="narrator")
    [private] = full.messages
    assert full.ephemeral and container(private)["accent_color"] == PHASE_ACCENT[Phase.RESOLVE].value
    rows = [card_text({"components": [{"type": 10, "content": t}]}) for t in text_displays(private)]
    thug = next(row for row in rows if row.removeprefix("▶ ").startswith("**Thug**"))
    assert re.search(r"AD \d", thug) and re.search(r"Health \d", thug), thug


@pytest.mark.parametrize("size", [20, MAX_PARTICIPANTS])
async def test_a_crowd_fits_one_card_as_the_fake_received_it(bot_env: BotEnv, size: int) -> None:
    env = bot_env
    env.bot.conflicts.boards.public_url = "https://mistborn.example"  # Discord may fetch portraits
    channel = env.world.guild.channels[0].id
    started = await env.slash('/conflict start kind:physical stakes:"The whole gang"', user="narrator")
    assert not refused(started), started.content
    for number in range(size):
        kind = CharacterKind.VILLAIN if number % 2 else CharacterKind.HERO
        owner = env.user_id("narrator") if number % 2 else env.user_id("player1")
        name = f"{number:02d} " + "Lestibournes-of-the-Ashfall-and-the-Mists"[: 20 + number]
        stored = await env.storage.characters.create(
            env.guild_id, make_character(name=name, kind=kind, owner_id=owner)
        )
        await env.storage.portraits.set(env.guild_id, stored.id, b"a small webp", "image/webp")
        await run_transition(env.storage, env.guild_id, channel, Join(character_id=stored.id))
    begun = await env.slash("/conflict begin", user="narrator")
    assert not refused(begun), begun.content
    board = await settled(env)
    count, text = counted(board["components"])
    assert count <= MAX_COMPONENTS and text <= MAX_TEXT, (count, text)
    said = card_text(board)
    assert "round 1" in said and f"Heroes ({(size + 1) // 2})" in said
    thumbnails = [c["media"]["url"] for c in walk(board["components"]) if c.get("type") == THUMBNAIL]
    assert thumbnails, "the first fighters show their portraits"
    assert all(url.startswith(f"https://mistborn.example/portraits/{env.guild_id}/") for url in thumbnails)
    shown = sum(f"{number:02d} Lestibournes" in said for number in range(size))
    assert shown == size or "more" in said
    assert any(c.get("custom_id", "").startswith("mab:decl:") for c in controls(board)), "whoever is up"
