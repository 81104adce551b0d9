"""A Narrator's hidden Villain or Extra outside a Conflict, through the real dispatch
(docs/rulings.md §7.1): what the table sees of `/sheet`, `/burden`, `/roll` and `/contest` on
it (a hit and a plain state; dice thrown, not ratings), and that the figures reach the Narrator
privately and the GM channel, as a `/gmroll`'s do."""

import re

import pytest

from fake_discord.payloads import JSON
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, make_character
from rules.journal import TABLE, line_for
from storage import GuildSettings
from testbed.bot_env import BotEnv
from testbed.cards import card_field, card_text

NO_FIGURES = re.compile(r"\d|Health|Burden|Wits|Poisoned")
"""What the table's line of a hidden sheet must not hold: a number, a Resilience, a Burden's
name or kind, a rating."""


@pytest.fixture
async def vess(bot_env: BotEnv) -> BotEnv:
    """The Narrator's hidden Villain Vess (Wits 6, Health 5) in a server whose GM channel is #ooc."""
    env = bot_env
    vess = make_character(
        name="Vess",
        kind=CharacterKind.VILLAIN,
        owner_id=env.user_id("narrator"),
        attributes={"physique": 3, "charm": 2, "wits": 6},
    )
    await env.storage.characters.create(env.guild_id, vess)
    await env.storage.settings.set(env.guild_id, GuildSettings(gm_channel_id=gm(env)))
    return env


def gm(env: BotEnv) -> int:
    channel = env.world.guild.channel("ooc")
    assert channel is not None
    return channel.id


def shown(record: InteractionRecord) -> list[JSON]:
    """What the table saw of an answer: its messages nobody else was kept from."""
    return [m for m in record.messages if not m["flags"] & 64]


def private(record: InteractionRecord) -> list[JSON]:
    return [m for m in record.messages if m["flags"] & 64]


def in_gm_channel(env: BotEnv) -> list[JSON]:
    return [m for m in env.harness.fake.messages.values() if m["channel_id"] == str(gm(env))]


def text(message: JSON) -> str:
    embeds = message.get("embeds") or []
    return " ".join(str(e.get("title", "")) + " " + str(e.get("description", "")) for e in embeds) + (
        card_text(message) if message.get("components") else ""
    )


async def table_journal(env: BotEnv) -> list[str]:
    """Vess's story as the table's journal reads it."""
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vess")
    entries = await env.storage.journal.of_character(env.guild_id, stored.id)
    return [line for story in entries if (line := line_for(story.entry, TABLE)) is not None]


async def test_damage_to_a_hidden_villain_tells_the_table_a_hit_and_the_narrator_the_figures(
    vess: BotEnv,
) -> None:
    env = vess
    reply = await env.slash("/sheet damage amount:2 name:Vess", user="narrator")
    [public] = shown(reply)
    assert public["embeds"][0]["description"] == "**Vess** is hit: now wounded."
    assert not NO_FIGURES.search(text(public))
    [full] = private(reply)
    assert full["embeds"][0]["title"] == "Vess: 2 Health damage"
    assert "Health: 5 → **3**" in full["embeds"][0]["description"]
    [copy] = in_gm_channel(env)
    assert copy["embeds"] == full["embeds"]
    # The players' journal tells the hit as the table saw it; the Narrator's, the figures.
    assert "**Vess** is hit: now wounded." in await table_journal(env)
    assert not any("Health" in line for line in await table_journal(env))


async def test_a_burden_on_a_hidden_villain_is_the_narrators(vess: BotEnv) -> None:
    env = vess
    reply = await env.slash("/burden add burden:Poisoned severity:grave name:Vess", user="narrator")
    [public] = shown(reply)
    assert public["embeds"][0]["description"] == "**Vess**'s sheet changes: now gravely wounded."
    assert not NO_FIGURES.search(text(public))
    [full] = private(reply)
    assert "New Grave Burden: Poisoned." in full["embeds"][0]["description"]
    assert not any("Poisoned" in line for line in await table_journal(env))
    removed = await env.slash("/burden remove burden:Poisoned name:Vess", user="narrator")
    [public] = shown(removed)
    assert public["embeds"][0]["description"] == "**Vess**'s sheet changes: now unhurt."


