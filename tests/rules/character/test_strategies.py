"""Hypothesis strategies for valid characters, shared by the character tests, and their checks."""

from hypothesis import given
from hypothesis import strategies as st

from rules.burdens import Severity
from rules.character import (
    METALS,
    Attributes,
    BuildLabels,
    Burden,
    Character,
    CharacterKind,
    Emphasis,
    Harm,
    Power,
    PowerType,
    Prop,
    Spent,
    Standings,
    Traits,
)
from rules.character import limits as lim
from rules.character.advancement import HOLD_MAX, Advancements
from rules.character.names import RESERVED_NAMES
from rules.character.parts import lowest_rating
from rules.character.story import SECRET_TITLE_MAX, SECRETS_KNOWN_MAX, Stage, Story
from rules.naming import name_key

_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Cf"))


def texts(limit: int, *, required: bool = False, multiline: bool = False) -> st.SearchStrategy[str]:
    """Trimmed text within ``limit`` UTF-16 units, as the sheet stores it."""
    alphabet = st.one_of(_CHARS, st.just("\n")) if multiline else _CHARS
    return (
        st.text(alphabet=alphabet, max_size=limit)
        .map(str.strip)
        .filter(lambda s: lim.text_units(s) <= limit and (lim.visible(s) or not required))
    )


def _power_names(kind: PowerType) -> st.SearchStrategy[str]:
    if kind.uses_metal:
        return st.sampled_from(METALS)
    return texts(lim.POWER_NAME_MAX, required=True).filter(lambda s: name_key(s) not in RESERVED_NAMES)


@st.composite
def powers(draw: st.DrawFn) -> tuple[Power, ...]:
    kinds = draw(st.lists(st.sampled_from(list(PowerType)), max_size=lim.POWERS_MAX))
    result: list[Power] = []
    seen: set[tuple[PowerType, str]] = set()
    stunts_left = lim.STUNTS_MAX
    for kind in kinds:
        name = draw(_power_names(kind))
        if (kind, name_key(name)) in seen:
            continue
        seen.add((kind, name_key(name)))
        stunts = draw(st.lists(texts(lim.STUNT_MAX, required=True), max_size=min(2, stunts_left)))
        stunts_left -= len(stunts)
        rating = draw(st.integers(lowest_rating(kind), lim.POWER_RATING_MAX))  # §9.1
        result.append(Power(type=kind, name=name, rating=rating, stunts=tuple(stunts)))
    return tuple(result)


burdens = st.lists(
    st.builds(
        Burden, name=texts(lim.BURDEN_NAME_MAX, required=True), severity=st.sampled_from(list(Severity))
    ),
    max_size=lim.BURDENS_MAX,
    unique_by=lambda b: name_key(b.name),
).map(tuple)

props = st.lists(
    st.builds(
        Prop,
        name=texts(lim.PROP_NAME_MAX, required=True),
        weapon=st.none() | st.integers(0, lim.WEAPON_MAX),
        armour=st.none() | st.integers(0, lim.ARMOUR_MAX),
    ),
    max_size=lim.PROPS_MAX,
).map(tuple)

traits = st.builds(
    Traits,
    drive=texts(lim.TRAIT_MAX),
    profession=texts(lim.TRAIT_MAX),
    specialty=texts(lim.TRAIT_MAX),
    feature=texts(lim.TRAIT_MAX),
    personality=texts(lim.TRAIT_MAX),
    extras=st.lists(texts(lim.TRAIT_MAX, required=True), max_size=lim.EXTRA_TRAITS_MAX).map(tuple),
)


@st.composite
def ledgers(draw: st.DrawFn) -> Advancements:
    """A balanced Advancements ledger (``rules.character.advancement``)."""
    held = draw(st.integers(0, HOLD_MAX))
    spent, lost = draw(st.integers(0, 200)), draw(st.integers(0, 50))
    return Advancements(
        held=held, earned=held + spent + lost, spent=spent, lost=lost, spend_open=draw(st.booleans())
    )


def stories(extra: bool) -> st.SearchStrategy[Story]:
    """Subplots' stages (none but the Beginning for Extras) and Secrets known."""
    stage = st.just(Stage.BEGINNING) if extra else st.sampled_from(list(Stage))
    titles = st.sampled_from(["The hideout", "Kelsier's plan", "Duralumin", "ß" * SECRET_TITLE_MAX])
    known = st.lists(titles, max_size=SECRETS_KNOWN_MAX, unique_by=name_key).map(tuple)
    return st.builds(Story, destiny=stage, tragedy=stage, secrets_known=known)


build_labels = st.none() | st.permutations(list(Emphasis)).map(
    lambda p: BuildLabels(attributes=p[0], standings=p[1], powers=p[2])
)


@st.composite
def characters(draw: st.DrawFn, kind: CharacterKind | None = None) -> Character:
    """Any valid Character, of ``kind`` if given."""
    kind = kind or draw(st.sampled_from(list(CharacterKind)))
    attribute = st.integers(lim.ATTRIBUTE_MIN, lim.ATTRIBUTE_MAX)
    standing = st.integers(lim.STANDING_MIN, lim.STANDING_MAX)
    standings = draw(st.builds(Standings, resources=standing, influence=standing, spirit=standing))
    spent = Spent(
        resources=draw(st.integers(0, standings.resources - 1)),
        influence=draw(st.integers(0, standings.influence - 1)),
        spirit=draw(st.integers(0, standings.spirit - 1)),
    )
    extra = kind is CharacterKind.EXTRA
    size = draw(st.integers(1, lim.GROUP_MAX)) if extra else 1
    damage = st.integers(0, lim.DAMAGE_MAX)
    return Character(
        name=draw(texts(lim.NAME_MAX, required=True)),
        kind=kind,
        owner_id=draw(st.integers(0, lim.OWNER_ID_MAX)),
        concept=draw(texts(lim.CONCEPT_MAX)),
        size=size,
        members_down=draw(st.integers(0, size)) if extra else 0,
        attributes=draw(st.builds(Attributes, physique=attribute, charm=attribute, wits=attribute)),
        standings=standings,
        spent=spent,
        damage=Harm() if extra else draw(st.builds(Harm, health=damage, reputation=damage, willpower=damage)),
        traits=draw(traits),
        destiny="" if extra else draw(texts(lim.DESTINY_MAX)),
        tragedy="" if extra else draw(texts(lim.TRAGEDY_MAX)),
        burdens=draw(burdens),
        powers=draw(powers()),
        props=draw(props),
        build=draw(build_labels),
        notes=draw(texts(lim.NOTES_MAX, multiline=True)),
        advancements=draw(ledgers()) if kind is CharacterKind.HERO else Advancements(),
        story=draw(stories(extra)),
    )


@given(characters())
def test_generated_characters_are_what_validation_accepts(character: Character) -> None:
    assert Character.model_validate(character.model_dump()) == character


@given(characters(kind=CharacterKind.EXTRA))
def test_generated_extras_have_no_destiny_or_damage(character: Character) -> None:
    assert character.destiny == character.tragedy == ""
    assert character.damage == Harm()
    assert 0 <= character.members_left <= character.size
