"""README's first command: ``python -m bot`` with no token opens the offline console."""

import os
import subprocess
import sys
from pathlib import Path


def run_console(script: str, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MISTBORN_"))}
    env["MISTBORN_DB_PATH"] = str(db)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=db.parent,
        env=env,
        check=False,
    )


def test_console_runs_a_script_and_keeps_data_between_runs(tmp_path: Path) -> None:
    db = tmp_path / "console.sqlite3"
    first = run_console('/roll dice:5 label:"First night"\n/odds table\n', db)
    assert first.returncode == 0, first.stderr
    assert "== First night ==" in first.stdout and "Chance of success" in first.stdout
    assert "offline console" in first.stderr and "Traceback" not in first.stderr

    second = run_console("/history rolls\n", db, "--user", "player1", "--player")
    assert second.returncode == 0, second.stderr
    assert "acting as player1" in second.stdout and "First night" in second.stdout
    assert "@narrator" in second.stdout and "<@" not in second.stdout  # mentions shown as names


def test_console_reports_bad_lines_and_exits_nonzero(tmp_path: Path) -> None:
    result = run_console("/roll dice:50\n/nonsense\n", tmp_path / "c.sqlite3")
    assert result.returncode == 1
    assert "dice must be in 0..20" in result.stdout and "unknown command" in result.stdout.lower()


def test_the_console_keeps_the_narrators_secrets_from_a_player(tmp_path: Path) -> None:
    """docs/rulings.md §7.1 in the offline console: after ``!as player1`` the Villain, its plan
    and the secret roll are nowhere in what the console prints."""
    script = (
        '/character create name:Straff kind:villain concept:"Q7 plan"\n'
        "/gmroll dice:3 label:Q7-roll\n"
        "/roll dice:2 label:open\n"
        "!as player1\n"
        "/character show name:Straff\n"
        "/character list\n"
        "/history rolls\n"
    )
    result = run_console(script, tmp_path / "secrets.sqlite3")
    assert result.returncode == 0, result.stderr
    narrator, player = result.stdout.split("(now acting as player1)")
    assert "Q7 plan" in narrator and "Q7-roll" in narrator
    assert "one of the Narrator's characters" in player and "open" in player
    assert "Q7" not in player
