"""Bronze's sense and Copper's cloud (docs/rulings.md §9.3): Bronze pierces a cloud at 5 or
more and 2 above the Copper; a cloud hides every metal its burner burns."""

import pytest

from rules.character import Character, make_character
from rules.errors import RulesError
from rules.powers.bronze import pulse_text, sense


def _burner(name: str, burning: dict[str, int], flared: tuple[str, ...] = ()) -> Character:
    powers = [{"type": "allomancy", "name": m, "rating": r} for m, r in burning.items()]
    allomancy = {"burning": list(burning), "flared": list(flared)}
    attributes = {"physique": 4, "charm": 3, "wits": 4}
    return make_character(
        name=name, kind="hero", owner_id=1, attributes=attributes, powers=powers, allomancy=allomancy
    )


@pytest.mark.parametrize(
    ("bronze", "copper", "felt"),
    [
        (5, 0, True),  # no cloud
        (5, 3, True),  # 5 or more and 2 above
        (5, 4, False),  # only 1 above
        (4, 1, False),  # 3 above, but under 5
        (6, 4, True),
        (9, 8, False),
        (9, 7, True),
    ],
)
def test_bronze_pierces_a_cloud_at_five_and_two_above(bronze: int, copper: int, felt: bool) -> None:
    seeker = _burner("Marsh", {"Bronze": bronze})
    metals = {"Steel": 5} | ({"Copper": copper} if copper else {})
    smoker = _burner("Vin", metals, flared=("Steel",))
    pulses = sense(seeker, [smoker])
    assert bool(pulses) is felt
    if felt:
        assert pulse_text(pulses[0]).startswith("Vin: Steel (flared)")
        assert pulses[0].pierced is bool(copper)


def test_nobody_burning_is_felt_and_a_seeker_must_burn_bronze() -> None:
    seeker = _burner("Marsh", {"Bronze": 5})
    idle = _burner("Kel", {})
    assert sense(seeker, [idle, seeker]) == ()
    with pytest.raises(RulesError, match="must be burning Bronze"):
        sense(idle, [seeker])
