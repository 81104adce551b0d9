"""Splitting Nudges from the prompt (docs/rulings.md §2, §5): **Split Nudges…** opens a form of
how many go on damage, on removing the target's dice, on dice next round and on story effects,
with the Burden left if the attack defeats its target — what ``/nudges`` takes, typed into a
form instead of a command.

The button is a ``DynamicItem`` naming the Conflict and the attack, and the form is sent
stopped with the same ids in its custom id, so both work after a restart; the form builds the
``/nudges`` move (``bot.cogs.conflict.answer_build.NudgesMove``) for that attack only and runs it
through the one flow.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.cogs.conflict.answer_build import NudgesMove, nudging
from bot.cogs.conflict.delivery import run
from bot.errors import BotError
from bot.forms import SentForm
from bot.render.buttons import NUDGE_FORM, NUDGE_SPLIT, nudge_split_button
from bot.render.common import plain
from bot.served import channel_id_of, guild_id_of
from bot.workers.board_state import stored_board
from rules.burdens import Severity

FORM_ID = re.compile(NUDGE_FORM)
SPENDS = (
    ("damage", "On damage (+1 each)"),
    ("remove", "On removing their dice (1 each)"),
    ("next_round", "On Action Dice next round (+1 each)"),
    ("story", "On story effects (the Narrator's call)"),
)
BURDEN = "defeat_burden"
NO_BURDEN = "none"


def nudges_form(conflict: int, attack: int, name: str, nudges: int) -> discord.ui.Modal:
    """The form splitting ``nudges``, sent stopped: its submission reaches :func:`on_nudges_sent`."""
    form = discord.ui.Modal(
        title=f"{name}'s {nudges} Nudges"[:45], custom_id=f"mab:nudgeform:{conflict}:{attack}", timeout=None
    )
    for key, label in SPENDS:
        box = discord.ui.TextInput[discord.ui.Modal](
            custom_id=key, default="0", required=False, min_length=0, max_length=2
        )
        form.add_item(discord.ui.Label(text=label, component=box))
    burden = discord.ui.Select[discord.ui.Modal](
        custom_id=BURDEN,
        required=False,
        options=[
            discord.SelectOption(label="None", value=NO_BURDEN, default=True),
            *(discord.SelectOption(label=s.label, value=s.value) for s in (Severity.GRAVE, Severity.MORTAL)),
        ],
    )
    form.add_item(discord.ui.Label(text="If this defeats them: leave a Burden", component=burden))
    form.stop()
    return form


class NudgeSplitButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=NUDGE_SPLIT):
    """Opens the Nudges form for the attacker's player (or a Narrator)."""

    def __init__(self, conflict: int, attack: int) -> None:
        super().__init__(nudge_split_button(conflict, attack))
        self.conflict, self.attack = conflict, attack

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NudgeSplitButton":
        return cls(int(match["conflict"]), int(match["attack"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        if found is None or found[0].id != self.conflict or found[1].conflict is None:
            raise BotError("That Conflict has ended.")
        state = found[1].conflict
        attacker = nudging(state, found[1].sheets, await caller(interaction), self.attack)
        assert state.pending is not None
        name = plain(state.name_of(attacker))
        form = nudges_form(self.conflict, self.attack, name, state.pending.nudges)
        await replies.send_modal(interaction, form)


def spent(values: dict[str, str], attack_id: int) -> NudgesMove:
    """The split typed in the form for ``attack_id``, each a whole number of Nudges; a wrong one
    is refused plainly."""
    counts: dict[str, int] = {}
    for key, label in SPENDS:
        text = values.get(key, "").strip() or "0"
        if not text.isdecimal():
            raise BotError(f"{label.split(' (')[0]}: give a whole number of Nudges, not “{plain(text)}”.")
        counts[key] = int(text)
    chosen = values.get(BURDEN, "").strip()
    burden = Severity(chosen) if chosen in (Severity.GRAVE, Severity.MORTAL) else None
    return NudgesMove(
        damage=counts["damage"],
        remove=counts["remove"],
        next_round=counts["next_round"],
        story=counts["story"],
        defeat_burden=burden,
        attack_id=attack_id,
    )


async def on_nudges_sent(interaction: Interaction, sent: SentForm) -> None:
    """A sent Nudges form: spent for its attack as ``/nudges`` spends them."""
    move = spent(sent.values, int(sent.found["attack"]))
    await run(interaction, move, title="Nudges", conflict_id=int(sent.found["conflict"]))
