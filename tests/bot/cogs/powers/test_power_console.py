"""``/power`` and a tap on ``/roll`` in the offline console (``python -m bot`` with no token)."""

from pathlib import Path

from testbed.console import played


def test_the_console_drives_burning_drinking_time_and_a_tap(tmp_path: Path) -> None:
    script = (
        "!as player1\n"
        "/character create name:Kel physique:4\n"
        "/edit power-add type:Allomancy power:Steel rating:5\n"
        "/edit power-add type:Feruchemy power:Pewter rating:2\n"
        "/power vial kind:misting metal:Steel\n"
        '/power drink vial:"Steel vial"\n'
        "/power burn metal:Steel\n"
        "/power metalmind metal:Pewter size:small\n"
        "!as narrator\n"
        "/power metalmind metal:Pewter label:Ring charges:20 name:Kel\n"
        "/power time minutes:20 name:Kel\n"
        "!as player1\n"
        "/roll stat:Physique tap:Pewter tap_charges:10 tap_for:nudges\n"
    )
    out = played(script, tmp_path)
    assert "Kel drinks Steel vial." in out and "Reserves: Steel 3" in out
    assert "20 minutes pass for Kel." in out and "Reserves: Steel 2" in out
    assert "Pewter tapped: 2 free Nudges on a success." in out
