"""One Conflict interaction, start to finish: check, apply, save, reply, prompt, refresh the board.

Slash commands and button clicks both come through :meth:`ConflictFlow.run`: it decides who is
asking, applies one engine command inside one transaction (``run_transition``; the permission
check runs there too, against the fresh state), replies with what happened, prompts whoever
must answer next (a defence or Nudges, with buttons and a ping for that player only), and
asks for the status board to be refreshed.
"""

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeAlias

import discord
from pydantic import ValidationError

from bot.checks import guild_id_of, is_narrator
from bot.cogs.conflict.access import Caller
from bot.cogs.conflict.board import Boards
from bot.cogs.conflict.buttons import prompt_view
from bot.errors import BotError
from bot.render.common import plain
from bot.render.conflict import defence_prompt, events_embed, summary_embed
from rules.character import Character
from rules.conflict import Awaiting, Command, Conflict
from rules.conflict.events import ConflictEnded
from rules.errors import RulesError
from storage.conflict_runner import Applied, run_transition
from storage.errors import StorageError

if TYPE_CHECKING:
    from bot.app import MistbornBot

Interaction: TypeAlias = "discord.Interaction[MistbornBot]"
Build = Callable[[Conflict, Mapping[int, Character], Caller], Command]

DEFEND_GRACE = 30.0
"""Seconds a player gets to answer a defence before a Narrator may answer for them."""


def invalid_option(error: ValidationError) -> str:
    """One plain sentence for an option value the engine's command model refused."""
    problems = error.errors(include_url=False, include_input=False)
    where = ".".join(str(step) for step in problems[0]["loc"]) if problems else "an option"
    detail = problems[0]["msg"] if problems else "not valid"
    return f"That is not a valid value for {where}: {detail}."


class ConflictFlow:
    def __init__(self, bot: "MistbornBot") -> None:
        self.bot = bot
        self.boards = Boards(bot)
        self.defend_grace = DEFEND_GRACE
        self._prompted: dict[tuple[int, int, int], float] = {}

    async def caller(self, interaction: Interaction) -> Caller:
        return Caller(user_id=interaction.user.id, narrator=await is_narrator(interaction))

    def channel_of(self, interaction: Interaction) -> tuple[int, int]:
        guild_id = guild_id_of(interaction)
        if interaction.channel_id is None:
            raise BotError("Conflicts run in a server channel.")
        return guild_id, interaction.channel_id

    async def run(
        self, interaction: Interaction, build: Build, *, title: str, conflict_id: int | None = None
    ) -> Applied:
        guild_id, channel_id = self.channel_of(interaction)
        caller = await self.caller(interaction)

        def make(state: Conflict, sheets: Mapping[int, Character]) -> Command:
            try:
                return build(state, sheets, caller)
            except ValidationError as error:
                # Choices are enforced by Discord's client only; a raw payload reaches the model.
                raise RulesError(invalid_option(error)) from None

        applied = await run_transition(
            self.bot.storage, guild_id, channel_id, make, rng=self.bot.rng, conflict_id=conflict_id
        )
        await self.reply(interaction, applied, title=title)
        return applied

    async def reply(self, interaction: Interaction, applied: Applied, *, title: str) -> None:
        """Show what happened, prompt whoever must answer next, and refresh the board."""
        guild_id, channel_id = self.channel_of(interaction)
        conflict = applied.conflict
        ended = [e for e in applied.events if isinstance(e, ConflictEnded)]
        # Discord allows 6000 characters across a message's embeds: share them out.
        embeds = [events_embed(conflict, applied.events, title=title, limit=2500 if ended else 6000)]
        embeds += [summary_embed(e, limit=3500) for e in ended[:1]]
        stored_id = applied.stored.id if applied.stored is not None else 0
        content, ping, view = await self._prompt(
            guild_id, channel_id, conflict, stored_id, applied.characters
        )
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=ping)
        buttons = view if view is not None else discord.utils.MISSING
        if interaction.type is discord.InteractionType.component and not interaction.response.is_done():
            # A prompt button: the prompt loses its buttons, the outcome follows as a new message.
            await interaction.response.edit_message(view=None)
        if interaction.response.is_done():
            await interaction.followup.send(
                content or discord.utils.MISSING, embeds=embeds, allowed_mentions=mentions, view=buttons
            )
        else:
            await interaction.response.send_message(
                content or None, embeds=embeds, allowed_mentions=mentions, view=buttons
            )
        self.boards.refresh(guild_id, channel_id)

    async def _prompt(
        self,
        guild_id: int,
        channel_id: int,
        conflict: Conflict,
        stored_id: int,
        known: Mapping[int, Character],
    ) -> tuple[str, list[discord.Object], discord.ui.View | None]:
        """The prompt for the pending attack, if any: text, who to ping, and its buttons."""
        pending = conflict.pending
        if pending is None:
            return "", [], None
        sheets = dict(known) if known else await self.sheets(guild_id, conflict)
        if pending.awaiting is Awaiting.DEFENCE and pending.target is not None:
            answerer = pending.target
            text = defence_prompt(conflict, sheets) or ""
            self._prompted[(guild_id, channel_id, pending.id)] = time.monotonic()
        else:
            answerer = pending.attacker
            name = plain(conflict.name_of(pending.attacker))
            text = (
                f"**{name}** has {pending.nudges} Nudge{'s' if pending.nudges != 1 else ''} to spend: "
                "use the buttons, or `/nudges` to split them (damage, remove dice, next round, story)."
            )
        sheet = sheets.get(answerer)
        ping = [discord.Object(sheet.owner_id)] if sheet is not None else []
        prefix = f"<@{sheet.owner_id}> " if sheet is not None else ""
        return prefix + text, ping, prompt_view(conflict, sheets, stored_id)

    async def sheets(self, guild_id: int, conflict: Conflict) -> dict[int, Character]:
        found: dict[int, Character] = {}
        for participant in conflict.participants:
            try:
                found[participant.id] = (
                    await self.bot.storage.characters.get(guild_id, participant.id)
                ).character
            except StorageError:
                continue
        return found

    def waited(self, interaction: Interaction, attack_id: int) -> float | None:
        """Seconds since this attack's defence prompt was posted, if known.

        A button knows its own message's age; for a slash command the prompt time is kept in
        memory (after a restart it is unknown, and then the wait is not enforced).
        """
        if interaction.message is not None:
            return (discord.utils.utcnow() - interaction.message.created_at).total_seconds()
        guild_id, channel_id = self.channel_of(interaction)
        started = self._prompted.get((guild_id, channel_id, attack_id))
        return None if started is None else time.monotonic() - started

    def check_grace(self, waited: float | None) -> None:
        """A Narrator answering a player's defence must first give the player a moment."""
        if waited is None:
            return
        left = self.defend_grace - waited
        if left > 0:
            raise BotError(f"Give the player a moment to choose: you can answer for them in {left:.0f} s.")
