"""Modules stay under 400 lines (a house rule): past that a module holds more than one job, and a
reader no longer knows from its path what lives there. A module that outgrows it is split by job
into modules named for what they hold (a cog into a package).

Counted over the tracked files (``git ls-files``, as ``test_docs_links`` reads them), so a
scratch file never fails it and a new module is held to it without editing a list.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("bot", "rules", "storage", "fake_discord", "bench", "tests", "testbed")
MAX_LINES = 400


def line_counts() -> dict[str, int]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", *CHECKED], cwd=ROOT, capture_output=True, text=True, check=True
    )
    paths = [p for p in listed.stdout.split("\0") if p.endswith(".py")]
    return {p: len((ROOT / p).read_text(encoding="utf-8").splitlines()) for p in paths}


def test_every_module_is_under_400_lines() -> None:
    counts = line_counts()
    assert len(counts) > 500, "git ls-files found the modules"
    over = {p: n for p, n in counts.items() if n > MAX_LINES}
    listed = "\n".join(f"  {p}: {n} lines" for p, n in sorted(over.items(), key=lambda item: -item[1]))
    assert not over, f"split these by job (under {MAX_LINES} lines each):\n{listed}"
