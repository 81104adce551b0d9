"""``/power spike``: the Narrator drives a Hemalurgic spike, or tears one out (docs/rulings.md
§9.5).

A driven spike's rating is figured from its victim's rating and the weeks it spent outside a
body (``rules.powers.hemalurgy.figured_rating``); a rating typed outright overrides it. The reply
says how the rating was figured.
"""

from bot.client import Interaction
from bot.cogs.powers.flow import apply
from bot.errors import BotError
from bot.render.common import plain
from rules.character import Character
from rules.character.checked import validated
from rules.character.hemalurgy import Spike
from rules.character.metals import metal as find_metal
from rules.powers.hemalurgy import drive_spike, figured_rating, remove_spike
from rules.powers.ledger import Changed
from rules.words import one
from storage import StoredCharacter


def _torn(character: Character, found: str) -> Changed:
    spikes = character.hemalurgy.spikes
    index = next((i for i, s in enumerate(spikes) if s.metal == found), None)
    if index is None:
        raise BotError(f"{plain(character.name)} bears no {found} spike.")
    return remove_spike(character, index)


async def spike_command(
    interaction: Interaction,
    given: StoredCharacter | None,
    metal: str,
    figures: tuple[int | None, int | None, int],
    stolen: str | None,
    remove: bool,
) -> None:
    """Check the figures → the Narrator's change through ``apply``. ``figures``: the rating typed,
    the victim's rating and the weeks outside a body."""
    found = find_metal(metal).name
    if remove:
        await apply(
            interaction,
            given,
            lambda c: _torn(c, found),
            lambda c: f"{c.name} loses {one(found)} spike.",
            narrator="drive spikes",
        )
        return
    rating, how = figured_rating(*figures)
    spike = validated(Spike, {"metal": metal, "power": stolen, "rating": rating})
    await apply(
        interaction,
        given,
        lambda c: drive_spike(c, spike),
        lambda c: f"{c.name} bears a {found} spike ({how}).",
        narrator="drive spikes",
    )
