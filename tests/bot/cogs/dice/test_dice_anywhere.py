"""Dice anywhere: /roll, /read and /odds where the bot serves no server (docs/architecture.md,
"Dice anywhere"), through the real discord.py dispatch and the fake's user-installed interactions:
a DM with the bot (context 1), a group DM (context 2) and a server the bot is not in (context 0,
authorized by the member's own install)."""

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from fake_discord import payloads
from fake_discord.commandline import CommandLineError, find_command
from fake_discord.payloads import Resolved
from fake_discord.places import DM, ELSEWHERE, GROUP, SERVER, server_without_bot
from fake_discord.records import InteractionRecord
from fake_discord.validate import validate_command
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, running_bot_env, table_world
from testbed.cards import card_text, card_title, is_card
from testbed.console import run_console
from tests.bot.test_slow_database import locked_for

ANYWHERE = ("roll", "read", "odds")
PLACES = (DM, ELSEWHERE, GROUP)


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[BotEnv]:
    """The bot synced globally too: only global commands exist outside its server."""
    async with running_bot_env(tmp_path / "bot.sqlite3", table_world(), sync_global=True) as bot_env:
        yield bot_env


async def with_vin(env: BotEnv) -> None:
    """player1's active Hero Vin, in the bot's server."""
    owner = env.user_id("player1")
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=owner, attributes={"physique": 4})
    stored = await env.storage.characters.create(env.guild_id, vin)
    await env.storage.active.set(env.guild_id, owner, stored.id)


def synced(env: BotEnv) -> dict[str, dict[str, object]]:
    return {c["name"]: c for c in env.harness.fake.commands.scopes[None]}


async def test_synced_commands_say_where_they_work(env: BotEnv) -> None:
    commands = synced(env)
    for name, command in commands.items():
        assert validate_command(command) == []
        if name in ANYWHERE:
            assert command["integration_types"] == [0, 1] and command["contexts"] == [0, 1, 2]
        else:
            assert command["integration_types"] == [0] and command["contexts"] == [0], name
    offered = {place: {c["name"] for c in env.harness.fake.commands.visible_at(place, 0)} for place in PLACES}
    assert offered == {place: set(ANYWHERE) for place in PLACES}


@pytest.mark.parametrize(
    ("installs", "contexts", "refused"),
    [([0], [0, 1, 2], True), ([0, 1], [0, 1, 2], False), ([0], [0, 1], False), (None, None, False)],
)
def test_the_fake_holds_discords_rule_on_group_dms(
    installs: list[int] | None, contexts: list[int] | None, refused: bool
) -> None:
    """Discord offers a command in group DMs only through a member's own install."""
    command = {"name": "roll", "description": "Roll", "integration_types": installs, "contexts": contexts}
    assert bool(validate_command(command)) is refused


def title(record: InteractionRecord) -> str:
    assert record.message is not None
    return card_title(record.message)


@pytest.mark.parametrize("place", PLACES)
async def test_roll_read_and_odds_answer_anywhere(env: BotEnv, place: str) -> None:
    await with_vin(env)
    rolled = await env.harness.slash("/roll dice:4 difficulty:2 label:Leap", user="player1", place=place)
    assert not rolled.ephemeral and title(rolled) == "Leap"
    read = await env.harness.slash("/read faces:3 3 6 1", user="player1", place=place)
    assert not read.ephemeral and title(read) == "Table dice"
    odds = await env.harness.slash("/odds roll dice:4 difficulty:2", user="player1", place=place)
    assert not odds.ephemeral and odds.messages[0]["attachments"]
    payload = rolled.payload
    assert payload["context"] == {DM: 1, ELSEWHERE: 0, GROUP: 2}[place]
    assert payload["authorizing_integration_owners"]["1"] == str(env.user_id("player1"))
    assert ("guild_id" in payload) == (place == ELSEWHERE) and ("member" in payload) == (place == ELSEWHERE)
    # Not any server's roll: nothing logged in the bot's server, where the player has a sheet,
    # nor under the server without the bot.
    assert await env.storage.rolls.recent(env.guild_id) == []
    assert await env.storage.rolls.recent(server_without_bot(env.world).id) == []


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("line", ["/roll stat:Physique", "/roll dice:3 character:Vin"])
async def test_sheet_options_refuse_privately_outside_the_server(env: BotEnv, place: str, line: str) -> None:
    await with_vin(env)
    reply = await env.harness.slash(line, user="player1", place=place)
    assert reply.ephemeral and not reply.embeds
    assert "Sheets live in a server with the bot: use `dice:`" in reply.content
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    assert stored.character.attributes.physique == 4 and await env.storage.rolls.recent(env.guild_id) == []


