"""The offline console as a player runs it: ``python -m bot`` with no token, a script on its
standard input, the SQLite file in a folder of the test's own (README's first command)."""

import os
import subprocess
import sys
from pathlib import Path


def run_console(script: str, db: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """``script`` typed into ``python -m bot`` (``args`` after it), with no setting of the
    caller's environment but ``settings`` (``MISTBORN_DICE_EMOJIS="true"``) and the database ``db``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MISTBORN_"))}
    env |= {"MISTBORN_DB_PATH": str(db), **settings}
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


def played(script: str, folder: Path, **settings: str) -> str:
    """What the console printed for ``script``, which must run to its end."""
    result = run_console(script, folder / "console.sqlite3", **settings)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    return result.stdout
