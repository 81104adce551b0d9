"""A Keeper's tap on a Conflict action in the offline console (``python -m bot`` with no token):
the same ``/declare`` as on Discord (docs/rulings.md §9.4)."""

from pathlib import Path

from testbed.console import run_console

SCRIPT = (
    "!as player1\n"
    "/character create name:Sazed physique:4 wits:4\n"
    "/edit power-add type:Feruchemy power:Steel rating:3\n"
    "!as narrator\n"
    "/power metalmind metal:Steel label:Bracer charges:30 name:Sazed\n"
    "/character create name:Thug kind:Villain physique:5\n"
    '/conflict start kind:physical stakes:"The keep"\n'
    "!as player1\n"
    "/character use name:Sazed\n"
    "/conflict join\n"
    "!as narrator\n"
    "/conflict add character:Thug\n"
    "/conflict begin\n"
    "/declare who:Thug action:no-roll\n"
    "!as player1\n"
    "/declare action:attack target:Thug stat:Physique tap:Steel tap_charges:5\n"
    "/act dice:9\n"
)


def test_the_console_declares_a_keepers_tap_for_action_dice(tmp_path: Path) -> None:
    result = run_console(SCRIPT, tmp_path / "taps.sqlite3")
    out = result.stdout
    assert result.returncode == 0, out[-3000:] + result.stderr
    assert "9 Action Dice — Physique 4 + Steel tapped 5" in out
    assert "Sazed: Bracer: -5 Steel (tapped)." in out
    assert "**Sazed** attacks **Thug**" in out and "with 9 dice" in out
