"""A request's life (docs/rulings.md §6.13): asked, each roller rolls, the Narrator closes it.

Every step takes the one path: load the request → check who clicks → form the pool from the
sheet as it is now → roll → save once (the claim of the roll, the Standing spent, the roll log
and the messages the table must see, in one transaction) → answer. Outcomes reach the channel
through the outbox (``bot.workers.outbox``), so a roll saved just before a crash is still shown,
once; the request's own message is derived from what is saved and edited after each roll.
"""

import logging
from collections.abc import Callable, Collection
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.requests.views import Choice, builder_view, request_buttons, request_message, trait_slots
from bot.crash import crash_point
from bot.errors import BotError
from bot.hidden import is_hidden
from bot.inputs.pools import FormedPool, PoolRequest, form_pool
from bot.reach import origin_of
from bot.records import request_asked_entry, request_closed_entry, request_entry, roll_record, sheet_change
from bot.render.cards import Card, body_components, card_texts, card_view, custom_ids
from bot.render.common import plain
from bot.render.dice import contest_card, reading_card
from bot.render.request import contest_roll_card, pool_embed, request_card, request_content
from bot.secrecy import is_secret
from bot.served import guild_id_of
from rules.character.stats import spend_standing
from rules.contest import Side, decide
from rules.outcome import DEFAULT_DIFFICULTY
from rules.request import NewRoller, RequestKind, RequestSpec, Roller, RollRequest
from rules.roll import roll
from storage import CharacterRepository, MessageKind, NewMessage, StoredCharacter
from storage.requests import GONE
from storage.sql import utc_now

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()
JSON = dict[str, object]


def message_body(view: discord.ui.LayoutView, pings: list[int], reply_to: int | None) -> JSON:
    """A create-message body of a card as the outbox stores it (mentions limited to ``pings``)."""
    mentions = replies.pinging(pings)
    body: JSON = {
        "flags": discord.MessageFlags(components_v2=True).value,
        "components": body_components(view),
        "allowed_mentions": mentions.to_dict(),
    }
    if reply_to is not None:
        body["message_reference"] = {"message_id": str(reply_to), "fail_if_not_exists": False}
    return body


async def ask(
    interaction: Interaction, kind: RequestKind, spec: RequestSpec, rollers: list[NewRoller]
) -> RollRequest:
    """Save the request with its message in the outbox, and answer with that very message."""
    client = interaction.client
    guild_id, channel_id = guild_id_of(interaction), interaction.channel_id or 0
    async with client.storage.transaction() as tx:
        await tx.handled.claim(interaction.id)  # a replayed /request asks once
        request = await tx.requests.create(guild_id, channel_id, interaction.user.id, kind, spec, rollers)
        view = request_message(request)
        body = message_body(view, [r.user_id for r in request.rollers], None)
        message = NewMessage(kind=MessageKind.NOTICE, payload=body, interaction_id=interaction.id)
        [row] = await tx.outbox.add(guild_id, channel_id, None, [message])
        await tx.requests.shown_by(guild_id, request.id, row.id)
        await tx.journal.add(
            guild_id, origin_of(interaction), [request_asked_entry(request.created_at, request)]
        )
    outbox = client.conflicts.outbox
    outbox.replying([row])
    mentions = replies.pinging(r.user_id for r in rollers)
    try:
        message_id = await replies.send(interaction, view=view, allowed_mentions=mentions)
    except discord.HTTPException as error:
        outbox.unanswered(row, refused=error.status < 500)
    else:
        if message_id is not None:
            outbox.answered(row, message_id)
        else:
            outbox.unanswered(row, refused=False)
    return request


async def load(interaction: Interaction, request_id: int, position: int | None = None) -> RollRequest:
    request = await interaction.client.storage.requests.get(guild_id_of(interaction), request_id)
    if request is None:
        raise BotError(GONE)
    if request.closed:
        raise BotError("The Narrator has closed that request.")
    if position is not None:
        roller = request.roller(position)
        if roller is None:
            raise BotError(GONE)
        if roller.rolled:
            raise BotError(f"{plain(roller.name)} has already rolled for this request.")
    return request


