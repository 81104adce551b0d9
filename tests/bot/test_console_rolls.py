"""Saved rolls and the roll panel in the offline console (docs/rulings.md §6.14): saved, listed,
rolled by name and from the panel's buttons; the dice written as text even where the setting
asks for the app's emojis, which the console never has (``fake_discord.bot_console``)."""

import re
from pathlib import Path

from testbed.console import played

SCRIPT = (
    "!as player1\n"
    "/character create name:Vin physique:4 wits:5\n"
    "/rolls save name:Sneak stat:Physique traits:1 difficulty:2 label:Quietly\n"
    "/rolls list\n"
    "/rolls panel\n"
    "!click Sneak\n"
    "!click Wits\n"
    "/roll saved:Sneak\n"
)


def test_the_console_saves_rolls_and_rolls_them_from_the_panel_in_text(tmp_path: Path) -> None:
    out = played(SCRIPT, tmp_path, MISTBORN_DICE_EMOJIS="true")
    assert "Saved **Sneak** for Vin" in out and "1 saved roll of 20" in out
    assert "Vin's rolls" in out and "Sneak: Physique + 1 Trait, Difficulty 2" in out.replace("**", "")
    assert out.count("Vin: Quietly") >= 2 and "Vin: Wits" in out  # the panel's tap and /roll saved:
    assert "Physique 4 + Trait = **5**" in out
    dice = re.findall(r"\*\*Dice:\*\* (.*)", out)
    assert len(dice) == 3 and all(re.fullmatch(r"(?:\*\*[1-5]\*\*|[1-5]|6✦)(?: \S+)*", d) for d in dice), dice
    assert "<:mab" not in out
