"""A subject and its verb agree: a group reads as plural whatever its name (docs/rulings.md §8.2)."""

import pytest

from rules.words import is_group, names_say, one, says


@pytest.mark.parametrize(
    ("size", "group"),
    [(1, False), (2, True), (4, True), (100, True)],
)
def test_more_than_one_is_a_group(size: int, group: bool) -> None:
    assert is_group(size) is group


@pytest.mark.parametrize(
    ("name", "singular", "many", "said"),
    [
        ("Vin", "rolls", False, "Vin rolls"),
        ("Venture Guards", "rolls", True, "Venture Guards roll"),
        ("Venture Guards", "succeeds", True, "Venture Guards succeed"),
        ("Venture Guards", "makes", True, "Venture Guards make"),
        ("Venture Guards", "acts", True, "Venture Guards act"),
        ("House guards", "has", True, "House guards have"),
        ("House guards", "is", True, "House guards are"),
        ("House guards", "catches", True, "House guards catch"),
        ("House guards", "goes", True, "House guards go"),
        ("The Twins", "joins", False, "The Twins joins"),  # a sheet of one: singular
    ],
)
def test_a_name_and_its_verb_agree(name: str, singular: str, many: bool, said: str) -> None:
    assert says(name, singular, many) == said


@pytest.mark.parametrize(
    ("names", "many", "said"),
    [
        (["Thorrow"], False, "Thorrow acts"),
        (["House guards"], True, "House guards act"),
        (["Cordal", "Koel"], False, "Cordal and Koel act"),
        (["Vin", "Kell", "Ham"], False, "Vin, Kell and Ham act"),
    ],
)
def test_names_in_a_list_take_the_plural(names: list[str], many: bool, said: str) -> None:
    assert names_say(names, "acts", many) == said


@pytest.mark.parametrize(
    ("word", "said"),
    [
        ("Iron", "an Iron"),
        ("Steel", "a Steel"),
        ("Atium", "an Atium"),
        ("Electrum", "an Electrum"),
        ("", "a "),
    ],
)
def test_a_word_takes_the_article_its_first_letter_asks(word: str, said: str) -> None:
    assert one(word) == said
