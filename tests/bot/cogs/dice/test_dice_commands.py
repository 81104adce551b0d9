"""Rolling, reading and odds through the real discord.py dispatch."""

import pytest

from bot.render.cards import FAILURE, SUCCESS
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import accent, card_field, card_text, card_title


def field(record: InteractionRecord, name: str) -> str:
    assert record.message is not None
    return card_field(record.message, name)


def title(record: InteractionRecord) -> str:
    assert record.message is not None
    return card_title(record.message)


def text(record: InteractionRecord) -> str:
    assert record.message is not None
    return card_text(record.message)


async def test_roll_bare_dice_is_logged(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/roll dice:12 difficulty:2 label:Leap", user="player1")
    assert not reply.ephemeral and title(reply) == "Leap"
    assert "Dice 12 = **12**" in field(reply, "Pool") and "2 free Nudges" in field(reply, "Pool")
    logged = await bot_env.storage.rolls.recent(bot_env.guild_id)
    assert len(logged) == 1 and logged[0].dice == 10 and logged[0].free_nudges == 2
    assert logged[0].user_id == bot_env.user_id("player1") and logged[0].label == "Leap"


async def test_roll_stat_from_active_character(bot_env: BotEnv) -> None:
    owner = bot_env.user_id("player1")
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=owner, attributes={"physique": 4})
    stored = await bot_env.storage.characters.create(bot_env.guild_id, vin)
    await bot_env.storage.active.set(bot_env.guild_id, owner, stored.id)
    reply = await bot_env.slash("/roll stat:physique traits:2 tool:1", user="player1")
    assert title(reply) == "Vin: Physique"
    assert field(reply, "Pool").startswith("Physique 4 + 2 Traits + Tool = **7**")


async def test_standing_roll_spends_the_standing(bot_env: BotEnv) -> None:
    owner = bot_env.user_id("player1")
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=owner, standings={"resources": 3})
    await bot_env.storage.characters.create(bot_env.guild_id, vin)
    reply = await bot_env.slash("/roll stat:Resources character:vin", user="player1")
    assert "Resources spent: 2 left" in text(reply)
    stored = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")
    assert stored.character.spent.resources == 1


async def test_player_cannot_roll_for_another_players_character(bot_env: BotEnv) -> None:
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=bot_env.user_id("player1"))
    await bot_env.storage.characters.create(bot_env.guild_id, vin)
    reply = await bot_env.slash("/roll stat:Charm character:Vin", user="player2")
    assert reply.ephemeral and "not yours" in reply.content
    assert await bot_env.storage.rolls.recent(bot_env.guild_id) == []
    narrator = await bot_env.slash("/roll stat:Charm character:Vin", user="narrator")
    assert not narrator.ephemeral


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/roll", "Say what to roll"),
        ("/roll dice:3 stat:Physique", "either `dice` or `stat`"),
        ("/roll stat:Physique", "no active character"),
        ("/roll stat:Physique character:Nobody", "no character named Nobody"),
    ],
)
async def test_roll_refusals_are_ephemeral_and_log_nothing(bot_env: BotEnv, line: str, message: str) -> None:
    reply = await bot_env.slash(line, user="player1")
    assert reply.ephemeral and message in reply.content
    assert await bot_env.storage.rolls.recent(bot_env.guild_id) == []


async def test_stat_autocomplete_lists_the_sheet(vin: BotEnv) -> None:
    reply = await vin.harness.autocomplete("/roll stat:st", user="player1")
    assert [c["value"] for c in reply.choices] == ["Steel"]
    names = await vin.harness.autocomplete("/roll character:v", user="player1")
    assert [c["value"] for c in names.choices] == ["Vin"]


async def test_gmroll_is_secret_and_narrator_only(bot_env: BotEnv) -> None:
    gm = bot_env.world.guild.channels[1]
    await bot_env.slash(f"/setup gm-channel channel:#{gm.name}")
    secret = await bot_env.slash("/gmroll dice:5 label:Ambush")
    assert secret.ephemeral and title(secret) == "Ambush" and "Secret roll" in text(secret)
    copies = [m for m in bot_env.harness.fake.messages.values() if m["channel_id"] == str(gm.id)]
    assert copies and card_title(copies[-1]) == "Ambush"
    # Visible to everyone, so Narrators by role alone see it; refused to players when used.
    refused = await bot_env.slash("/gmroll dice:5", user="player1")
    assert refused.ephemeral and "Only a Narrator" in refused.content
    assert len(await bot_env.storage.rolls.recent(bot_env.guild_id)) == 1


