"""The Circumstances a roll carries: only ever the Narrator's (docs/rulings.md §1.6).

A Narrator may give them with a roll; a player may not, and is told so privately before
anything is rolled. A roll given none carries what the Narrator set for the scene in its channel
(``/scene circumstances``). Whatever applies is shown with the roll, so the table sees why.
"""

from dataclasses import dataclass

from bot.access import caller_of
from bot.client import Interaction
from bot.render.common import plain
from bot.served import channel_id_of, guild_id_of
from storage.scenes import NO_CIRCUMSTANCES, SceneCircumstances

DESCRIPTION = "Narrators: −1, 0 or +1 for this roll (default: the scene's, set with /scene circumstances)"


@dataclass(frozen=True)
class Applied:
    """The Circumstances applied to one roll, and where they came from."""

    net: int = 0
    note: str = ""
    from_scene: bool = True

    def text(self) -> str | None:
        """ "+1 (the Narrator's, for this scene: in the mists)", or None when nothing applies."""
        if not self.net:
            return None
        whose = "the Narrator's, for this scene" if self.from_scene else "the Narrator's, for this roll"
        note = f": {plain(self.note)}" if self.note else ""
        return f"{self.net:+d} ({whose}{note})"


NOTHING_SET = Applied()
"""The scene's Circumstances where the Narrator set none: most channels, most rolls."""


def scene_applied(scene: SceneCircumstances) -> Applied:
    if scene is NO_CIRCUMSTANCES:
        return NOTHING_SET
    return Applied(net=scene.net, note=scene.note, from_scene=True)


async def scene_circumstances(interaction: Interaction) -> SceneCircumstances:
    """What the Narrator set for the scene in this channel (none when never set)."""
    storage = interaction.client.storage
    return await storage.scenes.circumstances(guild_id_of(interaction), channel_id_of(interaction))


async def applied_circumstances(interaction: Interaction, given: int | None) -> Applied:
    """The Circumstances for a roll: the Narrator's own if given, else the scene's.

    Who is asking is read only when some were given: the scene's apply to anyone's roll."""
    if given is None:
        return scene_applied(await scene_circumstances(interaction))
    who = await caller_of(interaction, interaction.client.storage)
    who.require_own_circumstances(given)
    return Applied(net=given, from_scene=False)
