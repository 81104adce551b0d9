"""A roll of Zinc or Brass outside a Conflict (docs/rulings.md §9.3): a success holds the emotion
(+1 die per Outcome point, at least 1, at most 6), a failure's Complications alert the target
(2) or reveal the source (4)."""

import pytest

from rules.pool import build_pool
from rules.powers.metal_effects import emotion_roll, hold_dice
from rules.roll import read
from tests.rules.powers.sheets import allomancer


@pytest.mark.parametrize(
    ("metal", "faces", "difficulty", "dice", "said"),
    [
        ("Brass", (5, 5, 2, 3, 4), 2, 3, "The soothing holds: +3 dice"),
        ("Zinc", (5, 5, 2, 3, 4), 2, 3, "The rioting holds: +3 dice"),
        ("Brass", (3, 3, 1, 4, 5), 3, 1, "The soothing holds: +1 dice"),  # Outcome 0 holds 1 (§9.3)
        ("Zinc", (1, 2, 3, 4, 5), 1, None, "The rioting fails. Nobody notices."),
        ("Zinc", (1, 2, 3, 4, 5), 2, None, "The rioting fails. The target feels their emotions pushed."),
        ("Brass", (1, 2, 3, 4, 5), 3, None, "The soothing fails. The target feels their emotions pushed."),
        ("Brass", (1, 2, 3, 4, 5), 4, None, "The soothing fails. The target feels it, and knows who"),
    ],
)
def test_a_success_holds_and_a_failure_says_what_it_means(
    metal: str, faces: tuple[int, ...], difficulty: int, dice: int | None, said: str
) -> None:
    sheet = allomancer(metal, allomancy={"burning": [metal]})
    done = emotion_roll(sheet, metal, read(faces, pool=build_pool(5), difficulty=difficulty))
    assert done is not None and done.note.startswith(said), done
    if dice is None:
        assert done.character is None
        return
    assert done.character is not None and done.character.allomancy.hold is not None
    assert done.character.allomancy.hold.dice == dice
    label = "Rioting" if metal == "Zinc" else "Soothing"
    assert hold_dice(done.character, "Charm") == (label, dice)
    assert hold_dice(done.character, "Influence") == (label, dice)
    assert hold_dice(done.character, "Physique") is None


def test_a_big_outcome_holds_at_most_six() -> None:
    sheet = allomancer("Zinc", allomancy={"burning": ["Zinc"]})
    success = read((5, 5, 2, 3, 4), pool=build_pool(5), difficulty=1)
    for outcome, dice in ((4, 4), (6, 6), (9, 6)):
        done = emotion_roll(sheet, "Zinc", success.model_copy(update={"outcome": outcome}))
        assert done is not None and done.character is not None
        assert done.character.allomancy.hold is not None and done.character.allomancy.hold.dice == dice


def test_unlit_metal_holds_nothing_and_other_rolls_are_not_emotions() -> None:
    sheet = allomancer("Brass", "Tin")
    success = read((5, 5, 2, 3, 4), pool=build_pool(5), difficulty=2)
    done = emotion_roll(sheet, "Brass", success)
    assert done is not None and done.character is None and "not burning" in done.note
    assert emotion_roll(sheet, "Tin", success) is None
    assert emotion_roll(sheet, "Charm", success) is None
