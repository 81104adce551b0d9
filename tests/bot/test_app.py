"""The bot as a whole: its synced commands, settings and Contests from sheets."""

import discord

from bot import event_loop
from bot.config import Settings
from fake_discord.validate import validate_command, validate_command_set
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text, card_title


async def test_synced_commands_obey_discords_rules(bot_env: BotEnv) -> None:
    synced = bot_env.harness.fake.commands.scopes[bot_env.guild_id]
    names = {c["name"] for c in synced}
    assert {"roll", "gmroll", "read", "contest", "odds", "character", "edit", "sheet", "burden"} <= names
    assert {"history", "setup", "help", "sync", "View sheet"} <= names
    assert validate_command_set(synced) == []
    assert all(validate_command(c) == [] for c in synced)
    assert len(synced) <= 100


async def test_the_bot_asks_discord_for_no_message_events(bot_env: BotEnv) -> None:
    """Everything the bot acts on is an interaction; with the message intents Discord would send
    it every message of every channel it can see, its own replies included, to parse and drop."""
    gateway = bot_env.harness.fake.gateway.shard(0)
    assert gateway.intents == discord.Intents(guilds=True).value
    before = gateway.sequence
    reply = await bot_env.slash("/roll dice:3")
    assert reply.response_type == 4 and not reply.ephemeral
    assert gateway.sequence == before + 1  # INTERACTION_CREATE; its public reply came back as nothing


def test_the_bot_runs_on_uvloop_where_it_is_installed() -> None:
    async def which() -> str:
        return event_loop.running_name()

    assert event_loop.HAVE_UVLOOP
    assert event_loop.run(which()) == "uvloop"


def test_token_never_shows_in_settings_text() -> None:
    settings = Settings(token="very-secret-token", _env_file=None)
    assert settings.has_token
    assert "very-secret-token" not in repr(settings) and "very-secret-token" not in str(settings)
    assert "very-secret-token" not in settings.model_dump_json()


def test_blank_token_means_offline() -> None:
    assert not Settings(token="  ", _env_file=None).has_token
    assert not Settings(_env_file=None).has_token


async def test_contest_between_two_characters_stats(bot_env: BotEnv) -> None:
    guild, owner = bot_env.guild_id, bot_env.user_id("player1")
    thorrow = make_character(
        name="Thorrow", kind=CharacterKind.HERO, owner_id=owner, attributes={"physique": 6}
    )
    carrow = make_character(
        name="Carrow",
        kind=CharacterKind.VILLAIN,
        owner_id=bot_env.user_id("narrator"),
        attributes={"physique": 4},
    )
    await bot_env.storage.characters.create(guild, thorrow)
    await bot_env.storage.characters.create(guild, carrow)
    line = "/contest actor:Thorrow actor_stat:Physique opponent:Carrow opponent_stat:Physique"
    # docs/rulings.md §7.1: a Villain's sheet is the Narrator's, so only a Narrator rolls from it.
    secret = await bot_env.slash(line, user="player1")
    assert secret.ephemeral and "one of the Narrator's characters" in secret.content
    reply = await bot_env.slash(line, user="narrator")
    assert reply.message is not None
    said = card_text(reply.message)
    # The table sees the hidden Carrow's dice, not its rating; the Narrator, privately, both.
    assert "**Thorrow**\nPhysique 6 = **6**" in said and "**Carrow**\n4 dice" in said
    [full] = [m for m in reply.messages if m["flags"] & 64]
    assert "**Carrow**\nPhysique 4 = **4**" in card_text(full)
    assert said.index("**Thorrow**") < said.index("**Carrow**")
    assert card_title(reply.message) in ("Thorrow wins", "Carrow wins", "Stalemate")
    refused = await bot_env.slash(
        line.replace("opponent:Carrow", "opponent:Thorrow").replace("actor:Thorrow", "actor:Carrow"),
        user="player1",
    )
    assert refused.ephemeral and "one of the Narrator's characters" in refused.content
