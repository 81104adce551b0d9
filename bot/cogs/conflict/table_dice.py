"""Dice rolled at the table for an action the target may resist (docs/rulings.md §7.2, §4.10).

The defence is chosen before anyone rolls, so an attacker who rolls at the table (``/act
table_dice:true``) throws once it is set: the prompt that asks them offers **Type my dice…**, a
form for the faces, and **Let the bot roll**. Both, and a typed ``/act faces:``, build the same
engine command (``bot.cogs.conflict.answer_build.ThrowClick`` and ``mover_build.ActOptions``) and
run it through the one flow; the buttons are ``DynamicItem``s and the form is sent stopped, so all
of them work after a restart.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller, table_dice
from bot.client import Interaction
from bot.cogs.conflict.answer_build import ThrowClick
from bot.cogs.conflict.delivery import run
from bot.errors import BotError, NotAllowed
from bot.forms import SentForm
from bot.inputs.faces import FACES_MAX_TEXT, parse_faces
from bot.render.buttons import THROW, THROW_FORM, throw_button
from bot.render.common import plain
from bot.served import channel_id_of, guild_id_of
from bot.workers.board_state import stored_board
from rules.conflict import Awaiting

FACES = "faces"
FORM_ID = re.compile(THROW_FORM)


def faces_form(conflict: int, attack: int, name: str, pool: int) -> discord.ui.Modal:
    """The form for the faces, sent stopped: its submission reaches :func:`on_faces_sent`."""
    modal = discord.ui.Modal(
        title=f"{name}'s {pool} dice"[:45], custom_id=f"mab:throwform:{conflict}:{attack}", timeout=None
    )
    modal.add_item(
        discord.ui.TextInput(
            custom_id=FACES,
            label=f"The {pool} faces you rolled"[:45],
            placeholder="e.g. 6 5 5 3 1",
            min_length=1,
            max_length=FACES_MAX_TEXT,
        )
    )
    modal.stop()
    return modal


class ThrowButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=THROW):
    """Type the dice rolled at the table (a form), or let the bot roll them after all."""

    def __init__(self, conflict: int, attack: int, mode: str) -> None:
        super().__init__(throw_button(conflict, attack, mode))
        self.conflict, self.attack, self.mode = conflict, attack, mode

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ThrowButton":
        return cls(int(match["conflict"]), int(match["attack"]), match["mode"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        if self.mode == "bot":
            await run(interaction, ThrowClick(self.attack), title="Action", conflict_id=self.conflict)
            return
        name, pool = await self._waiting(interaction)
        await replies.send_modal(interaction, faces_form(self.conflict, self.attack, name, pool))

    async def _waiting(self, interaction: Interaction) -> tuple[str, int]:
        """The attacker whose dice this action still waits for, if the caller controls them
        (read, nothing written: the move itself judges it again on the fresh state)."""
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        state = found[1].conflict if found is not None and found[0].id == self.conflict else None
        pending = state.pending if state is not None else None
        if (
            state is None
            or pending is None
            or pending.awaiting is not Awaiting.ROLL
            or pending.id != self.attack
        ):
            raise BotError("Those dice were already given: the action is settled.")
        attacker = state.participant(pending.attacker)
        assert found is not None
        if not (await caller(interaction)).controls_participant(attacker, found[1].sheets.get(attacker.id)):
            raise NotAllowed(f"Only {plain(attacker.name)}'s player or a Narrator can give these dice.")
        return attacker.name, pending.pool


async def on_faces_sent(interaction: Interaction, sent: SentForm) -> None:
    """A sent form of faces: parsed, checked and thrown as the typed ``/act faces:`` is."""
    faces = parse_faces(sent.values.get(FACES, ""))
    move = ThrowClick(int(sent.found["attack"]), faces, await table_dice(interaction))
    await run(interaction, move, title="Action", conflict_id=int(sent.found["conflict"]))
