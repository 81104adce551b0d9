"""Delivering a move's reply: the answer to the interaction, the outbox told how it went, the board
refreshed. (A move ending a Conflict in its own thread queued the thread's closing with it: the
outbox posts it once the reply is marked, ``bot.workers.outbox``.)

The reply to the person who moved *is* the move's outcome, as fast as the move is saved; its
outbox row is then marked delivered with the message Discord made. If Discord cannot take the
reply (the 3 seconds passed, the interaction expired, an error), the row goes to the outbox's
deliverer, which posts it to the channel instead (``bot.workers.outbox`` says why it is never
shown twice).

The interaction also says what the bot may do in the Conflict's channel (``app_permissions``):
where it lost access, the board and the queued messages wait, untried, and the table is told
once why (``bot.workers.refusals``); once it may post again, they catch up with this move.
"""

import logging

import aiohttp
import discord

from bot import replies
from bot.client import Interaction
from bot.cogs.conflict import narrator_prompt
from bot.cogs.conflict.answers import Reply
from bot.cogs.conflict.move import Move
from bot.cogs.conflict.service import ConflictFlow
from bot.cogs.conflict.threads import fights_in_threads
from bot.crash import crash_point
from bot.errors import BotError
from bot.workers.refusals import CANNOT_POST
from storage.conflicts import NO_CONFLICT
from storage.errors import NotFoundError

log = logging.getLogger(__name__)


async def send(interaction: Interaction, reply: Reply) -> None:
    """Answer the interaction with the reply (its prompt's buttons and ping), then refresh the
    board; when the answer fails, the outbox posts the reply to the channel instead.

    First, with no pause since the move was saved, the workers hear of it: its outbox rows are
    this process's to answer (the deliverer leaves them be meanwhile), and a defence prompt it
    asks starts the player's moment before a Narrator may answer for them (docs/rulings.md
    §4.20, ``bot.workers.grace``). The move itself knows nothing of either."""
    flow = interaction.client.conflicts
    flow.outbox.replying(reply.applied.messages if reply.applied is not None else ())
    if reply.prompt is not None and reply.prompt.defend_with:
        flow.grace.prompted(reply.guild_id, reply.channel_id, reply.prompt.attack_id)
    row = reply.outcome
    try:
        message_id = await answer(interaction, reply)
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
        if replies.answered_elsewhere(error):
            log.info("Interaction %s was answered elsewhere; the channel gets the reply", interaction.id)
        else:
            log.warning(
                "Could not answer interaction %s; the channel gets the reply: %s", interaction.id, error
            )
        if row is not None:
            refused = isinstance(error, discord.HTTPException) and error.status < 500
            flow.outbox.unanswered(row, refused=refused)
    else:
        crash_point("after-reply")
        if row is not None and message_id is not None:
            flow.outbox.answered(row, message_id)
        elif row is not None:
            flow.outbox.unanswered(row, refused=False)
        if reply.private_embeds:
            await replies.send(interaction, embeds=reply.private_embeds, ephemeral=True)
    if not await may_post_here(interaction, reply.guild_id, reply.channel_id):
        await tell_cannot_post(interaction, reply.guild_id, reply.channel_id)
    flow.boards.refresh(reply.guild_id, reply.channel_id, reply.applied)
    narrator_prompt.note(interaction, reply)
    await narrator_prompt.offer(interaction, reply)  # a hidden character's dice, to its Narrator


THREADS = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread})


async def may_post_here(interaction: Interaction, guild_id: int, channel_id: int) -> bool:
    """Whether the bot may post in the Conflict's channel, by what the interaction says of it
    (when asked there); what the channel is owed is posted once it may again."""
    flow = interaction.client.conflicts
    if interaction.channel_id == channel_id:
        thread = getattr(interaction.channel, "type", None) in THREADS
        if await flow.refusals.seen(guild_id, channel_id, interaction.app_permissions, thread=thread):
            flow.outbox.wake(guild_id, channel_id)
    return not flow.refusals.blocked(guild_id, channel_id)


async def tell_cannot_post(interaction: Interaction, guild_id: int, channel_id: int) -> None:
    """Tell the table, once, why its board stands still (an interaction's answer needs no
    permission in the channel)."""
    if not interaction.client.conflicts.refusals.first_telling(guild_id, channel_id):
        return
    try:
        await replies.send(interaction, CANNOT_POST)
    except discord.HTTPException as error:
        log.warning("Could not tell channel %s that the bot may not post there: %s", channel_id, error)


async def answer(interaction: Interaction, reply: Reply) -> int | None:
    """Send the reply as the interaction's answer; return the id of the message that shows it."""
    clicked = interaction.message
    on_card = clicked is not None and clicked.flags.components_v2
    from_prompt = interaction.type is discord.InteractionType.component or clicked is not None
    if from_prompt and not on_card:
        # A prompt button (or a form one opened): the prompt loses its buttons, the outcome
        # follows as a new message.
        # A button on the board card stays: the board is redrawn with the move (a layout message
        # cannot lose all its components either).
        await replies.edit(interaction, view=None)
    return await replies.send(
        interaction,
        reply.content or None,
        embeds=reply.embeds,
        allowed_mentions=reply.mentions,
        view=reply.view,
    )


async def run(interaction: Interaction, move: Move, *, title: str, conflict_id: int | None = None) -> Reply:
    """One move from a command, a button or a form: apply it, then send what the table must see."""
    client = interaction.client
    try:
        reply = await ConflictFlow(client.conflicts).run(
            interaction, move, rng=client.rng, title=title, conflict_id=conflict_id
        )
    except NotFoundError as error:
        if str(error) == NO_CONFLICT and (where := await fights_in_threads(interaction)):
            raise BotError(where) from None
        raise
    await send(interaction, reply)
    return reply
