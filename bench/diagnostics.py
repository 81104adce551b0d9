"""The diagnostic commands the bench's bot adds (``bench.common.BenchBot``), each what one part of
an interaction costs by itself, beside the product's commands in the dispatch bench:

* ``/ping``: the floor, a bare "pong" through the same gateway, dispatch and REST path;
* ``/ping-embed``: a roll's card, rolling and writing nothing (what sending a card costs);
* ``/ping-logged``: a roll's durable write (the claim, the roll and its journal entry,
  committed), then a bare pong (what the guarantee that a roll is logged before its reply costs);
* ``/ping-file``: an odds chart drawn beforehand (what an upload costs);
* ``/ping-moved``: sent in a channel with a Conflict (the dispatch bench's duel), a defence
  click's storage work and nothing else, then a bare pong. That is the move's one read
  (``ConflictRepository.for_move``: the Conflict, its sheets and the server's settings) and the
  click's one write (``MoveRepository.write``): two rolls, the Conflict saved with its version
  checked and an undo record holding the document before it without its log, and the reply's
  outbox row, which claims the interaction. The document written is the one read, so the duel
  plays on as it was; a click writes journal entries only when it deals damage, this none. After
  the answer the row is marked delivered, as the click's delivery marks it. What a move costs
  above this is its own Python: the engine command, the rules, composing the reply, and the glue
  between them and storage (docs/benchmarks.md, "One interaction through the real dispatch").
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.records import roll_entry, roll_record
from bot.render.cards import card_view
from bot.render.charts import roll_chart
from bot.render.dice import reading_card
from rules.odds import odds
from rules.roll import read
from storage import MessageKind, NewMessage
from storage.conflict_documents import load_stored
from storage.conflict_undo import UndoRecord, kept_without_log
from storage.moves import MoveWrite
from storage.places import Origin
from storage.sql import utc_now


@app_commands.command(name="ping", description="Benchmark floor: answer pong, nothing else")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong")


_READING = read((3, 3, 6, 1, 5))


@app_commands.command(
    name="ping-embed", description="Diagnostic: pong as a roll's card, no dice, no database"
)
async def ping_embed(interaction: discord.Interaction) -> None:
    """What answering with a roll's reply costs by itself (its card, as ``/roll`` sends it now),
    without its work."""
    card = reading_card(_READING, title="5 dice", roller="player1")
    await interaction.response.send_message(view=card_view(card))


@app_commands.command(
    name="ping-logged", description="Diagnostic: pong after logging a roll durably, no dice, no card"
)
async def ping_logged(interaction: discord.Interaction) -> None:
    """What the durable roll log costs by itself: the write a ``/roll`` makes before it answers
    (the claim, the roll and its journal entry, committed), then a bare pong."""
    await log_a_roll(interaction)
    await interaction.response.send_message("pong")


async def log_a_roll(interaction: discord.Interaction[Any]) -> None:
    """The durable write a ``/roll`` makes before it answers: the interaction's claim, a roll and
    its journal entry, committed (``RollLog.append_once``)."""
    storage = interaction.client.storage
    guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
    origin = Origin(channel_id=channel_id, actor_id=interaction.user.id)
    record = roll_record(guild_id, interaction.user.id, _READING, "5 dice", origin=origin)
    user = interaction.user.id
    told = [roll_entry(record.at, user, "player1", "5 dice", _READING, secret=False, character_id=None)]
    await storage.rolls.append_once(record, interaction.id, (origin, told))


_CHART = roll_chart(odds(5, 3)).png()


@app_commands.command(
    name="ping-file", description="Diagnostic: pong with an odds chart attached, drawn beforehand"
)
async def ping_file(interaction: discord.Interaction) -> None:
    """What sending a file costs by itself on this path: discord.py's multipart upload and the fake
    Discord parsing it (aiohttp), without the odds, the drawing or the worker thread."""
    chart = discord.File(io.BytesIO(_CHART), filename="odds.png")
    await interaction.response.send_message("pong", file=chart)


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
    whole = UndoRecord(
        conflict_id=stored.id,
        version=stored.version + 1,
        mover_id=user_id,
        made_at=utc_now(),
        what="Defence",
        document=stored.document,
        sheets=(),
    )
    undo = kept_without_log(whole, state, state)
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
