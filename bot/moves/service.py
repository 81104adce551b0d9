"""One Conflict move, start to finish: who asks, the transaction, and what the table must see.

Slash commands and prompt buttons both come through :meth:`ConflictFlow.run`: it decides who is
asking, applies one engine command inside one transaction (``run_transition``; the permission
check runs there too, against the fresh state) and composes the :class:`Reply` — the outcome,
the prompt for whoever must answer next (a defence, Nudges, or a turn to declare or act, with a
ping for that player only, once per turn: docs/rulings.md §4.21; asked in ``bot.moves.questions``)
and which buttons it offers. The defence grace a Narrator waits out is ``bot.moves.grace``.
The reply is composed *inside* the transaction and queued in the outbox with the state it shows
(``storage.outbox``), so a move the table cannot see is never saved. Sending it is the caller's
last step (the cog's delivery; the buttons are drawn here, ``bot.moves.buttons``, and the cog
answers their clicks); ``bot.workers.outbox`` explains how the reply and the outbox between
them show every outcome exactly once.

A move reads the Conflict and its sheets once and renders the reply and the board from what it
holds: nothing is read again after the commit.

The reply is public, so it shows the Narrator's secret Villains and Extras as names and plain
states (``bot.access.visibility_of``, docs/rulings.md §7.1); when a Narrator made the move and
that hid something, the reply also carries the full figures for them alone (privately, so not
through the outbox: after a crash the Narrator reads them with "Narrator view").
"""

import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace

import discord
from pydantic import ValidationError

from bot.access import Caller, caller_from, channel_id_of, guild_id_of, visibility_of
from bot.crash import crash_point
from bot.moves.answers import Reply, asked_before, closing_summary, message, own_thread_parent
from bot.moves.buttons import prompt_view
from bot.moves.grace import DefenceGrace
from bot.moves.questions import asked_again, board_buttons, question, turn_changed
from bot.moves.transaction import run_transition, start_conflict
from bot.moves.turns import hero_news, tie_note
from bot.reach import origin_of
from bot.render.common import INFO
from bot.render.conflict import FULL, Visibility, events_embed, summary_embed
from bot.rolling.roll_log import conflict_rolls
from bot.workers.board import Boards
from bot.workers.outbox import Outbox, close_row
from bot.workers.pacing import Pacer
from bot.workers.refusals import Refusals
from bot.workers.threads import Threads
from rules.character import Character
from rules.conflict import Command, Conflict, ConflictType
from rules.conflict.events import ConflictEnded, Joined
from rules.errors import RulesError
from storage import MessageKind, NewMessage, Storage
from storage.conflict_moves import Applied

Sheets = Mapping[int, Character]
Build = Callable[[Conflict, Sheets, Caller], Command]


def invalid_option(error: ValidationError) -> str:
    """One plain sentence for an option value the engine's command model refused."""
    problems = error.errors(include_url=False, include_input=False)
    where = ".".join(str(step) for step in problems[0]["loc"]) if problems else "an option"
    detail = problems[0]["msg"] if problems else "not valid"
    return f"That is not a valid value for {where}: {detail}."


