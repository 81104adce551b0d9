"""A Hero in the making (docs/rulings.md §6.10): each step fills its part, refuses what a new
Hero cannot have, and a finished draft is a sheet the build check has nothing to say about."""

import pytest

from rules.character import BuildLabels, CharacterKind, Emphasis, check_hero_build
from rules.character.creation import PowerTemplate, read_props
from rules.character.draft import (
    HeroDraft,
    Step,
    finish,
    new_draft,
    power_choice,
    step_done,
    still_to_do,
    to_character,
    with_attributes,
    with_concept,
    with_labels,
    with_powers,
    with_standings,
    with_story,
    with_traits,
)
from rules.errors import RulesError

STRONG_ATTRIBUTES = BuildLabels(attributes=Emphasis.STRONG, standings=Emphasis.AVERAGE, powers=Emphasis.WEAK)
TRAITS = {
    "drive": "Keep her crew safe",
    "profession": "Thief",
    "specialty": "Hiding",
    "feature": "Small",
    "personality": "Wary",
}


def complete(template: PowerTemplate = PowerTemplate.MISTBORN, metal: str | None = None) -> HeroDraft:
    draft = with_concept(new_draft("Vin", 7), "Vin", "Street urchin")
    draft = with_labels(draft, STRONG_ATTRIBUTES)
    draft = with_standings(with_attributes(draft, (3, 4, 6)), (4, 4, 3))
    draft = with_traits(with_powers(draft, power_choice(template, metal)), **TRAITS)
    extras = ("Lucky", "Quiet") if template is PowerTemplate.NONE else None
    return with_story(draft, "Hero of Ages", "Reen", read_props("Glass knives (weapon 1)"), extras)


def test_steps_run_in_the_creation_order() -> None:
    assert [s.value for s in Step] == ["concept", "labels", "ratings", "powers", "traits", "story", "review"]
    assert Step.CONCEPT.previous is Step.CONCEPT and Step.REVIEW.following is Step.REVIEW
    assert Step.RATINGS.previous is Step.LABELS and Step.RATINGS.following is Step.POWERS


@pytest.mark.parametrize(
    ("template", "metal", "powers"),
    [
        (PowerTemplate.MISTBORN, None, 8),
        (PowerTemplate.MISTING, "steel", 1),
        (PowerTemplate.KEEPER, None, 8),
        (PowerTemplate.NONE, None, 0),
    ],
)
def test_a_complete_draft_finishes_as_a_hero_the_build_check_accepts(
    template: PowerTemplate, metal: str | None, powers: int
) -> None:
    draft = complete(template, metal)
    assert still_to_do(draft) == [] and all(step_done(draft, s) for s in Step if s is not Step.REVIEW)
    hero = finish(draft)
    assert hero.kind is CharacterKind.HERO and hero.owner_id == 7 and len(hero.powers) == powers
    assert check_hero_build(hero) == []
    assert hero.build == STRONG_ATTRIBUTES and hero.props[0].weapon == 1
    assert len(hero.traits.extras) == (2 if template is PowerTemplate.NONE else 0)


def test_what_is_missing_is_said_in_order() -> None:
    draft = new_draft("Vin", 7)
    assert still_to_do(draft) == [
        "a concept",
        "strong / average / weak labels",
        "Physique, Charm and Wits",
        "Resources, Influence and Spirit",
        "Powers",
        "Traits: Drive, Profession, Specialty, Feature, Personality",
        "a Destiny",
        "a Tragedy",
    ]
    with pytest.raises(RulesError, match="Vin still needs a concept; strong"):
        finish(draft)
    no_powers = with_powers(draft, power_choice(PowerTemplate.NONE))
    assert "2 more Traits (a Hero without Powers)" in still_to_do(no_powers)
    assert to_character(draft).attributes.physique == 2, "the preview shows the Hero minimum"


def test_splits_must_be_offered_ones_and_follow_their_label() -> None:
    draft = with_labels(new_draft("Vin", 7), STRONG_ATTRIBUTES)
    with pytest.raises(RulesError, match="one of the Attributes they allow"):
        with_attributes(draft, (6, 6, 1))
    with pytest.raises(RulesError, match="one of the Standings they allow"):
        with_standings(draft, (8, 3, 2))
    with pytest.raises(RulesError, match="Choose the labels first"):
        with_attributes(new_draft("Vin", 7), (6, 4, 3))
    chosen = with_standings(with_attributes(draft, (6, 4, 3)), (6, 3, 2))
    swapped = with_labels(
        chosen, BuildLabels(attributes=Emphasis.STRONG, standings=Emphasis.WEAK, powers=Emphasis.AVERAGE)
    )
    assert swapped.attributes == (6, 4, 3) and swapped.standings is None, "only the relabelled split goes"


def test_props_are_held_to_resources() -> None:
    draft = complete()
    with pytest.raises(RulesError, match="That is 5 Props; a new Hero has at most 4"):
        with_story(draft, "D", "T", read_props("a\nb\nc\nd\ne"))
    four = with_story(draft, "D", "T", read_props("a\nb\nc\nd"))
    assert still_to_do(four) == []
    weak = BuildLabels(attributes=Emphasis.STRONG, standings=Emphasis.WEAK, powers=Emphasis.AVERAGE)
    poorer = with_standings(with_labels(four, weak), (2, 3, 4))
    assert still_to_do(poorer) == ["fewer Props: Resources 2 allows 2"]
    assert not step_done(poorer, Step.STORY)


def test_a_stored_draft_that_breaks_a_rule_does_not_load() -> None:
    data = complete().model_dump(mode="json")
    data["attributes"] = [6, 6, 1]
    with pytest.raises(ValueError, match="not a split of the Attributes' label"):
        HeroDraft.model_validate(data)
    with pytest.raises(RulesError, match="A Misting burns one of"):
        power_choice(PowerTemplate.MISTING, "Lerasium")
    with pytest.raises(RulesError, match="the concept cannot be empty"):
        with_concept(new_draft("Vin", 7), "Vin", "   ")
    with pytest.raises(RulesError, match="There is no Trait called charm"):
        with_traits(new_draft("Vin", 7), charm="x")
