"""``/story``: a subplot's stage moved on and the true Destiny kept for Narrators only (docs/
rulings.md §10.2), through the real dispatch."""

import json

from bot.web.sheets import sheet_data
from rules.character import CharacterKind, make_character
from rules.character.story import Stage
from testbed.bot_env import BotEnv, board_message, shown
from testbed.cards import card_text
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL, journal_of

SECRET = "Q7-HERO-OF-AGES"


async def test_a_stage_moved_on_is_told_journaled_and_shown_on_the_sheet(bot_env: BotEnv) -> None:
    env = bot_env
    vin = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"), destiny="Free the skaa"
    )
    await env.storage.characters.create(env.guild_id, vin)
    await env.slash("/session start", user="narrator")
    refused = await env.slash("/story stage name:Vin subplot:destiny stage:middle", user="player1")
    assert refused.ephemeral and "Only a Narrator" in refused.content
    moved = await env.slash("/story stage name:Vin subplot:destiny stage:middle")
    assert not moved.ephemeral and moved.content == "Vin's Destiny reaches its Middle."
    offer = [m for m in moved.followups if m.get("flags", 0) & EPHEMERAL]
    assert offer and "/advancement award name:Vin amount:1" in offer[0]["content"]
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    assert stored.character.story.destiny is Stage.MIDDLE
    shown = await env.slash("/character show name:Vin", user="player2")
    assert shown.message is not None and "**Destiny (Middle)**\nFree the skaa" in card_text(shown.message)
    again = await env.slash("/story stage name:Vin subplot:destiny stage:middle")
    assert again.ephemeral and "already at Middle" in again.content
    ended = await env.slash("/session end", user="narrator")
    assert "Vin's Destiny reaches its Middle." in card_text(ended.messages[0])


async def test_the_true_destiny_never_reaches_a_player(bot_env: BotEnv) -> None:
    env = bot_env
    vin = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"), destiny="Free the skaa"
    )
    stored_vin = await env.storage.characters.create(env.guild_id, vin)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), stored_vin.id)
    await env.slash("/session start", user="narrator")
    player = await env.slash(f"/story true-destiny name:Vin text:{SECRET}", user="player1")
    assert player.ephemeral and "Only a Narrator" in player.content
    kept = await env.slash(f"/story true-destiny name:Vin text:{SECRET}")
    assert kept.ephemeral and SECRET in kept.content
    narrator = await env.slash("/story show name:Vin")
    assert narrator.ephemeral and f"True Destiny: {SECRET}" in narrator.content
    asked = await env.slash("/story show name:Vin", user="player1")
    assert asked.ephemeral and SECRET not in asked.content
    await env.slash("/story stage name:Vin subplot:destiny stage:end")
    seen: list[str] = []
    for user in ("player1", "narrator"):
        card = await env.slash("/character show name:Vin", user=user)
        assert card.message is not None
        seen.append(card_text(card.message))
        exported = await env.slash("/character export name:Vin", user=user)
        assert exported.message is not None
        seen.append(env.harness.fake.file_bytes(exported.message["attachments"][0]).decode("utf-8"))
        suggested = await env.harness.autocomplete("/character show name:", user=user)
        seen.append(json.dumps(suggested.choices))
    await env.slash('/conflict start kind:physical stakes:"The Keep"')
    fight = await env.slash("/conflict join", user="player1")
    seen += [card_text(m) for m in fight.messages] + [shown(await board_message(env))]
    await env.slash("/conflict end")
    ended = await env.slash("/session end", user="narrator")
    seen += [card_text(m) for m in ended.messages]
    for user in ("player1", "narrator"):
        seen.append(journal_of(env, await env.slash("/session journal", user=user)))
        recap = await env.slash("/session recap", user=user)
        seen += [card_text(m) for m in recap.messages]
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    seen.append(json.dumps(sheet_data(stored)))  # the web view's sheet
    assert any("Vin's Destiny reaches its End." in s for s in seen)
    assert any("Vin" in s and "The Keep" in s for s in seen)  # the board was read
    assert not [s for s in seen if SECRET in s]
