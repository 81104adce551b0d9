"""``/ping-moved``: what a Conflict move's read and write cost, without its rules or its reply.

A diagnostic beside ``/ping-logged`` (``bench.common``), added to the bench's bot only. Sent in a
channel with a Conflict (the dispatch bench's duel), it makes a defence click's storage work and
nothing else:

* the move's one read (``ConflictRepository.for_move``: the Conflict, its sheets and the
  server's settings);
* the click's one write (``MoveRepository.write``): two rolls, the Conflict saved with its
  version checked and an undo record holding the document before it without its log, and the
  reply's outbox row, which claims the interaction. The document written is the one read, so the
  duel plays on as it was; a click writes journal entries only when it deals damage, this none;
* a bare "pong" as the answer (a click's own answer only takes the prompt's buttons away), and,
  after it, the row marked delivered as the click's delivery marks it.

What a move costs above this is its own Python: the engine command, the rules, composing the
reply, and the glue between them and storage (docs/benchmarks.md, "One interaction through the
real dispatch").
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.records import roll_record
from rules.conflict import without_log
from rules.roll import read
from storage import MessageKind, NewMessage
from storage.conflict_documents import load_stored
from storage.conflict_undo import UndoRecord
from storage.moves import MoveWrite
from storage.places import Origin
from storage.sql import utc_now

_READING = read((3, 3, 6, 1, 5))


@app_commands.command(
    name="ping-moved", description="Diagnostic: pong after a Conflict move's read and write, no rules"
)
async def ping_moved(interaction: discord.Interaction) -> None:
    client: Any = interaction.client  # the bench's bot: its storage
    storage = client.storage
    guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
    user_id = interaction.user.id
    found = await storage.conflicts.for_move(guild_id, channel_id)
    stored = found.stored
    if stored is None:
        raise RuntimeError("/ping-moved is sent where a Conflict runs (the bench's duel)")
    origin = Origin(channel_id=channel_id, actor_id=user_id)
    rolls = tuple(roll_record(guild_id, user_id, _READING, "5 dice", origin=origin) for _ in range(2))
    state = load_stored(stored)
    cut = without_log(stored.document, state, state)
    undo = UndoRecord(
        conflict_id=stored.id,
        version=stored.version + 1,
        mover_id=user_id,
        made_at=utc_now(),
        what="Defence",
        document=cut or stored.document,
        sheets=(),
        log_kept=None if cut is None else len(state.log),
    )
    answer = NewMessage(kind=MessageKind.OUTCOME, payload={"content": "pong"}, interaction_id=interaction.id)
    written = await storage.moves.write(
        MoveWrite(
            guild_id=guild_id,
            channel_id=channel_id,
            stored=stored,
            document=stored.document,
            participants=list(found.sheets),
            sheets=(),
            participants_changed=False,
            rolls=rolls,
            messages=(answer,),
            interaction_id=interaction.id,
            said=origin,
            undo=undo,
        )
    )
    response = await interaction.response.send_message("pong")
    if response is not None and response.message_id is not None:
        await storage.outbox.delivered(written.messages[0].id, response.message_id)