class ConflictFlow:
    """Runs Conflict moves for every channel; owns the boards, the outbox and the defence timers."""

    asked_again = staticmethod(asked_again)
    """The pending question posted anew, for the catch-up (``bot.workers.catchup``), below the moves."""

    def __init__(self, client: discord.Client, storage: Storage, pacer: Pacer | None = None) -> None:
        self.storage = storage
        pacer = pacer if pacer is not None else Pacer()
        threads = Threads(client, pacer)
        self.refusals = Refusals(storage)
        self.boards = Boards(client, storage, pacer, threads, self.refusals)
        self.boards.buttons = board_buttons
        self.outbox = Outbox(client, storage, pacer, threads, self.refusals)
        self.outbox.closing = self.boards.ended
        self.grace = DefenceGrace(storage)

    async def run(
        self,
        interaction: discord.Interaction[discord.Client],
        build: Build,
        *,
        rng: random.Random,
        title: str,
        conflict_id: int | None = None,
    ) -> Reply:
        """Apply the command ``build`` makes from the fresh state, and compose the reply.

        ``rng`` throws any dice the move needs (the client's, injected so rolls replay in tests).
        """
        crash_point("move-received")
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        # ONE read: the Conflict, its sheets, and the server's settings that say who is asking.
        found = await self.storage.conflicts.for_move(guild_id, channel_id)
        asking = caller_from(interaction, found.settings)

        def make(state: Conflict, sheets: Sheets) -> Command:
            try:
                return build(state, sheets, asking)
            except ValidationError as error:
                # Choices are enforced by Discord's client only; a raw payload reaches the model.
                raise RulesError(invalid_option(error)) from None

        replies: list[Reply] = []
        said = origin_of(interaction)
        parent = own_thread_parent(interaction)
        compose = self._composer(
            guild_id, channel_id, title, interaction.id, replies, asking.narrator, parent=parent
        )
        applied = await run_transition(
            self.storage,
            guild_id,
            channel_id,
            make,
            rng=rng,
            conflict_id=conflict_id,
            compose=compose,
            interaction_id=interaction.id,
            rolls=lambda applied: conflict_rolls(guild_id, applied, said),
            said=said,
            loaded=(found.stored, found.sheets),
        )
        return self._saved(replies[-1], applied)

    async def start(
        self,
        interaction: discord.Interaction[discord.Client],
        conflict_type: ConflictType,
        stakes: str,
        *,
        thread_id: int | None = None,
    ) -> Reply:
        """Start a Conflict in the interaction's channel, its first message queued with it;
        ``thread_id``: in that thread of the channel instead, where no interaction is answered."""
        guild_id, channel_id = guild_id_of(interaction), thread_id or channel_id_of(interaction)
        replies: list[Reply] = []
        answered = None if thread_id else interaction.id
        compose = self._composer(guild_id, channel_id, "A Conflict begins", answered, replies, False)
        applied = await start_conflict(
            self.storage,
            guild_id,
            channel_id,
            conflict_type,
            stakes,
            compose=compose,
            said=origin_of(interaction),
        )
        return self._saved(replies[-1], applied)

    def _composer(
        self,
        guild_id: int,
        channel_id: int,
        title: str,
        interaction_id: int | None,
        replies: list[Reply],
        narrator: bool,
        *,
        parent: int | None = None,
    ) -> Callable[[Applied], Awaitable[list[NewMessage]]]:
        """``narrator``: the mover is a Narrator (the reply keeps what the table's view hid for
        them); ``parent``: the channel is a thread the bot made in that channel; a move ending its
        Conflict also queues the thread's closing (the summary there, the thread archived)."""

        async def compose(applied: Applied) -> list[NewMessage]:
            reply = await self.compose(guild_id, channel_id, applied, title=title, narrator=narrator)
            replies.append(reply)
            messages = [message(MessageKind.OUTCOME, reply, interaction_id)]
            if parent is not None and any(isinstance(e, ConflictEnded) for e in applied.events):
                messages.append(close_row(parent, closing_summary(channel_id, reply)))
            return messages

        return compose

    def _saved(self, reply: Reply, applied: Applied) -> Reply:
        """The reply with its saved move; its outbox rows are this process's to answer now."""
        self.outbox.replying(applied.messages)
        crash_point("after-commit")
        return replace(reply, applied=applied)

    def _embeds(self, applied: Applied, title: str, view: Visibility) -> list[discord.Embed]:
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
            for cid, stored in (await self.storage.characters.get_many(guild_id, gone)).items():
                sheets[cid] = stored.character
                revealed |= {cid} if stored.revealed else set()
        view = visibility_of(conflict, sheets, revealed)
        embeds = self._embeds(applied, title, view)

        def private() -> list[discord.Embed]:
            shown: list[discord.Embed] = []
            full = self._embeds(applied, title, FULL)
            if [e.to_dict() for e in full] != [e.to_dict() for e in embeds]:
                shown = [full[0].set_footer(text="The full figures, for the Narrator only."), *full[1:]]
            joined = {e.participant for e in applied.events if isinstance(e, Joined)}
            note = tie_note(conflict, joined)
            if note:  # the Narrator's alone (docs/rulings.md §4.2, §7.1)
                shown.append(discord.Embed(title="Declaration ties", description=note, colour=INFO))
            return shown

        reply = Reply(
            guild_id=guild_id,
            channel_id=channel_id,
            embeds=embeds,
            applied=applied,
            private=private if narrator else None,
        )
        # Each line mentions only the player it concerns: a Burden's player is not told it is
        # the next player's turn, nor the next player of the Burden (docs/rulings.md §4.21).
        news = hero_news(applied.events, conflict, sheets)
        told = tuple(n.user for n in news)
        lines = [f"<@{n.user}> {n.text}" for n in news]
        if news:
            reply = replace(reply, content="\n".join(lines), ping=told)
        if applied.stored is None:
            return reply
        asked = question(applied.stored.id, conflict, sheets, view)
        if asked is None or (asked_before(asked, applied.before) and not turn_changed(asked, applied.events)):
            return reply
        if asked.prompt.defend_with:
            self.grace.prompted(guild_id, channel_id, asked.prompt.attack_id)
        return replace(
            reply,
            content="\n".join([*lines, asked.content]),
            ping=tuple(dict.fromkeys((*told, *asked.ping))),
            prompt=asked.prompt,
            view=prompt_view(asked.prompt),
        )

    async def idle(self) -> None:
        """Wait until every board refresh and queued delivery has run (tests and benchmarks)."""
        await self.outbox.idle()
        await self.boards.idle()

    def close(self) -> None:
        self.boards.close()
        self.outbox.close()