@pytest.mark.parametrize(
    ("faces", "expected"),
    [("3 3 6 1", "Success — Result 3"), ("3,3,6,1", "Success — Result 3"), ("1245", "no matching set")],
)
async def test_read_table_dice(bot_env: BotEnv, faces: str, expected: str) -> None:
    reply = await bot_env.slash(f'/read faces:"{faces}"', user="player2")
    assert expected in text(reply)


@pytest.mark.parametrize(
    ("faces", "message"), [("3 3 7", "not a face"), ("a b", "not one"), ("3", "2 to 10 dice")]
)
async def test_read_bad_faces(bot_env: BotEnv, faces: str, message: str) -> None:
    reply = await bot_env.slash(f'/read faces:"{faces}"', user="player2")
    assert reply.ephemeral and message in reply.content


async def test_contest_between_two_pools(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/contest actor_dice:6 opponent_dice:4", user="player1")
    assert title(reply) in ("Acting side wins", "Opposing side wins", "Stalemate")
    said = text(reply)
    assert "**Acting side**" in said and said.index("**Acting side**") < said.index("**Opposing side**")


async def test_odds_commands(bot_env: BotEnv) -> None:
    single = await bot_env.slash("/odds roll dice:3 difficulty:2")
    assert "29.6%" in text(single)
    table = await bot_env.slash("/odds table")
    assert "99.9%" in text(table) and "51.5%" in text(table)
    contest = await bot_env.slash("/odds contest acting:10 opposing:10")
    assert all(field(contest, name).endswith("%") for name in ("Win", "Lose", "Stalemate"))


@pytest.mark.parametrize(("faces", "colour"), [("3 3 6 1", SUCCESS), ("1 2 4 5", FAILURE)])
async def test_a_roll_card_shows_success_or_failure_in_its_accent(
    bot_env: BotEnv, faces: str, colour: object
) -> None:
    reply = await bot_env.slash(f'/read faces:"{faces}" difficulty:2 label:Leap', user="player2")
    assert reply.message is not None and reply.message["flags"] & (1 << 15)
    assert reply.content == "" and reply.embeds == []
    assert accent(reply.message) == getattr(colour, "value", None)
    verdict = "Success" if colour is SUCCESS else "Failure"
    assert title(reply) == "Leap" and verdict in text(reply)
    assert bot_env.harness.violations == []


async def test_help_is_private(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/help", user="player2")
    assert reply.ephemeral and "Nudges" in field(reply, "The dice")


async def test_a_character_in_another_server_is_invisible(bot_env: BotEnv) -> None:
    owner = bot_env.user_id("player1")
    elsewhere = make_character(name="Kelsier", kind=CharacterKind.HERO, owner_id=owner)
    await bot_env.storage.characters.create(bot_env.guild_id + 1, elsewhere)
    reply = await bot_env.slash("/roll stat:Physique character:Kelsier", user="player1")
    assert reply.ephemeral and "no character named Kelsier" in reply.content
    suggestions = await bot_env.harness.autocomplete("/roll character:Ke", user="player1")
    assert suggestions.choices == []


async def test_a_secret_rolls_card_stays_private(bot_env: BotEnv) -> None:
    """The Narrator's card is private, its copy goes to the GM channel only, and the table's
    channel never shows it (docs/rulings.md §7.1)."""
    gm, table = bot_env.world.guild.channels[1], bot_env.world.guild.channels[0]
    await bot_env.slash(f"/setup gm-channel channel:#{gm.name}")
    secret = await bot_env.slash("/gmroll dice:5 label:Ambush")
    assert secret.message is not None and secret.message["flags"] & (1 << 15)  # a card
    assert secret.ephemeral and "Secret roll" in card_text(secret.message)
    posted = [m for m in bot_env.harness.fake.messages.values() if "Ambush" in card_text(m)]
    public = [m for m in posted if not m["flags"] & 64]
    assert [m["channel_id"] for m in public] == [str(gm.id)]
    assert all(m["channel_id"] != str(table.id) for m in public)
    assert bot_env.harness.violations == []
