"""Where Powers in play show: the sheet card and the web view's sheet (docs/rulings.md §9)."""

from typing import Any

from bot.web.sheets import sheet_data
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text

KEL: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
    "powers": [{"type": "allomancy", "name": "Steel", "rating": 5}],
    "allomancy": {"tracked": True, "reserves": [{"metal": "Steel", "charges": 2}], "burning": ["Steel"]},
    "props": [
        {"name": "*Coin* pouch", "implement": {"kind": "vial", "metals": ["Steel"], "charges": 3}},
        {"name": "Steelmind", "implement": {"kind": "metalmind", "metal": "Steel", "charges": 12}},
    ],
}


async def test_the_card_and_the_web_view_show_what_burns_and_is_carried(bot_env: BotEnv) -> None:
    character = make_character(
        name="Kel", kind=CharacterKind.HERO, owner_id=bot_env.user_id("player1"), **KEL
    )
    stored = await bot_env.storage.characters.create(bot_env.guild_id, character)
    shown = await bot_env.slash("/character show name:Kel", user="player1")
    assert shown.message is not None
    text = card_text(shown.message)
    assert "Burning: Steel" in text and "Reserves: Steel 2" in text
    assert "• \\*Coin\\* pouch: 3 Steel" in text and "• Steelmind 12/100" in text
    assert sheet_data(stored)["metals"] == [
        "Burning: Steel",
        "Reserves: Steel 2",
        "• *Coin* pouch: 3 Steel",
        "• Steelmind 12/100",
    ]
