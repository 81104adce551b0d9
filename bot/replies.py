"""Every answer to an interaction, so that none misses Discord's 3-second deadline.

Discord forgets an interaction that is not acknowledged within 3 s of its creation: the user
sees "did not respond", and whatever the command saved meanwhile looks lost, so they try again.
A guard (:func:`guard`, started by the client for every command, button and form) therefore
acknowledges ("thinking…") any interaction still unanswered about :data:`DEFER_AFTER` seconds
after it arrived, and every answer goes through :func:`send` / :func:`edit`, which use the
interaction's first response when it is still free and the follow-up or the original response
once the guard (or the command itself) has deferred.

How the "thinking…" looks: a command is deferred publicly unless its command says its answer is
private (``extras={"private": True}``); a button or form is deferred as an update of its
message, which shows nothing. A private answer after a public "thinking…" (an error, as a rule)
deletes the thinking message first, so it never shows to the channel; a public answer after a
private one does the same the other way round.

A lock per interaction makes the guard and an answer never race: the guard only defers when
nothing is being sent, and an answer started after the defer sees it.

Once its handler has ended, an interaction is let go (:func:`release`): nothing defers it any
more, and the cycles that tie it together are cut, so it is freed at once.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ui.view import BaseView

from bot import metrics

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0
"""Seconds after its arrival at which an unanswered interaction is deferred (Discord allows 3)."""
MESSAGE_LIMIT = 2000
KEY = "mab.answer"
NO_PINGS = discord.AllowedMentions.none()


@dataclass
class Answer:
    """What this process knows of one interaction's answer (kept in ``interaction.extras``)."""

    arrived: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None
    deferred: bool = False
    """The guard deferred it (a "thinking…" message, or a silent update for a component)."""
    private_defer: bool = False
    thinking_shown: bool = False
    """The "thinking…" message is still there, waiting for the first answer to replace it."""
    released: bool = False
    """Its handler has ended (:func:`release`): the guard leaves it alone from now on."""


CLOCK_SKEW = 10.0
"""An age beyond this (or below zero) means our clock and Discord's disagree; it is ignored."""


def age(interaction: discord.Interaction[Any]) -> float:
    """Seconds since Discord created `interaction` (by its snowflake), 0 when clocks disagree."""
    seconds = time.time() - interaction.created_at.timestamp()
    return seconds if 0.0 <= seconds <= CLOCK_SKEW else 0.0


def state(interaction: discord.Interaction[Any]) -> Answer:
    found = interaction.extras.get(KEY)
    if found is None:
        found = interaction.extras[KEY] = Answer()
    return found


def answers_privately(interaction: discord.Interaction[Any]) -> bool:
    command = interaction.command
    return bool(command is not None and command.extras.get("private"))


def _first_answer(interaction: discord.Interaction[Any], answer: Answer) -> None:
    """The interaction's first answer went out: how long it took, for ``bot.metrics``."""
    metrics.answered(interaction, time.monotonic() - answer.arrived)


