"""Errors the bot shows to users, and the one place that turns any error into a reply.

Three tiers, as in RoboDanny: the rules and storage raise their own user-facing errors, checks
raise :class:`NotAllowed`, and :func:`answer_error` answers every one of them ephemerally: for a
command as the tree's single ``on_error`` (:func:`on_app_command_error`), for a click or a form
through the door they come through (``bot.door``). Anything else is a bug: it is logged with the command and
its options, and the user gets a short apology, never a traceback.
"""

import asyncio
import logging
import math
from typing import Any

import discord
from discord import app_commands
from pydantic import ValidationError

from bot import metrics
from bot.replies import answered_elsewhere, log_answered_elsewhere, send_private
from bot.text import inert
from rules.errors import RulesError
from storage.errors import AlreadyHandledError, DatabaseBusyError, StorageError

log = logging.getLogger(__name__)

DM_REFUSAL = (
    "This command works in a server the bot is in, not in direct messages or other servers: "
    "run it in a channel of your server."
)
APOLOGY = "Sorry, something went wrong on my side. It has been logged; please try again."
UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel that does not exist (any more)."""
REPLAY_GRACE = 0.5
"""Seconds an interaction found already handled waits before saying so. Delivered to two
sessions at once (a redeploy), the delivery that saved the change answers meanwhile, so the
user sees the change itself and this one finds the interaction answered (one INFO line)."""


class BotError(app_commands.AppCommandError):
    """A user-facing refusal raised by the bot layer itself; the message is shown as is."""


class NotAllowed(BotError, app_commands.CheckFailure):
    """The user may not do this (not a Narrator, not the owner of that character, …)."""


USER_ERRORS = (RulesError, StorageError, BotError)
"""What a user caused. ``rules`` and ``storage`` write plain sentences, shown inert; a
:class:`BotError` may use Markdown, so the bot makes what it repeats inert when it writes one."""


def conversion_message(error: app_commands.TransformerError) -> str:
    """What to pick instead, when discord.py itself could not convert an option's value.

    Discord's client offers only valid values, but a member may leave between picking and
    sending, a raw payload may name a channel of another type, and an old client may send a
    choice that no longer exists: each is the user's to fix, never a bug of ours.
    """
    kind = error.type
    if kind is discord.AppCommandOptionType.user:
        return "That member is not in this server any more; pick someone who is."
    if kind is discord.AppCommandOptionType.channel:
        types = getattr(error.transformer, "channel_types", None) or []
        wanted = " or ".join(str(t).replace("_", " ") for t in types) or "suitable"
        return f"That channel cannot be used here; pick a {wanted} channel of this server."
    if kind is discord.AppCommandOptionType.role:
        return "That role is not in this server any more; pick one of its roles."
    if kind is discord.AppCommandOptionType.mentionable:
        return "Pick a member or a role of this server."
    if kind is discord.AppCommandOptionType.attachment:
        return "That file could not be read; attach it again."
    return "That value is not one of the choices; pick one from the list."


def user_message(error: BaseException) -> str | None:
    """The text to show for an error the user caused, or ``None`` for a bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        cause = error.__cause__ or getattr(error, "original", None)
        if cause is not None and cause is not error:
            return user_message(cause)
        if isinstance(error, app_commands.TransformerError):
            return conversion_message(error)
    if isinstance(error, RulesError | StorageError):
        # Plain words that may repeat a name someone typed: shown inert (bot.text).
        return inert(str(error))
    if isinstance(error, BotError):
        return str(error)
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return (
            "This command changed since your Discord app loaded it. "
            "Try again in a minute, or restart Discord."
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return DM_REFUSAL
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Server permission for that; ask a server admin."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {max(1, math.ceil(error.retry_after))} s."
    if isinstance(error, app_commands.CheckFailure):
        return "You are not allowed to use this command here; ask a Narrator or a server admin."
    return None


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already answered or deferred
    (``bot.replies``: clipped to Discord's 2000 characters, after a public "thinking…" too)."""
    await send_private(interaction, text)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The tree's error handler: a clear private message for users, a log line for bugs."""
    await answer_error(interaction, error)


def root_cause(error: BaseException) -> BaseException:
    """The error a command's wrapper (``CommandInvokeError``) carries, else ``error`` itself."""
    while isinstance(error, app_commands.CommandInvokeError):
        cause = error.__cause__ or error.original
        if cause is None or cause is error:
            break
        error = cause
    return error


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer any error privately: the tree's handler for a command, the door's for a click or a form.

    An answer Discord refused because another session answered the interaction first is no
    error of ours: one INFO line, no reply (``bot.replies.answered_elsewhere``).
    """
    cause = root_cause(error)
    if isinstance(cause, discord.HTTPException) and answered_elsewhere(cause):
        log_answered_elsewhere(interaction, cause)
        return
    if isinstance(cause, AlreadyHandledError):
        await asyncio.sleep(REPLAY_GRACE)
    elif isinstance(cause, DatabaseBusyError):
        metrics.DATABASE_BUSY.inc()
    text = user_message(error)
    if text is None:
        metrics.INTERACTION_ERRORS.inc()
        command = interaction.command.qualified_name if interaction.command else "?"
        data: dict[str, Any] = dict(interaction.data or {})
        if "custom_id" in data:
            command = f"button {data['custom_id']}"
        options = data.get("options")
        log.error(
            "Command %s failed (guild %s, user %s, options %r)",
            command,
            interaction.guild_id,
            interaction.user.id,
            options,
            exc_info=error,
        )
        text = APOLOGY
    try:
        await send_ephemeral(interaction, text)
    except discord.HTTPException as failed:
        if answered_elsewhere(failed):
            log_answered_elsewhere(interaction, failed)
        else:
            log.warning("Could not deliver an error reply for interaction %s", interaction.id, exc_info=True)


def invalid_option(error: ValidationError) -> str:
    """One plain sentence for an option value the engine's command model refused."""
    problems = error.errors(include_url=False, include_input=False)
    where = ".".join(str(step) for step in problems[0]["loc"]) if problems else "an option"
    detail = problems[0]["msg"] if problems else "not valid"
    return f"That is not a valid value for {where}: {detail}."
