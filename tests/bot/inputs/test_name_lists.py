"""Lists of names in one option (``bot.inputs.name_lists``): the same names as the first reading, read
in time linear in the text, and a misspelt name answered with the closest one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import BotError
from bot.inputs.name_lists import MAX_LISTED, SEPARATOR, split_names
from rules.naming import find_named, name_key
from testbed.bot_env import BotEnv
from tests.bot.seeded_table import repair, seed_table
from tests.bot.test_bad_input import LogCatcher, Probe, text


def rejoined(text: str, known: Sequence[str]) -> tuple[list[str], list[str]]:
    """The first reading, kept as the reference: every span of parts rejoined, longest first
    (cubic in the parts: 1,800 commas held the loop for 30 s)."""
    by_key = {name_key(name): name for name in known}
    pieces = SEPARATOR.split(text)
    words, seps = pieces[0::2], pieces[1::2]
    found: list[str] = []
    unknown: list[str] = []
    start = 0
    while start < len(words):
        for end in range(len(words), start, -1):
            joined = "".join(words[i] + (seps[i] if i < end - 1 else "") for i in range(start, end))
            if name_key(joined) in by_key:
                found.append(by_key[name_key(joined)])
                start = end
                break
        else:
            part = words[start].strip()
            matches = find_named(part, known, lambda name: name) if part else []
            if len(matches) == 1:
                found.append(matches[0])
            elif part:
                unknown.append(part)
            start += 1
    return found, unknown


NAMES = ["Vin", "Elend Venture", "Dox, the Brave", "dox", "A;b, C", "Ｋｅｌ，sier", " Ham  ", "a,,b"]
PIECES = st.sampled_from(
    [
        "Vin",
        "vin ",
        "Dox",
        " the Brave",
        " the  brave",
        "A",
        "b",
        " C",
        "Kel",
        "sier",
        "Ham",
        "",
        " ",
        "Ｋｅｌ，sier",
        "a",
        "x",
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(PIECES, st.sampled_from([",", ";", ", "])), max_size=12),
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=8, unique=True),
)
def test_the_same_names_as_rejoining_every_span(parts: list[tuple[str, str]], known: list[str]) -> None:
    typed = "".join(piece + sep for piece, sep in parts)
    found, unknown = rejoined(typed, known)
    if unknown:
        with pytest.raises(BotError, match="Not one name each"):
            split_names(typed, known)
    else:
        assert split_names(typed, known) == found


def test_a_list_stops_at_its_bound() -> None:
    for typed in (
        "Vin, " * (MAX_LISTED + 1),
        ", ".join(["Vin"] * (MAX_LISTED + 1)),
        "Vin;" * MAX_LISTED + "x",
    ):
        with pytest.raises(BotError, match=f"more than {MAX_LISTED} names"):
            split_names(typed, ["Vin"])
    assert split_names("Vin, " * MAX_LISTED + ",,", ["Vin"]) == ["Vin"] * MAX_LISTED


@pytest.fixture
async def table(bot_env: BotEnv) -> AsyncIterator[Probe]:
    with LogCatcher() as logs:
        probe = Probe(bot_env, log=logs)
        probe.ids = await seed_table(bot_env)
        yield probe


async def test_a_misspelt_name_gets_the_closest_one(table: Probe) -> None:
    await repair(table)
    outcome = await table.send(
        "conflict", [text("names", "Vinn, Elend, Strafe")], path=["order"], user="narrator"
    )
    assert outcome.refused and outcome.record.ephemeral
    assert outcome.record.content.startswith(
        "Not one name each: Vinn (did you mean Vin?), Strafe (did you mean Straff?). The names are: "
    )
    nothing_close = await table.send(
        "conflict", [text("names", "Kelsier, Vin")], path=["order"], user="narrator"
    )
    assert "Not one name each: Kelsier. The names are: " in nothing_close.record.content
    table.check_log()