def guard(interaction: discord.Interaction[Any]) -> None:
    """Defer `interaction` about :data:`DEFER_AFTER` s after it arrived if nothing answered it.

    Autocomplete cannot be deferred (and is dropped by Discord, not failed), so it is left alone.
    """
    if interaction.type not in (
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        return
    answer = state(interaction)
    if answer.timer is not None or answer.released:
        return
    delay = max(0.0, DEFER_AFTER - max(time.monotonic() - answer.arrived, age(interaction)))
    loop = asyncio.get_running_loop()
    answer.timer = loop.call_later(delay, lambda: loop.create_task(_defer(interaction)))


def unguard(interaction: discord.Interaction[Any]) -> None:
    """Forget the guard's timer (the interaction was answered, or its handler ended)."""
    answer = interaction.extras.get(KEY)
    if answer is not None and answer.timer is not None:
        answer.timer.cancel()
        answer.timer = None  # its callback holds the interaction: a cycle through ``extras``


CACHED_ON_INTERACTION = ("_cs_response", "_cs_followup", "_cs_namespace")
"""discord.py's cached ``response``, ``followup`` and ``namespace`` of an interaction: each
refers back to the interaction, so while cached they hold it in a reference cycle."""


def release(interaction: discord.Interaction[Any]) -> None:
    """The interaction's handler has ended: stop its guard, and cut the cycles that hold it.

    An interaction and what discord.py caches on it refer to each other, so every interaction
    (its payload, member, namespace: some hundreds of objects) used to wait for the garbage
    collector, which then swept thousands at a time and held the event loop 10-20 ms under
    load, long enough to show in every reply's latency (``bench/load_bench.py``). Dropping the
    cache lets reference counting free it as soon as the last task lets go; were the
    ``response`` asked for again, discord.py would build a fresh one, which is why nothing
    answers or defers a released interaction.
    """
    answer: Answer | None = interaction.extras.get(KEY)
    if answer is not None:  # none for an autocomplete: the guard never took one on
        answer.released = True
        unguard(interaction)
    for slot in CACHED_ON_INTERACTION:
        with contextlib.suppress(AttributeError):  # never asked for
            delattr(interaction, slot)


async def _defer(interaction: discord.Interaction[Any]) -> None:
    answer = state(interaction)
    if answer.released or answer.lock.locked() or interaction.response.is_done():
        return
    async with answer.lock:
        if interaction.response.is_done():
            return
        private = answers_privately(interaction)
        try:
            if interaction.type is discord.InteractionType.application_command:
                await interaction.response.defer(thinking=True, ephemeral=private)
                answer.thinking_shown = True
            elif interaction.type is discord.InteractionType.modal_submit and interaction.message is None:
                # A form a command opened has no message to update silently: Discord takes only
                # "thinking…" for it, and every such form of ours answers privately.
                private = True
                await interaction.response.defer(thinking=True, ephemeral=True)
                answer.thinking_shown = True
            else:
                await interaction.response.defer()
            _first_answer(interaction, answer)
        except discord.HTTPException as error:
            if answered_elsewhere(error):
                log_answered_elsewhere(interaction, error)
            else:
                log.warning("Could not defer interaction %s", interaction.id, exc_info=True)
            return
        answer.deferred = True
        answer.private_defer = private
        log.info("Deferred interaction %s: no answer %.1f s after it arrived", interaction.id, DEFER_AFTER)


def pinging(users: Iterable[int]) -> discord.AllowedMentions:
    """Mentions that ping exactly ``users`` (each once: Discord refuses a list that repeats an
    id, as when one player's two Heroes are both asked) and nobody else."""
    unique = [discord.Object(user) for user in dict.fromkeys(users)]
    return discord.AllowedMentions(users=unique, everyone=False, roles=False, replied_user=False)


def _unique(mentions: discord.AllowedMentions) -> discord.AllowedMentions:
    """``mentions`` with each user and role listed once, whoever built it."""
    users, roles = mentions.users, mentions.roles
    if not isinstance(users, list) and not isinstance(roles, list):
        return mentions
    return discord.AllowedMentions(
        everyone=mentions.everyone,
        users=list({u.id: u for u in users}.values()) if isinstance(users, list) else users,
        roles=list({r.id: r for r in roles}.values()) if isinstance(roles, list) else roles,
        replied_user=mentions.replied_user,
    )


ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_INTERACTION = 10062


def answered_elsewhere(error: BaseException) -> bool:
    """Whether Discord refused an answer because the interaction is already answered or gone:
    "already acknowledged" (40060) or "unknown interaction" (10062).

    During a redeploy Discord may deliver one interaction to two sessions of a shard; the one
    that answers second gets one of these. Nothing is wrong with this process then, so it is
    logged as one INFO line (:func:`log_answered_elsewhere`), never as a failure.
    """
    return isinstance(error, discord.HTTPException) and error.code in (
        ALREADY_ACKNOWLEDGED,
        UNKNOWN_INTERACTION,
    )


def log_answered_elsewhere(interaction: discord.Interaction[Any], error: discord.HTTPException) -> None:
    log.info(
        "Interaction %s was already answered elsewhere (Discord code %s): left to that answer",
        interaction.id,
        error.code,
    )


def _card_alone(
    view: BaseView | None,
    content: str | None,
    embed: discord.Embed | None,
    embeds: list[discord.Embed] | None,
) -> None:
    """A layout message is components only: Discord refuses content or embeds beside them."""
    if isinstance(view, discord.ui.LayoutView) and (content or embed or embeds):
        raise ValueError("a card (LayoutView) is sent alone, without content or embeds")


def _stays_a_card(interaction: discord.Interaction[Any], view: object) -> bool:
    """Whether an edit of the used message would take a card's layout away: Discord refuses a
    layout message text, embeds or no components, and it can never stop being one. Only a
    forged click (a custom id of ours on a card that never carried it) asks that of a card."""
    clicked = interaction.message
    return clicked is not None and clicked.flags.components_v2 and not isinstance(view, discord.ui.LayoutView)


def _sent_stopped(view: BaseView | None) -> None:
    """Every view goes out stopped, so discord.py keeps nothing of it: a click reaches its
    handler by its custom id alone (``bot.clicks``), and a view discord.py kept would run it a
    second time (docs/architecture.md, "Clicks")."""
    if isinstance(view, BaseView) and not view.is_finished():
        view.stop()


def _clip(content: str | None) -> str | None:
    if content is not None and len(content) > MESSAGE_LIMIT:
        return content[: MESSAGE_LIMIT - 1] + "…"
    return content


async def send(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    ephemeral: bool = False,
    embed: discord.Embed | None = None,
    embeds: list[discord.Embed] | None = None,
    file: discord.File | None = None,
    view: BaseView | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> int | None:
    """Answer with a new message (the first response, or a follow-up once deferred); return
    the message's id when Discord said it. A card (a ``LayoutView``) goes alone: a layout
    message has no content or embeds beside it."""
    _card_alone(view, content, embed, embeds)
    _sent_stopped(view)
    answer = state(interaction)
    kwargs: dict[str, Any] = {"allowed_mentions": _unique(allowed_mentions or NO_PINGS)}
    if embed is not None:
        kwargs["embed"] = embed
    if embeds is not None:
        kwargs["embeds"] = embeds
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    async with answer.lock:
        if not interaction.response.is_done():
            unguard(interaction)
            try:
                response = await interaction.response.send_message(
                    _clip(content), ephemeral=ephemeral, **kwargs
                )
            except discord.HTTPException as error:
                if ephemeral or error.code != ALREADY_ACKNOWLEDGED:
                    raise
                # Another session of this shard acknowledged it first (a redeploy's overlap): the
                # change saved here still reaches the table, as a follow-up on the shared token.
                log_answered_elsewhere(interaction, error)
                sent = await interaction.followup.send(
                    _clip(content) or discord.utils.MISSING, wait=True, **kwargs
                )
                return sent.id
            _first_answer(interaction, answer)
            return None if response is None else response.message_id
        if answer.thinking_shown:
            answer.thinking_shown = False
            if answer.private_defer != ephemeral:
                # The first follow-up would take the thinking message's visibility: drop it instead.
                with contextlib.suppress(discord.NotFound):
                    await interaction.delete_original_response()
        sent = await interaction.followup.send(
            _clip(content) or discord.utils.MISSING, ephemeral=ephemeral, wait=True, **kwargs
        )
        return sent.id


async def edit(
    interaction: discord.Interaction[Any],
    *,
    content: str | None = None,
    embed: discord.Embed | None = discord.utils.MISSING,
    embeds: list[discord.Embed] | None = None,
    view: BaseView | None = discord.utils.MISSING,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> None:
    """Update the message a button or form was used on (the first response, or an edit of the
    original once deferred). ``view=None`` removes its buttons and ``embed=None`` its embed (left
    out, each stays as it was). A card (a ``LayoutView``) goes alone, and clears the content and
    embeds the message had: so an embed message becomes a card (Discord allows that way only).
    A card stays one (:func:`_stays_a_card`): what would have replaced it is said privately."""
    _card_alone(view, content, embed, embeds)
    _sent_stopped(view)
    if _stays_a_card(interaction, view):
        shown = embeds or ([embed] if embed else None)
        if content or shown:
            await send(interaction, content, embeds=shown, ephemeral=True, allowed_mentions=allowed_mentions)
        return
    answer = state(interaction)
    kwargs: dict[str, Any] = {"view": view, "allowed_mentions": _unique(allowed_mentions or NO_PINGS)}
    if isinstance(view, discord.ui.LayoutView):
        kwargs |= {"content": None, "embed": None}
    if content is not None:
        kwargs["content"] = _clip(content)
    if embed is not discord.utils.MISSING:
        kwargs["embed"] = embed
    if embeds is not None:
        kwargs["embeds"] = embeds
    async with answer.lock:
        if not interaction.response.is_done():
            unguard(interaction)
            await interaction.response.edit_message(**kwargs)
            _first_answer(interaction, answer)
            return
        await interaction.edit_original_response(**kwargs)


async def send_private(interaction: discord.Interaction[Any], text: str) -> None:
    """A private plain-text answer, whatever was answered or deferred before."""
    await send(interaction, text, ephemeral=True)


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool) -> None:
    """Show "thinking…" now, for a command that knows it will take a while."""
    answer = state(interaction)
    async with answer.lock:
        if interaction.response.is_done():
            return
        unguard(interaction)
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        _first_answer(interaction, answer)
        answer.thinking_shown, answer.private_defer = True, ephemeral


LATE_FORM = "That took me too long to open the form; click again."


async def send_modal(interaction: discord.Interaction[Any], modal: discord.ui.Modal) -> None:
    """Open a form; a deferred interaction can no longer open one, so the user is asked to
    click again instead."""
    answer = state(interaction)
    async with answer.lock:
        if not interaction.response.is_done():
            unguard(interaction)
            await interaction.response.send_modal(modal)
            _first_answer(interaction, answer)
            return
    await send_private(interaction, LATE_FORM)
