"""``/power sense``: a Seeker's Bronze feels who burns what in the scene (docs/rulings.md §9.3).

The scene is the channel's Conflict's cast, else the Heroes at the table (``bot.inputs.heroes``).
The answer is private to the one asking. A player hears of the sheets the table may read; a
hidden Villain's or Extra's metals are the Narrator's (§7.1), who asks the same for the Seeker
and tells the player what they feel.
"""

from bot import replies
from bot.access import caller_of
from bot.client import Interaction
from bot.inputs.characters import named_or_active
from bot.inputs.heroes import scene_cast
from bot.render.common import plain
from bot.secrecy import is_secret
from rules.powers.bronze import pulse_text, sense
from storage import StoredCharacter

MOST = 25


async def sense_allomancy(interaction: Interaction, given: StoredCharacter | None) -> None:
    """Load the Seeker and the scene → the caller controls the Seeker → sense (pure) → answer
    privately; nothing is saved."""
    seeker = await named_or_active(interaction, given)
    who = await caller_of(interaction, interaction.client.storage)
    who.require_control(seeker.character, "sense with their Bronze")
    scene = [s for s in await scene_cast(interaction, MOST) if s.id != seeker.id]
    readable = [s for s in scene if who.narrator or not is_secret(s.character.kind, s.revealed)]
    felt = sense(seeker.character, [s.character for s in readable])
    lines = [pulse_text(pulse) for pulse in felt] or ["No Allomancy they can feel."]
    text = f"**{plain(seeker.name)}** listens with Bronze:\n" + "\n".join(
        f"- {plain(line)}" for line in lines
    )
    if len(readable) < len(scene):
        text += "\nThe Narrator tells you of anyone else you feel."
    await replies.send(interaction, text, ephemeral=True)
