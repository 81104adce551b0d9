"""Bronze's sense and Copper's cloud (docs/rulings.md §9.3): whom a Seeker feels burning, and
whom a Smoker's cloud hides from them.

*We chose*, where the book speaks of paces the bot cannot see: everyone in the scene (the
channel's Conflict, else the Heroes at the table) is within Bronze's 100 paces, and a Copper
cloud hides its own burner; who else stands in its 10 paces is the Narrator's to say. A cloud
hides every metal its burner burns, Copper too, unless the Seeker's Bronze pierces it (5 or
more, and 2 above the Copper).
"""

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from rules.character import Character
from rules.errors import RulesError
from rules.powers.metal_effects import bronze_pierces, lit_rating


class Pulse(BaseModel):
    """One Allomancer a Seeker feels: the metals they burn, and which are flared (they pulse
    louder); ``pierced``: felt through their Copper cloud."""

    model_config = ConfigDict(frozen=True)

    name: str
    metals: tuple[str, ...]
    flared: tuple[str, ...] = ()
    pierced: bool = False


def sense(seeker: Character, others: Sequence[Character]) -> tuple[Pulse, ...]:
    """What ``seeker``'s Bronze feels among ``others`` (the seeker left out), in their order."""
    bronze = lit_rating(seeker, "Bronze")
    if not bronze:
        raise RulesError(
            f"{seeker.name} must be burning Bronze to sense Allomancy (`/power burn`, in a Conflict `/burn`)."
        )
    felt: list[Pulse] = []
    for other in others:
        burning = other.allomancy.burning
        if other is seeker or not burning:
            continue
        copper = lit_rating(other, "Copper")
        pierced = bool(copper) and bronze_pierces(bronze, copper)
        if copper and not pierced:
            continue
        felt.append(Pulse(name=other.name, metals=burning, flared=other.allomancy.flared, pierced=pierced))
    return tuple(felt)


def pulse_text(pulse: Pulse) -> str:
    """ "Vin: Steel (flared), Pewter" (through her Copper cloud)."""
    metals = ", ".join(f"{m} (flared)" if m in pulse.flared else m for m in pulse.metals)
    return f"{pulse.name}: {metals}" + (" — through a Copper cloud" if pulse.pierced else "")