async def _sheet_and_pool(
    interaction: Interaction, request: RollRequest, roller: Roller, choice: Choice
) -> tuple[StoredCharacter | None, FormedPool, list[str]]:
    """The roller's sheet as it is now (checked to be the clicker's to roll) and its pool."""
    who = await caller(interaction)
    stored = None
    if roller.character_id:
        stored = await interaction.client.storage.characters.get(
            guild_id_of(interaction), roller.character_id
        )
        who.require_control(stored.character, "roll for them")
    else:
        who.require_narrator("roll the opposing side's dice")
    spec = request.spec
    acting = roller.side is Side.ACTING
    stat = spec.stat if acting else spec.opposing_stat
    dice = None if stat is not None else spec.opposing_dice
    slots = trait_slots(stored.character if stored is not None else None)
    traits = len(choice.traits(slots))
    circumstances = spec.circumstance_dice if acting else 0  # the Narrator's, never the player's
    pool_request = PoolRequest(dice, stat, traits, choice.tool, circumstances)
    return stored, form_pool(pool_request, stored), slots


async def open_builder(interaction: Interaction, request_id: int, position: int, choice: Choice) -> None:
    """Show the roller their pool privately, with what they may add (or update it in place)."""
    request = await load(interaction, request_id, position)
    roller = request.roller(position)
    assert roller is not None
    _, formed, slots = await _sheet_and_pool(interaction, request, roller, choice)
    embed = pool_embed(roller, request, formed.pool, formed.extra)
    view = builder_view(request, position, slots, choice, formed.pool.dice)
    if (
        interaction.type is discord.InteractionType.component
        and interaction.message is not None
        and interaction.message.flags.ephemeral
    ):
        await replies.edit(interaction, embed=embed, view=view)
    else:
        await replies.send(interaction, embed=embed, view=view, ephemeral=True)


async def roll_for(interaction: Interaction, request_id: int, position: int, choice: Choice) -> None:
    """Roll the roller's pool once: claim, spend, log and queue what the table sees, together."""
    client = interaction.client
    guild_id = guild_id_of(interaction)
    request = await load(interaction, request_id, position)
    roller = request.roller(position)
    assert roller is not None
    stored, formed, _ = await _sheet_and_pool(interaction, request, roller, choice)
    difficulty = request.spec.difficulty if roller.side is Side.ACTING else DEFAULT_DIFFICULTY
    reading = roll(formed.pool, client.rng, difficulty=difficulty, extra=formed.extra)
    spent = spend_standing(stored.character, formed.spends) if stored and formed.spends else None
    settings = await client.storage.settings.get(guild_id)
    hidden_roller = is_hidden(stored)
    async with client.storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        if not await tx.requests.claim(guild_id, request_id, position, reading, interaction.user.id):
            raise BotError(f"{plain(roller.name)} has already rolled for this request, or it was closed.")
        told = []
        if spent is not None and stored is not None:
            await tx.characters.update(guild_id, stored, spent)
            told += sheet_change(utc_now(), stored, spent)
        secret = request.spec.secret or hidden_roller  # a hidden Villain's roll, as in a Conflict (§7.1)
        record = roll_record(
            guild_id, interaction.user.id, reading, formed.title, origin=origin_of(interaction), secret=secret
        )
        await tx.rolls.append(record)
        who = stored.id if stored is not None else None
        told.append(
            request_entry(
                record.at, interaction.user.id, plain(roller.name), reading, secret=secret, character_id=who
            )
        )
        await tx.journal.add(guild_id, origin_of(interaction), told)
        after = await tx.requests.get(guild_id, request_id)
        assert after is not None
        drawn = reading_card(
            reading, title=formed.title, roller="For the Narrator's request", hidden=hidden_roller
        )
        hidden = await _hidden_sides(tx.characters, after) if not request.spec.secret else set()
        shown = _shown(after, drawn, hidden)
        target = settings.gm_channel_id if request.spec.secret else request.channel_id
        if shown and target:
            reply_to = None if request.spec.secret else request.message_id
            body = message_body(card_view(*shown), [], reply_to)
            await tx.outbox.add(guild_id, target, None, [NewMessage(kind=MessageKind.NOTICE, payload=body)])
    if shown and target:
        client.conflicts.outbox.wake(guild_id, target)
    if request.kind is RequestKind.CONTEST:
        private = contest_roll_card(reading, title=formed.title, roller=roller)
    else:
        private = reading_card(reading, title=formed.title, roller=roller.name)
    await replies.edit(interaction, view=card_view(private))
    crash_point("request-rolled")
    await refresh(interaction, after)


def _shown(request: RollRequest, drawn: Card, hidden: Collection[Side] = ()) -> list[Card]:
    """What a roll makes public: the roll itself for a roll request; for a Contest, nothing until
    every roller has rolled, then the Contest decided from the stored readings (the ``hidden``
    sides showing their names and dice only)."""
    if request.kind is RequestKind.ROLL:
        return [drawn]
    if not request.complete:
        return []
    acting, opposing = request.side(Side.ACTING), request.side(Side.OPPOSING)
    result = decide([r.reading for r in acting if r.reading], [r.reading for r in opposing if r.reading])
    many = (len(acting) > 1, len(opposing) > 1)
    return [contest_card(result, acting=_names(acting), opposing=_names(opposing), hidden=hidden, many=many)]