async def test_circumstances_do_not_apply_outside_the_server(env: BotEnv) -> None:
    reply = await env.harness.slash("/roll dice:3 circumstances:1", user="narrator", place=DM)
    assert reply.ephemeral and "leave `circumstances` out" in reply.content
    await env.slash('/scene circumstances value:-1 note:"in the mists"')
    rolled = await env.harness.slash("/roll dice:3", user="narrator", place=ELSEWHERE)
    assert not rolled.ephemeral and rolled.message and "Circumstances" not in card_text(rolled.message)


@pytest.mark.parametrize("place", PLACES)
async def test_server_commands_say_they_need_a_server(env: BotEnv, place: str) -> None:
    """Discord does not offer them there; sent anyway (an old client), the bot says so."""
    await with_vin(env)
    with pytest.raises(CommandLineError, match="does not offer /character"):
        await env.harness.slash("/character show name:Vin", user="player1", place=place)
    command = find_command(env.harness.commands_in_server, "character")
    name: dict[str, object] = {"type": 3, "name": "name", "value": "Vin"}
    show: list[dict[str, object]] = [{"type": 1, "name": "show", "options": [name]}]
    actor = env.harness.actor_in(place, "player1")
    reply = await env.harness.send(payloads.slash_command(env.world, actor, command, show, Resolved()))
    assert reply.ephemeral and "works in a server the bot is in" in reply.content
    assert "run it in a channel of your server" in reply.content
    name |= {"value": "V", "focused": True}
    typed = await env.harness.send(payloads.autocomplete(env.world, actor, command, show, Resolved()))
    assert typed.response is not None and typed.choices == []  # no sheet named, even to its owner


@pytest.mark.parametrize("place", [ELSEWHERE, GROUP])
async def test_the_bot_cannot_post_where_it_is_not(env: BotEnv, place: str) -> None:
    """Only the interaction's answer reaches a channel the bot is not in: a post there is refused
    as Discord refuses it (403 Missing Access) and recorded, so no path of /roll may try one."""
    rolled = await env.harness.slash("/roll dice:2", user="player1", place=place)
    channel = env.bot.get_partial_messageable(int(rolled.payload["channel"]["id"]))
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    assert refused.value.code == 50001
    assert [v.problem for v in env.harness.violations] == [f"the bot is not in channel {channel.id}"]
    env.harness.violations.clear()


async def test_a_roll_outside_waits_for_no_database(env: BotEnv) -> None:
    """Outside a server /roll reads and writes nothing: with the database locked past Discord's
    deadline it still answers at once, where a server's roll would have to defer."""
    holder = await locked_for(env, 3.0)
    try:
        rolled = await env.harness.slash("/roll dice:5", user="player1", place=DM)
    finally:
        await holder
    assert not rolled.deferred and not rolled.ephemeral and is_card(rolled.message)


async def test_autocomplete_outside_offers_no_sheet(env: BotEnv) -> None:
    await with_vin(env)
    here = await env.harness.autocomplete("/roll stat:Phy", user="player1")
    assert [c["name"] for c in here.choices] == ["Physique"]
    env.harness.go(DM)
    try:
        away = await env.harness.autocomplete("/roll stat:Phy", user="player1")
    finally:
        env.harness.go(SERVER)
    assert away.response is not None and away.choices == []


async def test_the_server_still_rolls_from_sheets(env: BotEnv) -> None:
    """The same commands in the bot's server keep their sheets and their log."""
    await with_vin(env)
    reply = await env.slash("/roll stat:Physique", user="player1")
    assert title(reply) == "Vin: Physique"
    assert len(await env.storage.rolls.recent(env.guild_id)) == 1


def test_the_console_rolls_in_a_dm_and_refuses_sheets_there(tmp_path: Path) -> None:
    """``!where`` types as if in a DM or a server without the bot (README, the console section)."""
    script = (
        "/character create name:Vin physique:4\n"
        "!where dm\n"
        "/roll dice:3 label:Alone\n"
        "/roll stat:Physique\n"
        "/odds roll dice:3\n"
        "!where elsewhere\n"
        "/read faces:2 2 5\n"
        "!where server\n"
        "/history rolls\n"
    )
    result = run_console(script, tmp_path / "console.sqlite3")
    out = result.stdout
    assert "(now in a direct message with the bot; commands here: /odds, /read, /roll)" in out
    assert "== Alone ==" in out and "Sheets live in a server with the bot" in out
    assert "Table dice" in out and "Traceback" not in result.stderr
    history = out[out.rindex("> /history rolls") :]
    assert "Alone" not in history  # a roll outside the server is no server's
