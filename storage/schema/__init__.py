"""The schema's home: each database's numbered migrations as plain SQL files, in one folder each.

``sqlite/V001__….sql`` … and ``postgres/V001__….sql`` … are the steps ``storage.migrations``
and ``storage.pg_migrations`` apply, in the order of their numbers, to a database below the
latest version; ``sqlite/schema.sql`` and ``postgres/schema.sql`` are the shape a fresh database
reaches, to read the current tables in one place (tests/storage/test_schema.py checks both, and
that the two databases agree table by table). The few steps SQL cannot express are Python,
registered by number beside their runner.

The files are package data (pyproject's ``[tool.setuptools.package-data]``), read through
``importlib.resources`` so an installed bot finds them as a checkout does. Never edit a numbered
file that has shipped: add the next number, on BOTH databases.
"""

import re
from importlib.resources import files
from typing import Literal

Dialect = Literal["sqlite", "postgres"]
_NAME = re.compile(r"V(\d{3})__[a-z0-9_]+\.sql")


def numbered_scripts(dialect: Dialect) -> tuple[str, ...]:
    """The text of each numbered file of ``dialect``; index 0 is migration 1.

    A gap or a doubled number is refused: it would renumber every later migration.
    """
    found: dict[int, str] = {}
    for entry in files(__name__).joinpath(dialect).iterdir():
        match = _NAME.fullmatch(entry.name)
        if match is None:
            continue
        number = int(match[1])
        if number in found:
            raise RuntimeError(f"Two {dialect} migrations are numbered {number}.")
        found[number] = entry.read_text(encoding="utf-8")
    if sorted(found) != list(range(1, len(found) + 1)):
        raise RuntimeError(f"The {dialect} migrations are not numbered 1..{len(found)}: {sorted(found)}.")
    return tuple(found[number] for number in range(1, len(found) + 1))


def current_shape(dialect: Dialect) -> str:
    """``schema.sql`` of ``dialect``: the shape a fresh database reaches, for reading."""
    return files(__name__).joinpath(dialect, "schema.sql").read_text(encoding="utf-8")
