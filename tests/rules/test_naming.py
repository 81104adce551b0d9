"""The one rule for names: equality, finding and order (rules.naming)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.character import limits
from rules.naming import KnownNames, did_you_mean, find_named, name_key, name_matches, search_key, sort_key

ANY_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)
"""Any text Python can hold apart from lone surrogates, which no name can contain."""
ACCENTED = st.text(st.sampled_from("aeiouAEIOU éèêëÉÈàâÀçÇñÑöÖüÜßẞﬁÆæ’‘ʼ“”–—  \t"), max_size=20)
"""Text dense in the cases the rule folds: accents, ß, ligatures, curly punctuation, spaces."""


@pytest.mark.parametrize(
    ("typed", "same_name", "found_by"),
    [
        ("Vin", "vin", "vin"),
        ("  Vin   Venture ", "vin venture", "vin venture"),
        ("Vin\tVenture\n", "vin venture", "vin venture"),
        ("Ｖｉｎ", "vin", "vin"),
        ("Straße", "strasse", "strasse"),
        ("STRASSE", "strasse", "strasse"),
        ("ﬁnch", "finch", "finch"),
        ("Ménard d’Arc", "ménard d’arc", "menard d'arc"),
        ("“Lord” Straff — Venture", "“lord” straff — venture", '"lord" straff - venture'),
        ("Ériel", "ériel", "eriel"),
        ("Ｃｒｅｍｅ Ｂｒûｌéｅ", "creme brûlée", "creme brulee"),
        ("O ̈ B", "o ̈ b", "o b"),  # a lone combining mark dropped leaves no double space
        ("한국", "한국", "한국"),  # Hangul is decomposed and recomposed, not stripped
        ("", "", ""),
        ("   ", "", ""),
    ],
)
def test_keys(typed: str, same_name: str, found_by: str) -> None:
    assert name_key(typed) == same_name
    assert search_key(typed) == found_by


def test_same_name_ignores_case_spacing_and_lookalikes_only() -> None:
    for a, b in [
        ("Vin  Venture", "vin venture"),
        ("Ｓｔｒａｆｆ", "straff"),
        ("Straße", "STRASSE"),
        ("ǅ", "dž"),
    ]:
        assert name_key(a) == name_key(b), (a, b)
    # Accents and punctuation make different names: only finding forgives them.
    for a, b in [("Élise", "Elise"), ("d’Arc", "d'Arc"), ("Ham", "Hammond")]:
        assert name_key(a) != name_key(b), (a, b)
        assert name_matches(b, a) or name_matches(a, b), (a, b)
    # A space is part of the name: removing one makes another name, found by neither.
    assert name_key("Vin Venture") != name_key("VinVenture")
    assert not name_matches("Vin Venture", "VinVenture") and not name_matches("VinVenture", "Vin Venture")


def test_name_matches() -> None:
    assert name_matches("menard", "Ménard d’Arc")
    assert name_matches("d'arc", "Ménard d’Arc")
    assert name_matches("str", "Lord Straff")
    assert name_matches("LORD  straff", "Lord Straff")
    assert name_matches("", "anything")
    assert name_matches("   ", "anything")
    assert not name_matches("strf", "Lord Straff")
    assert not name_matches("Lord Straff Venture", "Lord Straff")


def test_sort_key_orders_as_people_expect() -> None:
    names = ["Obligator", "zane", "Ériel", "ada", "Ada", "Elend", "ádá", "Ｂｅｌｌｅ"]
    assert sorted(names, key=sort_key) == [
        "Ada",
        "ada",
        "ádá",
        "Ｂｅｌｌｅ",
        "Elend",
        "Ériel",
        "Obligator",
        "zane",
    ]
    assert sort_key("Ériel") < sort_key("Obligator")


def test_find_named() -> None:
    names = ["Lord Straff", "Straff Venture", "Vin", "Vin's Shadow", "Ménard d’Arc", "Strafe"]

    def find(query: str) -> list[str]:
        return find_named(query, names, lambda name: name)

    assert find("vin") == ["Vin"]  # the same name wins over names that contain it
    assert find(" VIN ") == ["Vin"]
    assert find("straff") == ["Lord Straff", "Straff Venture"]  # several: "which one did you mean"
    assert find("straff v") == ["Straff Venture"]
    assert find("menard") == ["Ménard d’Arc"]
    assert find("Kelsier") == []
    assert find("") == sorted(names, key=sort_key)
    assert find("str") == ["Lord Straff", "Strafe", "Straff Venture"]


def test_find_named_returns_every_exact_match_in_the_given_order() -> None:
    items = [("b", "Steel"), ("a", "STEEL"), ("c", "Steel (Feruchemy)")]
    assert find_named("steel", items, lambda item: item[1]) == [("b", "Steel"), ("a", "STEEL")]
    assert find_named("fer", iter(items), lambda item: item[1]) == [("c", "Steel (Feruchemy)")]


@given(ANY_TEXT)
def test_keys_are_idempotent(text: str) -> None:
    assert name_key(name_key(text)) == name_key(text)
    assert search_key(search_key(text)) == search_key(text)


@given(ACCENTED)
def test_keys_are_idempotent_on_accents_and_punctuation(text: str) -> None:
    assert name_key(name_key(text)) == name_key(text)
    assert search_key(search_key(text)) == search_key(text)


@given(st.one_of(ANY_TEXT, ACCENTED), st.one_of(ANY_TEXT, ACCENTED))
def test_equality_invariants(a: str, b: str) -> None:
    # The search key is a function of the name key, so the same name is always found alike.
    assert search_key(name_key(a)) == search_key(a)
    if name_key(a) == name_key(b):
        assert search_key(a) == search_key(b)
        assert name_matches(a, b) and name_matches(b, a)
    assert name_matches(a, a)
    assert name_matches(a, b) == (search_key(a) in search_key(b))
    # The order is total and agrees with equality of the name itself.
    assert (sort_key(a) == sort_key(b)) == (a == b)


@given(st.lists(ACCENTED, max_size=8), ACCENTED)
def test_find_named_is_exact_matches_or_sorted_substring_matches(names: list[str], query: str) -> None:
    found = find_named(query, names, lambda name: name)
    exact = [name for name in names if name_key(name) == name_key(query)]
    if exact:
        assert found == exact
    else:
        assert found == sorted((n for n in names if name_matches(query, n)), key=sort_key)


def test_the_old_import_path_is_the_one_rule() -> None:
    assert limits.name_key is name_key


@pytest.mark.parametrize(
    ("typed", "names", "said"),
    [
        ("steal", ["Steel", "Iron"], " Did you mean Steel?"),
        ("zzzz", ["Steel", "Iron"], ""),
        ("Vinn", KnownNames(["Vin", "Kelsier", "Vin's Shadow"]), " Did you mean Vin?"),
        ("menerd", KnownNames(["Ménard d’Arc", "Marsh"]), ""),
        ("menard d arc", KnownNames(["Ménard d’Arc", "Marsh"]), " Did you mean «Ménard d’Arc»?"),
        ("zzzz", KnownNames(["Vin"]), ""),
    ],
)
def test_did_you_mean_compares_names_by_the_one_rule(
    typed: str, names: "list[str] | KnownNames", said: str
) -> None:
    """A character's name is suggested as a stat's is (docs/rulings.md §8.4); ``shown`` is how
    the bot makes it inert."""
    assert did_you_mean(typed, names, shown=lambda name: f"«{name}»" if " " in name else name) == said
