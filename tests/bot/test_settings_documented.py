"""`.env.example` documents every setting the bot reads (`bot/config.py`), by the name it is read
under, each under a comment (a group of settings may share one): a newcomer's map of what can
be set."""

import re
from pathlib import Path

from pydantic import AliasChoices

from bot.config import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"
ASSIGNMENT = re.compile(r"^#?\s*([A-Z][A-Z0-9_]*)=", re.M)


def read_as(name: str) -> list[str]:
    """The environment names a field is read from (its aliases, else the prefixed field name)."""
    alias = Settings.model_fields[name].validation_alias
    if isinstance(alias, AliasChoices):
        return [str(choice) for choice in alias.choices]
    if isinstance(alias, str):
        return [alias]
    return [f"MISTBORN_{name.upper()}"]


def test_every_setting_is_in_the_example_with_a_comment() -> None:
    text = EXAMPLE.read_text()
    documented = set(ASSIGNMENT.findall(text))
    lines = text.splitlines()
    for name in Settings.model_fields:
        found = [env for env in read_as(name) if env in documented]
        assert found, f"{name} ({' or '.join(read_as(name))}) is not in .env.example"
        at = next(i for i, line in enumerate(lines) if ASSIGNMENT.match(line) and found[0] in line)
        while at > 0 and ASSIGNMENT.match(lines[at - 1]) and not lines[at - 1].startswith("# "):
            at -= 1  # settings grouped under one comment
        assert at > 0 and lines[at - 1].startswith("#"), f"{found[0]} has no comment above it"


def test_the_example_names_no_setting_the_bot_does_not_read() -> None:
    known = {env for name in Settings.model_fields for env in read_as(name)}
    unknown = set(ASSIGNMENT.findall(EXAMPLE.read_text())) - known
    assert not unknown, f".env.example documents settings the bot ignores: {sorted(unknown)}"
