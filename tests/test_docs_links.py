"""Every citation in the repository resolves inside it.

README and the pages of docs/ link to each other and to files by relative paths; the code cites
``docs/rulings.md §N.M``. A link to a file that moved, a heading renamed, a section renumbered or
a path on one developer's machine would leave a reader with nothing, so each is checked here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
REPO_PATH = re.compile(r"`((?:bot|rules|storage|fake_discord|tests|bench|docs|\.ci)/[\w./-]*[\w/])`")
RULINGS_CITE = re.compile(r"docs/rulings\.md((?:[ ,]*(?:and )?§[\d.]+(?:[–-]§?[\d.]+)?)+)")
SECTION = re.compile(r"§?(\d+(?:\.\d+)?)")
OUTSIDE = re.compile(r"(?<![\w.])(?:/work/|/home/|/root/|/Users/|\.\./shared)")
MADE_BY_USERS = {"demo.txt", "transcript.txt", "notes.txt"}
"""Files the examples have a user (or a test) make, not files the repository should hold."""


def tracked() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / name for name in listed.stdout.splitlines() if (ROOT / name).is_file()]


def text_files() -> list[Path]:
    return [path for path in tracked() if path.suffix not in {".png", ".gz"}]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def rulings_sections() -> set[str]:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    chapters = re.findall(r"^## §(\d+) ", text, flags=re.MULTILINE)
    points = re.findall(r"^- \*\*(\d+\.\d+) ", text, flags=re.MULTILINE)
    return set(chapters) | set(points)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_resolves_to_a_file_and_heading_in_the_repository(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        missing = not resolved.is_relative_to(ROOT) or not resolved.exists()
        if missing or (anchor and resolved.suffix == ".md" and anchor not in anchors(resolved)):
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_repository_path_a_page_names_exists(page: Path) -> None:
    named = REPO_PATH.findall(page.read_text(encoding="utf-8"))
    assert [path for path in named if not (ROOT / path).exists()] == []


def test_every_citation_of_the_rulings_names_a_section_that_exists() -> None:
    sections = rulings_sections()
    assert {"4", "4.11", "6.10"} <= sections
    missing = []
    for path in text_files():
        for cited in RULINGS_CITE.findall(path.read_text(encoding="utf-8", errors="replace")):
            missing += [(path.name, s) for s in SECTION.findall(cited) if s.rstrip(".") not in sections]
    assert missing == []


def test_no_file_cites_a_path_outside_the_repository() -> None:
    outside = []
    for path in text_files():
        if path == Path(__file__).resolve():
            continue  # the patterns themselves
        text = path.read_text(encoding="utf-8", errors="replace")
        outside += [(path.name, hit) for hit in OUTSIDE.findall(text)]
        named = set(re.findall(r"\b[\w-]+\.txt\b", text)) - MADE_BY_USERS
        outside += [(path.name, name) for name in named if not list(ROOT.glob(f"**/{name}"))]
    assert outside == []


def test_the_walked_through_command_is_the_code_as_it_stands() -> None:
    """docs/adding-a-command.md shows real code: each Python block is in the file it names."""
    page = (ROOT / "docs" / "adding-a-command.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.DOTALL)
    assert blocks
    sources = "\n".join(
        p.read_text(encoding="utf-8") for p in [*ROOT.glob("rules/**/*.py"), *ROOT.glob("bot/**/*.py")]
    )
    for block in blocks:
        lines = block.strip("\n").splitlines()
        indented = "\n".join(line and "    " + line for line in lines)
        assert "\n".join(lines) in sources or indented in sources, lines[0]


def test_ci_runs_readmes_test_command_and_lists_the_slowest_tests() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line.strip() for line in readme.splitlines() if "-m pytest" in line)
    assert "--durations=25" in command
    assert f"{command} || exit 1" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_is_a_front_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    first = [line.strip() for line in readme.splitlines() if line.startswith("    python3 -m venv")]
    assert first[:2] == [
        "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/python -m bot",
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && "
        ".venv/bin/python -m pytest -n auto --durations=25",
    ]


def test_docs_state_the_longest_loop_stall_and_when_a_web_session_ends() -> None:
    """What issue 30 made true stays findable from README: the stall figure and the session list."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/benchmarks.md" in readme and "docs/web-view.md" in readme
    benchmarks = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert re.search(r"Longest loop stall any member's input caused: [\d.]+ ms CPU", benchmarks)
    assert "python -m bench.stall_bench" in benchmarks
    web = (ROOT / "docs" / "web-view.md").read_text(encoding="utf-8")
    assert "## When a session ends" in web and "/web logout:True" in web
