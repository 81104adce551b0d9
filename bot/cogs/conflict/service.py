"""One Conflict move, start to finish: who asks, the transaction, and what the table must see.

Slash commands and prompt buttons both come through :meth:`ConflictFlow.run`, which reads in the
order a move happens: who asks, load, the engine command the move value builds from the fresh
state (the permission check runs there too, ``bot.cogs.conflict.move``), apply, compose, write
once, hand the messages to the outbox; the optimistic attempt and the careful redo are its one
loop (the steps: ``bot.cogs.conflict.transaction``). It composes the :class:`Reply` — the outcome,
the prompt for whoever must answer next (a defence, Nudges, or a turn to declare or act, with a
ping for that player only, once per turn: docs/rulings.md §4.21; asked in ``bot.cogs.conflict.questions``)
and which buttons it offers.
The reply is composed *inside* the transaction and queued in the outbox with the state it shows
(``storage.outbox``), so a move the table cannot see is never saved. Sending it is the caller's
last step (the cog's delivery, ``bot.cogs.conflict.delivery``, which also tells the outbox that
the move's rows are being answered and starts a defence prompt's grace: neither is the move's
business; the buttons are drawn here, ``bot.cogs.conflict.prompt_buttons``, and the cog answers
their clicks); ``bot.workers.outbox`` explains how the reply and the outbox between them show
every outcome exactly once.

A move reads the Conflict and its sheets once and renders the reply and the board from what it
holds: nothing is read again after the commit.

The reply is public, so it shows the Narrator's secret Villains and Extras as names and plain
states (``bot.secrecy.visibility_of``, docs/rulings.md §7.1); when a Narrator made the move and
that hid something, the reply also carries the full figures for them alone (privately, so not
through the outbox: after a crash the Narrator reads them with "Narrator view").
"""

import random
from dataclasses import replace

import discord
from pydantic import ValidationError

from bot.access import Caller, keep_caller
from bot.cogs.conflict.answers import (
    Question,
    Reply,
    asked_before,
    closing_summary,
    message,
    own_thread_parent,
)
from bot.cogs.conflict.move import Move
from bot.cogs.conflict.prompt_buttons import prompt_components, with_undo
from bot.cogs.conflict.questions import question, turn_changed
from bot.cogs.conflict.transaction import (
    ATTEMPTS,
    STALE,
    Fresh,
    apply_command,
    attempt,
    create_conflict,
    load,
    write_once,
)
from bot.cogs.conflict.turns import hero_news, tie_note
from bot.crash import crash_point
from bot.errors import invalid_option
from bot.reach import origin_of
from bot.records import conflict_rolls
from bot.render.common import INFO
from bot.render.conflict import FULL, Visibility, events_embed, summary_embed
from bot.secrecy import visibility_of
from bot.served import channel_id_of, guild_id_of
from bot.workers.conflicts import ConflictWorkers
from bot.workers.outbox import close_row
from rules.character import Character
from rules.conflict import Command, ConflictType, new_conflict
from rules.conflict.events import ConflictEnded, Joined
from rules.errors import RulesError
from storage import MessageKind, NewMessage
from storage.conflict_moves import Applied


def engine_command(move: Move, fresh: Fresh, asking: Caller) -> Command:
    """The move's engine command on the state just loaded. Choices are enforced by Discord's
    client only, so a raw payload can reach a command's model: its refusal is the user's error."""
    try:
        return move.command(fresh.state, fresh.sheets, asking)
    except ValidationError as error:
        raise RulesError(invalid_option(error)) from None


def outcome_rows(reply: Reply, interaction_id: int | None, parent: int | None = None) -> list[NewMessage]:
    """What a move queues in the outbox: its reply (answering ``interaction_id``, if any) and,
    when it ended a Conflict fought in a thread the bot made in channel ``parent``, the thread's
    closing (the summary there, the thread archived)."""
    rows = [message(MessageKind.OUTCOME, reply, interaction_id)]
    events = reply.applied.events if reply.applied is not None else ()
    if parent is not None and any(isinstance(e, ConflictEnded) for e in events):
        rows.append(close_row(parent, closing_summary(reply.channel_id, reply)))
    return rows


