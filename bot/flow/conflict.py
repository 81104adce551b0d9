"""One Conflict move, start to finish: who asks, the transaction, and what the table must see.

Slash commands and prompt buttons both come through :meth:`ConflictFlow.run`: it decides who is
asking, applies one engine command inside one transaction (``run_transition``; the permission
check runs there too, against the fresh state) and composes the :class:`Reply` — the outcome,
the prompt for whoever must answer next (a defence or Nudges, with a ping for that player
only) and which buttons it offers. Sending it is the caller's last step (the cog layer, which
owns the buttons), so this module never needs to know how a button is built.

The reply is public, so it shows the Narrator's secret Villains and Extras as names and plain
states (``bot.access.conflict_view``, docs/rulings.md §7.1); when a Narrator made the move and
that hid something, the reply also carries the full figures for them alone.
"""

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import discord
from pydantic import ValidationError

from bot.access import Caller, caller_of, channel_id_of, conflict_view, guild_id_of
from bot.errors import BotError
from bot.flow.board import Boards
from bot.render.common import plain
from bot.render.conflict import FULL, ConflictView, defence_prompt, events_embed, summary_embed
from rules.character import Character
from rules.conflict import Awaiting, Command, Conflict, available_defence, beat_possible
from rules.conflict.events import ConflictEnded
from rules.errors import RulesError
from storage import Storage
from storage.conflict_runner import Applied, load_sheets, run_transition

Interaction = discord.Interaction[discord.Client]
Sheets = Mapping[int, Character]
Build = Callable[[Conflict, Sheets, Caller], Command]

DEFEND_GRACE = 30.0
"""Seconds a player gets to answer a defence before a Narrator may answer for them."""
MAX_DEFENCE = 10
NudgeMode = Literal["damage", "beat", "none"]


def invalid_option(error: ValidationError) -> str:
    """One plain sentence for an option value the engine's command model refused."""
    problems = error.errors(include_url=False, include_input=False)
    where = ".".join(str(step) for step in problems[0]["loc"]) if problems else "an option"
    detail = problems[0]["msg"] if problems else "not valid"
    return f"That is not a valid value for {where}: {detail}."


@dataclass(frozen=True)
class Prompt:
    """The buttons of the question to whoever must answer the pending action.

    ``conflict_id`` is the stored Conflict's id and ``attack_id`` the action's: a button names
    both, so it can only ever settle that action, even after a restart or in a new Conflict.
    """

    conflict_id: int
    attack_id: int
    defend_with: tuple[int, ...] = ()
    """Defence choices in dice (0 = don't defend) when the target must answer."""
    nudge_modes: tuple[NudgeMode, ...] = ()
    """Spending choices when the attacker has Nudges to spend."""
    narrator_view: bool = False
    """Offer the board's "Narrator view": the target's dice are not shown to the table."""


@dataclass(frozen=True)
class Reply:
    """What one move shows: the outcome, the question to the next player, and whom to ping."""

    guild_id: int
    channel_id: int
    embeds: list[discord.Embed]
    content: str = ""
    ping: tuple[int, ...] = ()
    prompt: Prompt | None = None
    applied: Applied | None = field(default=None, compare=False)
    private_embeds: list[discord.Embed] = field(default_factory=list, compare=False)
    """The full figures the public embeds hid, for the Narrator who made the move only."""


