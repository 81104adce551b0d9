"""Sheets from Roll20 through ``/character import`` (docs/rulings.md §6.12): the sample exports
of ``tests/rules/character/roll20/``, full, partial and broken, as a player and a Narrator upload them."""

import json
import shutil
from pathlib import Path

import pytest

from rules.burdens import Severity
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.characters.test_character_manage import snapshot

SAMPLES = Path(__file__).resolve().parents[3] / "rules" / "character" / "roll20"


async def test_a_full_roll20_sheet_imports_whole(bot_env: BotEnv, tmp_path: Path) -> None:
    path = tmp_path / "vin.json"
    shutil.copy(SAMPLES / "full.json", path)
    reply = await bot_env.slash(f'/character import file:"{path}"', user="player1")
    assert reply.message is not None and reply.ephemeral
    text = card_text(reply.message)
    assert "Imported **Vin** from Roll20." in text and "## Vin — Hero" in text
    assert "Not imported" not in text and "advice" not in text, "nothing left out, no advice"
    vin = (await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")).character
    assert vin.owner_id == bot_env.user_id("player1") and len(vin.powers) == 8
    assert vin.burdens[0].severity is Severity.SERIOUS and vin.props[0].weapon == 1


async def test_a_partial_roll20_sheet_lists_back_what_has_no_place(bot_env: BotEnv, tmp_path: Path) -> None:
    path = tmp_path / "straff.json"
    shutil.copy(SAMPLES / "partial.json", path)
    refused = await bot_env.slash(f'/character import file:"{path}"', user="player1")
    assert refused.ephemeral and "Only a Narrator can import Villains" in refused.content
    assert await snapshot(bot_env) == []
    reply = await bot_env.slash(f'/character import file:"{path}" name:Straff', user="narrator")
    assert reply.message is not None and "Imported **Straff** from Roll20." in card_text(reply.message)
    listed = card_text(reply.message).split("**Not imported from the Roll20 sheet**")[1]
    assert "Charm 'eleven': not a rating from 1 to 10" in listed
    assert "favourite\\_colour 'Grey': not a field of the Mistborn sheet" in listed
    assert "1 Roll20 ability (macros)" in listed
    straff = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Straff")
    assert straff.character.owner_id == bot_env.user_id("narrator"), "a Roll20 file names no Discord owner"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"name": "Vin", "attribs": {"physique": 3}}', "its attributes are not a list"),
        (b'{"name": "Vin", "attribs": [{"current": 3}]}', "attribute 1 is not a name with a value"),
        (b'{"attribs": []}', "has no name: give it one with the name option"),
        (json.dumps({"name": "Vin", "attribs": [], "bio": "x" * 600_000}).encode(), "512 KiB"),
    ],
)
async def test_a_broken_roll20_file_is_refused_and_changes_nothing(
    bot_env: BotEnv, tmp_path: Path, data: bytes, message: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(data)
    reply = await bot_env.slash(f'/character import file:"{path}"', user="player1")
    assert reply.ephemeral and not reply.embeds and message in reply.content, reply.content
    assert await snapshot(bot_env) == []
