"""Metal in a body and a tap of Zinc for the declaring order in the offline console (``python -m
bot`` with no token): the same slash commands as Discord (docs/rulings.md §9.3, §9.4)."""

from pathlib import Path

from testbed.console import played

SCRIPT = """!as player1
/character create name:Kel physique:4 wits:1
/edit power-add type:Allomancy power:Steel rating:5
/edit power-add type:Feruchemy power:Zinc rating:3
!as narrator
/power reserve metal:Steel charges:5 name:Kel
/power metalmind metal:Zinc charges:40 name:Kel
/character create name:Thug template:thug
/conflict start kind:physical stakes:"The keep"
!as player1
/conflict join
/burn metal:Steel
!as narrator
/conflict add character:Thug
/conflict begin
!as player1
/declare action:action target:Thug stat:Steel held:true inside:true tap:Zinc tap_charges:3 tap_for:wits
!as narrator
/declare who:Thug action:no-roll
!as player1
/act dice:5
!as narrator
/defend dice:2 attacker_faces:"5 5 1 2 3" faces:"1 2"
/conflict next-round
!as player1
/declare action:no-roll
"""


def test_the_console_tears_metal_from_a_body_and_taps_zinc_for_the_order(tmp_path: Path) -> None:
    out = played(SCRIPT, tmp_path).replace("**", "")
    for said in (
        "on metal in their body",
        "+3 Wits to declare by next round",
        "The metal tears free of Thug's body",
        "Thug's turn to declare",
    ):
        assert said in out, (said, out[-3000:])