class ConflictFlow:
    """Runs Conflict moves for every channel; owns the status boards and the defence timers."""

    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self.storage = storage
        self.boards = Boards(client, storage)
        self.defend_grace = DEFEND_GRACE
        self._prompted: dict[tuple[int, int, int], float] = {}

    async def run(
        self,
        interaction: Interaction,
        build: Build,
        *,
        rng: random.Random,
        title: str,
        conflict_id: int | None = None,
    ) -> Reply:
        """Apply the command ``build`` makes from the fresh state, and compose the reply.

        ``rng`` throws any dice the move needs (the client's, injected so rolls replay in tests).
        """
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        caller = await caller_of(interaction, self.storage)

        def make(state: Conflict, sheets: Sheets) -> Command:
            try:
                return build(state, sheets, caller)
            except ValidationError as error:
                # Choices are enforced by Discord's client only; a raw payload reaches the model.
                raise RulesError(invalid_option(error)) from None

        applied = await run_transition(
            self.storage, guild_id, channel_id, make, rng=rng, conflict_id=conflict_id
        )
        return await self.compose(guild_id, channel_id, applied, title=title, narrator=caller.narrator)

    def _embeds(self, applied: Applied, title: str, view: ConflictView) -> list[discord.Embed]:
        conflict = applied.conflict
        ended = [e for e in applied.events if isinstance(e, ConflictEnded)]
        # Discord allows 6000 characters across a message's embeds: share them out.
        limit = 2500 if ended else 6000
        embeds = [events_embed(conflict, applied.events, title=title, limit=limit, view=view)]
        return embeds + [summary_embed(e, limit=3500, view=view) for e in ended[:1]]

    async def compose(
        self, guild_id: int, channel_id: int, applied: Applied, *, title: str, narrator: bool = False
    ) -> Reply:
        """The outcome, the closing summary if the Conflict ended, and the next prompt, as the
        table may see them; ``narrator``: the mover also gets what that hid."""
        conflict = applied.conflict
        sheets = dict(applied.characters)
        revealed = set(applied.revealed)
        gone = {
            line.participant
            for e in applied.events
            if isinstance(e, ConflictEnded)
            for line in e.summary
            if line.participant is not None and line.participant not in sheets
        }
        if gone:  # who left before the end shows by their sheet (docs/rulings.md §7.1)
            for cid, stored in (await load_sheets(self.storage, guild_id, gone)).items():
                sheets[cid] = stored.character
                revealed |= {cid} if stored.revealed else set()
        view = conflict_view(conflict, sheets, revealed)
        embeds = self._embeds(applied, title, view)
        private: list[discord.Embed] = []
        if narrator:
            full = self._embeds(applied, title, FULL)
            if [e.to_dict() for e in full] != [e.to_dict() for e in embeds]:
                private = [full[0].set_footer(text="The full figures, for the Narrator only."), *full[1:]]
        reply = Reply(
            guild_id=guild_id, channel_id=channel_id, embeds=embeds, applied=applied, private_embeds=private
        )
        pending = conflict.pending
        if pending is None or applied.stored is None:
            return reply
        if not sheets:
            sheets = await self.sheets(guild_id, conflict)
        hidden_target = pending.target is not None and not view.shows(pending.target)
        if pending.awaiting is Awaiting.DEFENCE and pending.target is not None:
            answerer = pending.target
            text = defence_prompt(conflict, sheets, view) or ""
            # The buttons of a hidden target offer every count: their number would tell its dice.
            held = MAX_DEFENCE if hidden_target else available_defence(conflict, sheets, pending.target)
            most = min(MAX_DEFENCE, held)
            prompt = Prompt(
                applied.stored.id,
                pending.id,
                defend_with=(0, *range(2, most + 1)),
                narrator_view=hidden_target,
            )
            self._prompted[(guild_id, channel_id, pending.id)] = time.monotonic()
        else:
            answerer = pending.attacker
            name = plain(conflict.name_of(pending.attacker))
            text = (
                f"**{name}** has {pending.nudges} Nudge{'s' if pending.nudges != 1 else ''} to spend: "
                "use the buttons, or `/nudges` to split them (damage, remove dice, next round, story)."
            )
            # The Beat is offered only when it can be taken (docs/rulings.md §2.10, §4.15).
            beat: tuple[NudgeMode, ...] = ("beat",) if beat_possible(conflict, pending) else ()
            prompt = Prompt(applied.stored.id, pending.id, nudge_modes=("damage", *beat, "none"))
        sheet = sheets.get(answerer)
        ping = () if sheet is None else (sheet.owner_id,)
        content = text if sheet is None else f"<@{sheet.owner_id}> {text}"
        return Reply(
            guild_id=guild_id,
            channel_id=channel_id,
            embeds=embeds,
            content=content,
            ping=ping,
            prompt=prompt,
            applied=applied,
            private_embeds=private,
        )

    async def sheets(self, guild_id: int, conflict: Conflict) -> dict[int, Character]:
        found = await load_sheets(self.storage, guild_id, (p.id for p in conflict.participants))
        return {cid: stored.character for cid, stored in found.items()}

    def waited(self, interaction: Interaction, attack_id: int) -> float | None:
        """Seconds since this attack's defence prompt was posted, if known.

        A button knows its own message's age; for a slash command the prompt time is kept in
        memory (after a restart it is unknown, and then the wait is not enforced).
        """
        if interaction.message is not None:
            return (discord.utils.utcnow() - interaction.message.created_at).total_seconds()
        key = (guild_id_of(interaction), channel_id_of(interaction), attack_id)
        started = self._prompted.get(key)
        return None if started is None else time.monotonic() - started

    def check_grace(self, waited: float | None) -> None:
        """A Narrator answering a player's defence must first give the player a moment."""
        if waited is None:
            return
        left = self.defend_grace - waited
        if left > 0:
            raise BotError(f"Give the player a moment to choose: you can answer for them in {left:.0f} s.")

    def close(self) -> None:
        self.boards.close()
