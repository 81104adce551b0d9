"""Who may import whom, checked on the source (imports inside functions included).

- The bot (``bot``, ``rules``, ``storage``) never imports the fake Discord, the tests or the
  benchmarks: it reaches the offline console only through an entry point.
- The fake Discord imports nothing of ours, except the two modules that compose our bot with
  it: ``bot_console`` (the offline console's entry) and ``remote`` (the subprocess runner),
  which may import ``bot`` and ``storage``.
- The benchmarks never import the tests (the tests may import the benchmarks' drivers).
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = {"bot", "rules", "storage", "fake_discord", "tests", "bench"}
GLUE = {"fake_discord/bot_console.py", "fake_discord/remote.py"}


def imported(path: Path) -> set[str]:
    """Top-level names of every absolute import in the file, and of import_module/__import__ calls."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("import_module", "__import__") and node.args:
                first = node.args[0]
                found.add(first.value.split(".")[0] if isinstance(first, ast.Constant) else "<dynamic>")
    return found & (OURS | {"<dynamic>"})


def allowed(relative: str) -> set[str]:
    package = relative.split("/")[0]
    if package in ("bot", "rules", "storage"):
        return {"bot", "rules", "storage"}
    if package == "fake_discord":
        return {"fake_discord", "bot", "storage"} if relative in GLUE else {"fake_discord"}
    if package == "bench":
        return OURS - {"tests"}
    return OURS


SOURCES = sorted(
    path.relative_to(ROOT).as_posix()
    for package in ("bot", "rules", "storage", "fake_discord", "bench")
    for path in (ROOT / package).rglob("*.py")
)


@pytest.mark.parametrize("relative", SOURCES)
def test_imports_stay_inside_their_boundary(relative: str) -> None:
    forbidden = imported(ROOT / relative) - allowed(relative)
    assert not forbidden, f"{relative} imports {sorted(forbidden)}"


def test_the_glue_modules_exist() -> None:
    """The exceptions above name real files, so a rename cannot leave a stale exception behind."""
    assert all((ROOT / relative).is_file() for relative in GLUE)