class ConflictFlow:
    """Runs Conflict moves for every channel, over the workers that show them (``client.conflicts``)."""

    def __init__(self, workers: ConflictWorkers) -> None:
        self.storage = workers.storage

    async def run(
        self,
        interaction: discord.Interaction[discord.Client],
        move: Move,
        *,
        rng: random.Random,
        title: str,
        conflict_id: int | None = None,
    ) -> Reply:
        """One move, in the order it happens: who asks → load → the engine command → apply →
        compose → write once → the messages handed to the outbox.

        The first attempt is optimistic: it reads the last committed state and its one write
        checks that nothing changed meanwhile; when something did, nothing of it is kept and the
        careful attempt does it all again inside one transaction (``bot.cogs.conflict.transaction``).
        ``rng`` throws any dice the move needs (the client's, injected so rolls replay in tests).
        """
        crash_point("move-received")
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        said, parent = origin_of(interaction), own_thread_parent(interaction)
        # ONE read: the Conflict, its sheets, and the server's settings that say who is asking.
        found = await self.storage.conflicts.for_move(guild_id, channel_id)
        asking = keep_caller(interaction, found.settings)
        for careful in ATTEMPTS:
            async with attempt(self.storage, careful) as repos:
                fresh = await load(
                    repos,
                    guild_id,
                    channel_id,
                    careful=careful,
                    interaction_id=interaction.id,
                    conflict_id=conflict_id,
                    read=None if careful else (found.stored, found.sheets),
                )
                command = engine_command(move, fresh, asking)
                prepared = await apply_command(repos, guild_id, fresh, command, rng)
                reply = await self.compose(
                    guild_id, channel_id, prepared.applied, title=title, narrator=asking.narrator, undo=True
                )
                try:
                    applied = await write_once(
                        repos,
                        prepared,
                        messages=outcome_rows(reply, interaction.id, parent),
                        rolls=conflict_rolls(guild_id, prepared.applied, said),
                        interaction_id=None if careful else interaction.id,
                        said=said,
                        mover=asking.user_id,
                        what=title,
                    )
                    break
                except STALE:  # another move, or a sheet's edit, came in between: redo it after them
                    if careful:
                        raise
        return self.saved(reply, applied)

    async def start(
        self,
        interaction: discord.Interaction[discord.Client],
        conflict_type: ConflictType,
        stakes: str,
        *,
        thread_id: int | None = None,
        auto_rounds: bool = False,
    ) -> Reply:
        """Start a Conflict in the interaction's channel, its first message queued with it;
        ``thread_id``: in that thread of the channel instead, where no interaction is answered;
        ``auto_rounds``: each next round opens by itself (docs/rulings.md §4.17)."""
        guild_id, channel_id = guild_id_of(interaction), thread_id or channel_id_of(interaction)
        answered = None if thread_id else interaction.id
        async with self.storage.transaction() as tx:
            opened = new_conflict(channel_id, conflict_type, stakes, auto_rounds=auto_rounds)
            begun = await create_conflict(tx, guild_id, opened, said=origin_of(interaction))
            reply = await self.compose(guild_id, channel_id, begun, title="A Conflict begins")
            rows = await tx.outbox.add(guild_id, channel_id, begun.conflict_id, outcome_rows(reply, answered))
        return self.saved(reply, begun.model_copy(update={"messages": rows}))

    def saved(self, reply: Reply, applied: Applied) -> Reply:
        """The reply with its saved move (its outbox rows, which the delivery answers next)."""
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
        self,
        guild_id: int,
        channel_id: int,
        applied: Applied,
        *,
        title: str,
        narrator: bool = False,
        undo: bool = False,
    ) -> Reply:
        """The outcome, the closing summary if the Conflict ended, and the next prompt, as the
        table may see them; ``narrator``: the mover also gets what that hid; ``undo``: the mover
        may take the move back (docs/rulings.md §4.24), so the reply carries **Undo** unless the
        move ended the Conflict.

        The reply is made once, from its parts, rather than made and then copied with each part
        added: a move makes it inside its transaction, before it is written and answered, where
        every copy was paid for by the answer's latency."""
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
            if full != embeds:
                shown = [full[0].set_footer(text="The full figures, for the Narrator only."), *full[1:]]
            joined = {e.participant for e in applied.events if isinstance(e, Joined)}
            note = tie_note(conflict, joined)
            if note:  # the Narrator's alone (docs/rulings.md §4.2, §7.1)
                shown.append(discord.Embed(title="Declaration ties", description=note, colour=INFO))
            return shown

        # Each line mentions only the player it concerns: a Burden's player is not told it is
        # the next player's turn, nor the next player of the Burden (docs/rulings.md §4.21).
        news = hero_news(applied.events, conflict, sheets)
        lines = [f"<@{n.user}> {n.text}" for n in news]
        ping = tuple(n.user for n in news)
        asked = self._asked(applied, sheets, view)
        prompt, components = None, []
        if asked is not None:
            lines.append(asked.content)
            ping = tuple(dict.fromkeys((*ping, *asked.ping)))
            prompt, components = asked.prompt, prompt_components(asked.prompt)
        if undo and applied.stored is not None:
            components = with_undo(components, applied.stored.id, applied.stored.version)
        return Reply(
            guild_id=guild_id,
            channel_id=channel_id,
            embeds=embeds,
            content="\n".join(lines),
            ping=ping,
            prompt=prompt,
            applied=applied,
            components=components,
            private=private if narrator else None,
        )

    @staticmethod
    def _asked(applied: Applied, sheets: dict[int, Character], view: Visibility) -> Question | None:
        """The question the move leaves waiting, unless it was asked already: the same one
        waiting before the move, and the move changed nothing it offers (docs/rulings.md §4.21)."""
        if applied.stored is None:
            return None
        conflict = applied.conflict
        asked = question(applied.stored.id, conflict, sheets, view)
        if asked is None:
            return None
        answering = conflict.pending.target if conflict.pending is not None else None
        if asked_before(asked, applied.before) and not turn_changed(asked, applied.events, answering):
            return None
        return asked
