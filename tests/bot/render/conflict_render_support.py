"""Shared pieces of the Conflict renderer tests: the Keep Hasting table and limit checks."""

import discord

from bot.render.rows import one_line
from bot.render.sheet import units
from rules.conflict import (
    ConflictType,
    new_conflict,
)
from tests.rules.conflict.builders import Table
from tests.rules.conflict.keep_hasting import (
    CHANNEL,
    declarations,
    keep_hasting_sheets,
    setup_commands,
)

STAKES = "Keep the Bylerum Boys busy while the crew works"


def assert_fits(embed: discord.Embed) -> None:
    """Every one of Discord's embed limits, in characters and in UTF-16 units."""
    for count in (len, units):
        assert count(embed.title or "") <= 256
        assert count(embed.description or "") <= 4096
        assert len(embed.fields) <= 25
        for field in embed.fields:
            assert 0 < count(field.name or "") <= 256
            assert 0 < count(field.value or "") <= 1024
        assert count(embed.footer.text or "") <= 2048
        assert count(embed.author.name or "") <= 256
        total = count(embed.title or "") + count(embed.description or "") + count(embed.footer.text or "")
        total += sum(count(f.name or "") + count(f.value or "") for f in embed.fields)
        assert total <= 6000
    assert len(embed) <= 6000


def text_of(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def field(embed: discord.Embed, name: str) -> str:
    """A field's text, its phone rows read as one line (``bot.render.rows``)."""
    return one_line(next(f.value or "" for f in embed.fields if (f.name or "").startswith(name)))


def description(embed: discord.Embed) -> str:
    return one_line(embed.description or "")


# --- Keep Hasting, step by step -------------------------------------------------------------


def keep_hasting_table() -> Table:
    """Keep Hasting with everyone declared but Thorrow (whose declaration each test makes)."""
    table = Table(new_conflict(CHANNEL, ConflictType.PHYSICAL, STAKES), keep_hasting_sheets())
    table.do(*setup_commands(), *declarations()[:-1])
    return table
