"""Deflecting from the defence prompt's menu, time for the whole table and Bronze's sense in the offline
console (``python -m bot`` with no token): the same dispatch as Discord (docs/rulings.md §9.3,
§9.11)."""

from pathlib import Path

from testbed.console import played

SCRIPT = """!as player1
/character create name:Lurk physique:4 wits:5
/edit power-add type:Allomancy power:Iron rating:4
/power reserve metal:Iron charges:5 name:Lurk
!as narrator
/power reserve metal:Iron charges:5 name:Lurk
/character create name:Thug template:thug
/conflict start kind:physical stakes:"The keep"
!as player1
/conflict join
/burn metal:Iron
!as narrator
/conflict add character:Thug
/conflict begin
/declare who:Thug action:attack target:Lurk stat:Physique metal:true
!as player1
/declare action:defence stat:Physique
!as narrator
/act who:Thug dice:4
!as player1
!select "Deflect with Iron…" "Deflect with 2"
!as narrator
/conflict end
/power time minutes:20 everyone:true
!as player1
/edit power-add type:Allomancy power:Bronze rating:5
!as narrator
/power reserve metal:Bronze charges:2 name:Lurk
!as player1
/power burn metal:Bronze
/power sense
"""


def test_the_console_deflects_from_the_menu_and_moves_the_tables_time(tmp_path: Path) -> None:
    out = played(SCRIPT, tmp_path)
    assert "[Deflect with Iron…]" in out or "Deflect with Iron…" in out, out[-3000:]
    assert "deflecting with Iron" in out, out[-3000:]
    assert "20 minutes pass for the table" in out, out[-3000:]
    assert "**Lurk** listens with Bronze" in out or "Lurk listens with Bronze" in out, out[-3000:]
