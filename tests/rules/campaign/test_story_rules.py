"""Subplots, the true Destiny, Secrets and the Narrator's own templates, as pure rules
(docs/rulings.md §10.2–§10.4)."""

import pytest

from rules.campaign.opposition_templates import as_template, from_template
from rules.campaign.secrets import SecretKind, already_told, make_secret, unlock_line
from rules.campaign.subplots import engaged_dice, set_stage, stage_line, true_destiny, with_subplot
from rules.character import Attribute, CharacterKind, PowerType, make_character
from rules.character.story import Stage, Subplot, learn, next_stage
from rules.errors import RulesError
from rules.pool import build_pool

VIN = make_character(name="Vin", kind="hero", owner_id=1, destiny="Save the city", tragedy="Her brother")


@pytest.mark.parametrize(
    ("stage", "dice"), [(Stage.BEGINNING, 1), (Stage.MIDDLE, 2), (Stage.END, 3), (Stage.RESOLVED, 0)]
)
def test_a_stage_is_worth_more_dice_as_the_subplot_grows(stage: Stage, dice: int) -> None:
    moved = VIN if stage is Stage.BEGINNING else set_stage(VIN, Subplot.DESTINY, stage)
    assert engaged_dice(moved, Subplot.DESTINY) == dice
    pool = with_subplot(build_pool(3, rating_label="Charm"), moved, Subplot.DESTINY)
    assert pool.total == 3 + dice


def test_a_subplot_moves_on_and_is_resolved() -> None:
    assert [next_stage(s) for s in (Stage.BEGINNING, Stage.MIDDLE, Stage.END)] == [
        Stage.MIDDLE,
        Stage.END,
        Stage.RESOLVED,
    ]
    with pytest.raises(RulesError, match="already resolved"):
        next_stage(Stage.RESOLVED)
    fulfilled = set_stage(VIN, Subplot.DESTINY, Stage.RESOLVED)
    assert stage_line(fulfilled, Subplot.DESTINY) == "Vin's Destiny is fulfilled."
    overcome = set_stage(VIN, Subplot.TRAGEDY, Stage.RESOLVED)
    assert stage_line(overcome, Subplot.TRAGEDY) == "Vin's Tragedy is overcome."
    assert (
        stage_line(set_stage(VIN, Subplot.TRAGEDY, Stage.END), Subplot.TRAGEDY)
        == "Vin's Tragedy reaches its End."
    )
    with pytest.raises(RulesError, match="already at Beginning"):
        set_stage(VIN, Subplot.DESTINY, Stage.BEGINNING)


def test_extras_have_no_subplots_and_an_unwritten_one_gives_nothing() -> None:
    extra = make_character(name="Guard", kind="extra", owner_id=1)
    with pytest.raises(RulesError, match="Extras have no Destiny"):
        set_stage(extra, Subplot.DESTINY, Stage.MIDDLE)
    with pytest.raises(ValueError, match="Extras have no Destiny"):
        make_character(name="Guard", kind="extra", owner_id=1, story={"tragedy": "end"})
    assert engaged_dice(make_character(name="Nobody", kind="hero", owner_id=1), Subplot.DESTINY) == 0


def test_a_true_destiny_is_checked_like_a_destiny() -> None:
    assert true_destiny("  Become the Hero of Ages ") == "Become the Hero of Ages"
    for bad in ("", "x" * 161, "line\nbreak"):
        with pytest.raises(RulesError):
            true_destiny(bad)


def test_secrets_known_are_listed_once_and_at_most_eight() -> None:
    story = VIN.story
    for n in range(8):
        story = learn(story, f"Secret {n}")
    assert learn(story, "secret 3") == story
    with pytest.raises(RulesError, match="already lists 8"):
        learn(story, "One more")


@pytest.mark.parametrize(
    ("metal", "power", "kind", "line"),
    [
        (None, None, SecretKind.STORY, ""),
        ("duralumin", None, SecretKind.STORY, "Unlocks Duralumin (Allomancy)"),
        ("Nicrosil", PowerType.FERUCHEMY, SecretKind.RULES, "Unlocks Nicrosil (Feruchemy)"),
    ],
)
def test_a_rules_secret_names_the_metal_it_unlocks(
    metal: str | None, power: PowerType | None, kind: SecretKind, line: str
) -> None:
    secret = make_secret("A secret", "Its words", kind, metal, power)
    assert unlock_line(secret) == line
    assert (secret.kind is SecretKind.RULES) == bool(line)


@pytest.mark.parametrize(
    ("title", "metal", "power", "refusal"),
    [
        ("", None, None, "title cannot be empty"),
        ("A", "Wood", None, "not a metal"),
        ("A", "Steel", PowerType.HEMALURGY, "Allomancy or Feruchemy"),
    ],
)
def test_a_secret_is_refused_in_plain_words(
    title: str, metal: str | None, power: PowerType | None, refusal: str
) -> None:
    with pytest.raises(RulesError, match=refusal):
        make_secret(title, "Its words", SecretKind.STORY, metal, power)


@pytest.mark.parametrize(
    ("told", "whom", "again"),
    [
        (set(), None, False),
        (set(), 1, False),
        ({1}, 1, True),
        ({1}, 2, False),
        ({1}, None, False),
        ({None}, None, True),
        ({None}, 1, False),  # told to the table, a Hero may still be told it (for their sheet)
        ({None, 1}, 1, True),
    ],
)
def test_a_secret_is_told_to_each_once(told: set[int | None], whom: int | None, again: bool) -> None:
    assert already_told(told, whom) is again


def test_a_template_keeps_the_villain_as_written_not_as_the_night_left_it() -> None:
    worn = make_character(
        name="Straff",
        kind="villain",
        owner_id=9,
        attributes={"physique": 4, "charm": 5, "wits": 3},
        damage={"health": 3},
        spent={"influence": 1},
        burdens=[{"name": "Cut", "severity": "grave"}],
        powers=[{"type": "allomancy", "name": "Tin", "rating": 4}],
        props=[{"name": "Sword", "weapon": 2}],
        story={"destiny": "middle"},
        destiny="Rule Luthadel",
    )
    saved = as_template(worn)
    assert saved.damage.health == 0 and saved.spent.influence == 0 and saved.burdens == ()
    assert saved.powers == worn.powers and saved.props == worn.props and saved.destiny == "Rule Luthadel"
    assert saved.story.destiny is Stage.BEGINNING and saved.owner_id == 0
    made = from_template(saved, name="Straff II", owner_id=5, ratings={Attribute.CHARM: 2})
    assert (made.name, made.owner_id, made.attributes.charm, made.attributes.physique) == (
        "Straff II",
        5,
        2,
        4,
    )
    with pytest.raises(RulesError, match="a Hero is a player's"):
        as_template(VIN)
    assert made.kind is CharacterKind.VILLAIN