async def _hidden_sides(characters: CharacterRepository, request: RollRequest) -> set[Side]:
    """The sides of a decided Contest with a Narrator's secret character on them (§7.1)."""
    if request.kind is not RequestKind.CONTEST or not request.complete:
        return set()
    ids = [r.character_id for r in request.rollers if r.character_id]
    sheets = await characters.get_many(request.guild_id, ids)
    return {
        r.side
        for r in request.rollers
        if r.character_id in sheets
        and is_secret(sheets[r.character_id].character.kind, sheets[r.character_id].revealed)
    }


def _names(rollers: list[Roller]) -> str:
    return ", ".join(r.name for r in rollers)


async def refresh(interaction: Interaction, request: RollRequest) -> None:
    """Edit the request's message to show who has rolled (the saved request is the truth)."""
    await _show(interaction.client, request)


async def _show(client: MistbornClient, request: RollRequest) -> None:
    if request.message_id is None:
        return
    channel = client.get_partial_messageable(request.channel_id, guild_id=request.guild_id)
    try:
        # content and embeds reset: a request shown before cards becomes one (Discord allows that way only)
        await channel.get_partial_message(request.message_id).edit(
            content=None, embed=None, view=request_message(request), allowed_mentions=NO_PINGS
        )
    except discord.HTTPException as error:
        log.warning("Could not update the request message %s: %s", request.message_id, error)


CATCH_UP_PAGE = 100


async def catch_up(client: MistbornClient, owns: Callable[[int], bool]) -> None:
    """At start, bring every request message that may lag behind what is saved (a roll saved
    just before a crash, before its message was edited) up to the saved request: one look at
    each such message, and an edit only where its buttons or its line differ."""
    storage, refusals, after = client.storage, client.conflicts.refusals, 0
    while page := await storage.requests.touched(after, CATCH_UP_PAGE):
        for guild_id, request_id in page:
            after = request_id
            if not owns(guild_id) or client.get_guild(guild_id) is None:
                continue
            request = await storage.requests.get(guild_id, request_id)
            if (
                request is None
                or request.message_id is None
                or refusals.blocked(guild_id, request.channel_id)
            ):
                continue  # gone, or in a channel where Discord refuses the bot (bot.workers.refusals)
            await client.pacer.turn(request.channel_id)
            try:
                message = await client.http.get_message(request.channel_id, request.message_id)
            except discord.Forbidden as error:
                await refusals.refused(guild_id, request.channel_id, error)
                continue
            except discord.HTTPException:
                continue  # deleted: nothing to bring up to date
            if not _lags(request, dict(message)):
                continue
            await client.pacer.turn(request.channel_id)
            await _show(client, request)


def _lags(request: RollRequest, message: dict[str, Any]) -> bool:
    """Whether the message shows an older state than the saved ``request``: other buttons, or
    another line above the card (a message from before cards has none: it lags too)."""
    wanted = {str(button.custom_id) for button in request_buttons(request)}
    components = message.get("components") or []
    texts = card_texts(components)
    return wanted != custom_ids(components) or texts[:1] != [request_content(request)]


async def close(interaction: Interaction, request_id: int) -> None:
    """The Narrator closes the request: no more rolls; the message says who never rolled."""
    (await caller(interaction)).require_narrator("close a request")
    guild_id = guild_id_of(interaction)
    async with interaction.client.storage.transaction() as tx:
        if not await tx.requests.close(guild_id, request_id):
            raise BotError("That request is closed already.")
        request = await tx.requests.get(guild_id, request_id)
        if request is None:
            raise BotError(GONE)
        await tx.journal.add(guild_id, origin_of(interaction), [request_closed_entry(utc_now(), request)])
    await replies.edit(interaction, view=request_message(request), allowed_mentions=NO_PINGS)


async def results(interaction: Interaction, request_id: int) -> None:
    """A secret request's figures, privately, for a Narrator."""
    (await caller(interaction)).require_narrator("see a secret request's results")
    request = await interaction.client.storage.requests.get(guild_id_of(interaction), request_id)
    if request is None:
        raise BotError(GONE)
    open_copy = request.model_copy(update={"spec": request.spec.model_copy(update={"secret": False})})
    cards = [request_card(open_copy)]
    if request.kind is RequestKind.CONTEST and request.complete:
        cards += _shown(open_copy, cards[0])
    await replies.send(interaction, view=card_view(*cards), ephemeral=True)