@pytest.mark.parametrize(
    "line",
    [
        "/sheet heal amount:2 name:Vess",
        "/sheet spend standing:Influence name:Vess",
        "/sheet recover name:Vess",
        "/sheet breather kind:long name:Vess",
        "/burden step burden:Cut direction:up name:Vess",
    ],
)
async def test_every_sheet_change_of_a_hidden_villain_keeps_its_figures(vess: BotEnv, line: str) -> None:
    env = vess
    await env.slash("/sheet damage amount:3 name:Vess", user="narrator")
    await env.slash("/burden add burden:Cut severity:serious name:Vess", user="narrator")
    await env.slash("/sheet spend standing:Resources name:Vess", user="narrator")
    reply = await env.slash(line, user="narrator")
    [public] = shown(reply)
    assert public["embeds"][0]["description"].startswith("**Vess**")
    assert not NO_FIGURES.search(text(public)) and len(public["embeds"][0].get("fields") or []) == 0
    assert private(reply) and private(reply)[0]["embeds"][0]["title"].startswith("Vess")


async def test_nothing_to_heal_on_a_hidden_villain_tells_the_table_nothing(vess: BotEnv) -> None:
    reply = await vess.slash("/sheet heal amount:2 name:Vess", user="narrator")
    assert shown(reply) == []
    assert "Nothing to heal: Health is full." in private(reply)[0]["embeds"][0]["description"]


async def test_asked_in_the_gm_channel_the_figures_show_there(vess: BotEnv) -> None:
    env = vess
    channel = env.world.guild.channel("ooc")
    assert channel is not None
    env.harness.channel = channel
    reply = await env.slash("/sheet damage amount:2 name:Vess", user="narrator")
    [public] = shown(reply)
    assert public["embeds"][0]["title"] == "Vess: 2 Health damage" and private(reply) == []
    assert len(in_gm_channel(env)) == 1


@pytest.mark.parametrize("line", ["/roll character:Vess stat:Wits", "/roll stat:Wits"])
async def test_a_hidden_villains_roll_shows_its_dice_not_its_rating(vess: BotEnv, line: str) -> None:
    env = vess
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vess")
    await env.storage.active.set(env.guild_id, env.user_id("narrator"), stored.id)
    reply = await env.slash(line, user="narrator")
    [public] = shown(reply)
    assert card_field(public, "Pool") == "6 dice"
    assert "Wits 6" not in card_text(public) and "Vess: Wits" in card_text(public)
    [full] = private(reply)
    assert card_field(full, "Pool").startswith("Wits 6")
    assert [card_field(m, "Pool") for m in in_gm_channel(env)] == [card_field(full, "Pool")]
    (logged,) = await env.storage.rolls.recent(env.guild_id)
    assert logged.secret  # the log's pool is the sheet's, as a Conflict's hidden rolls are


async def test_a_hidden_villains_standing_roll_keeps_what_it_spent(vess: BotEnv) -> None:
    reply = await vess.slash("/roll character:Vess stat:Influence", user="narrator")
    [public] = shown(reply)
    assert "spent" not in card_text(public) and "left" not in card_text(public)
    assert "Influence spent" in card_text(private(reply)[0])


@pytest.mark.parametrize(
    ("line", "hidden_first"),
    [
        ("/contest actor_dice:3 opponent:Vess opponent_stat:Wits", False),
        ("/contest actor:Vess actor_stat:Wits opponent_dice:3", True),
    ],
)
async def test_a_contest_with_a_hidden_side_shows_its_dice_count(
    vess: BotEnv, line: str, hidden_first: bool
) -> None:
    """As `/request contest` shows it: the hidden side's name and the dice it threw."""
    env = vess
    reply = await env.slash(line, user="narrator")
    [public] = shown(reply)
    said = card_text(public)
    assert "6 dice" in said and "Wits 6" not in said
    assert "Dice 3 = **3**" in said  # the bare side's pool is nobody's secret
    full = card_text(private(reply)[0])
    assert "Wits 6 = **6**" in full and "6 dice" not in full
    hidden = [r for r in await env.storage.rolls.recent(env.guild_id) if r.secret]
    assert [r.label for r in hidden] == ["Vess"]
    assert (said.index("6 dice") < said.index("Dice 3")) is hidden_first
