"""The global error handler and the owner-only command sync."""

import logging
from typing import ClassVar, NoReturn

import pytest

from bot.errors import APOLOGY, send_ephemeral
from fake_discord import payloads
from fake_discord.commandline import find_command
from storage import RollLog
from testbed.bot_env import BotEnv


async def test_unexpected_error_is_logged_and_answered_with_an_apology(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object, **kwargs: object) -> NoReturn:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(RollLog, "append", broken)
    monkeypatch.setattr(RollLog, "append_once", broken)  # /roll logs with its interaction's claim
    with caplog.at_level(logging.ERROR, logger="bot.errors"):
        reply = await bot_env.slash("/roll dice:4 label:Climb", user="player1")
    assert reply.ephemeral and reply.content == APOLOGY and "disk on fire" not in reply.content
    [record] = [r for r in caplog.records if r.name == "bot.errors"]
    assert "Command roll failed" in record.getMessage() and "'Climb'" in record.getMessage()
    assert record.exc_info is not None


async def test_sync_is_refused_to_everyone_but_the_owner(bot_env: BotEnv) -> None:
    reply = await bot_env.harness.slash("/sync scope:global", user="player1", override_permissions=True)
    assert reply.ephemeral and "Only the bot's owner" in reply.content
    assert bot_env.harness.fake.commands.scopes.get(None, []) == []


async def test_owner_syncs_globally_on_request(bot_env: BotEnv) -> None:
    owner = bot_env.user_id("narrator")
    bot_env.bot.settings = bot_env.bot.settings.model_copy(update={"owner_ids": frozenset({owner})})
    reply = await bot_env.harness.slash("/sync scope:global", user="narrator", override_permissions=True)
    assert reply.ephemeral and reply.content.startswith("Synced ") and "(global)" in reply.content
    names = {c["name"] for c in bot_env.harness.fake.commands.scopes.get(None, [])}
    assert {"roll", "odds", "sync"} <= names


async def test_an_outdated_command_gets_a_plain_message(bot_env: BotEnv) -> None:
    # A client that loaded /read before it gained its required `faces` option sends none.
    read = find_command(bot_env.harness.commands, "read")
    payload = payloads.slash_command(
        bot_env.world, bot_env.harness.actor("player1"), read, [], payloads.Resolved()
    )
    reply = await bot_env.harness.send(payload)
    assert reply.ephemeral and "changed since your Discord app loaded it" in reply.content


async def test_long_refusals_are_clipped_to_discords_limit(bot_env: BotEnv) -> None:
    sent: list[str] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, text: str, **kwargs: object) -> None:
            sent.append(text)

    class Interaction:
        response = Response()
        extras: ClassVar[dict[str, object]] = {}  # where bot.replies keeps what it knows of the answer

    # A stand-in with only what send_ephemeral touches, not a discord.Interaction.
    await send_ephemeral(Interaction(), "x" * 5000)  # type: ignore[arg-type]
    assert len(sent[0]) == 2000 and sent[0].endswith("…")


async def test_status_tells_the_owner_which_shards_this_process_holds(bot_env: BotEnv) -> None:
    refused = await bot_env.harness.slash("/status", user="player1", override_permissions=True)
    assert refused.ephemeral and "Only the bot's owner" in refused.content
    owner = bot_env.user_id("narrator")
    bot_env.bot.settings = bot_env.bot.settings.model_copy(update={"owner_ids": frozenset({owner})})
    reply = await bot_env.harness.slash("/status", user="narrator", override_permissions=True)
    assert reply.ephemeral and "holds every server (unsharded)" in reply.content, reply.content
    assert "SQLite" in reply.content and "This server is on shard 0." in reply.content
