"""Hypothesis strategies for valid character sheets, varied where storage could go wrong."""

from hypothesis import strategies as st

from rules.character import Attributes, Character, CharacterKind, Harm, Spent, Standings

_LETTERS = st.characters(
    categories=("Lu", "Ll", "Lt", "Lo", "Nd", "Pd", "Zs"),
    exclude_characters="\u2028\u2029",
)
NAMES = st.text(_LETTERS, min_size=1, max_size=30).filter(lambda name: name.strip() != "")
"""Names in any script and case, including the ß and ligature forms case folding changes."""
TEXT = st.text(st.characters(categories=("L", "N", "P", "Zs")), max_size=40)
OWNER_IDS = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def characters(draw: st.DrawFn, name: st.SearchStrategy[str] = NAMES) -> Character:
    kind = draw(st.sampled_from(CharacterKind))
    standings = Standings(
        resources=draw(st.integers(2, 10)),
        influence=draw(st.integers(2, 10)),
        spirit=draw(st.integers(2, 10)),
    )
    spent = Spent(resources=draw(st.integers(0, standings.resources - 1)))
    attributes = Attributes(
        physique=draw(st.integers(1, 10)), charm=draw(st.integers(1, 10)), wits=draw(st.integers(1, 10))
    )
    extra = kind is CharacterKind.EXTRA
    size = draw(st.integers(1, 100)) if extra else 1
    return Character(
        name=draw(name),
        kind=kind,
        owner_id=draw(OWNER_IDS),
        concept=draw(TEXT),
        size=size,
        members_down=draw(st.integers(0, size)) if extra else 0,
        attributes=attributes,
        standings=standings,
        spent=spent,
        damage=Harm() if extra else Harm(health=draw(st.integers(0, 30))),
        destiny="" if extra else draw(TEXT),
        notes=draw(TEXT),
    )
