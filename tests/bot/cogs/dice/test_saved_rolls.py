"""Saved rolls and the roll panel through the real dispatch (docs/rulings.md §6.14): saved, rolled
by name with ``/roll saved:``, and from the panel in one tap, before and after a restart, with
the channel's Circumstances, the roll log and the journal as ``/roll stat:`` has them; a hidden
Villain's panel shown to its Narrator only and rolling as ``/gmroll`` does."""

import pytest

from fake_discord.payloads import JSON
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, make_character
from rules.saved_roll import MAX_SAVED_ROLLS
from storage import GuildSettings, StoredCharacter
from testbed.bot_env import BotEnv, controls
from testbed.cards import card_field, card_text, card_title

SAVE_SNEAK = "/rolls save name:Sneak stat:physique traits:1 tool:-1 difficulty:2 label:Quietly"


@pytest.fixture
async def vin(bot_env: BotEnv) -> StoredCharacter:
    """player1's active Hero Vin (Physique 4, Wits 5, Resources 3)."""
    owner = bot_env.user_id("player1")
    sheet = make_character(
        name="Vin",
        kind=CharacterKind.HERO,
        owner_id=owner,
        attributes={"physique": 4, "wits": 5},
        standings={"resources": 3},
    )
    stored = await bot_env.storage.characters.create(bot_env.guild_id, sheet)
    await bot_env.storage.active.set(bot_env.guild_id, owner, stored.id)
    return stored


def labels(message: JSON | None) -> list[str]:
    assert message is not None
    return [str(c.get("label")) for c in controls(message)]


async def panel(env: BotEnv, line: str = "/rolls panel", user: str = "player1") -> JSON:
    posted = await env.slash(line, user=user)
    assert posted.message is not None and "rolls" in card_title(posted.message), posted.text
    return posted.message


def rolled(record: InteractionRecord) -> JSON:
    assert record.message is not None, record.text
    return record.message


async def test_a_saved_roll_is_rolled_by_name_as_roll_stat_rolls_it(
    bot_env: BotEnv, vin: StoredCharacter
) -> None:
    env = bot_env
    saved = await env.slash(SAVE_SNEAK, user="player1")
    assert (
        saved.ephemeral
        and "Saved **Sneak** for Vin: Physique + 1 Trait − Tool, Difficulty 2" in saved.content
    )
    reply = await env.slash("/roll saved:sneak", user="player1")
    card = rolled(reply)
    assert not reply.ephemeral and card_title(card) == "Vin: Quietly"
    assert card_field(card, "Pool").startswith("Physique 4 + Trait − Tool = **4**")
    assert "Difficulty 2" in card_text(card)
    [logged] = await env.storage.rolls.recent(env.guild_id)
    assert logged.label == "Quietly" and logged.difficulty == 2 and not logged.secret
    over = await env.slash("/roll saved:Sneak difficulty:4 traits:2 label:Loudly", user="player1")
    assert card_title(rolled(over)) == "Vin: Loudly" and "Difficulty 4" in card_text(rolled(over))
    assert card_field(rolled(over), "Pool").startswith("Physique 4 + 2 Traits − Tool = **5**")


async def test_saved_rolls_are_listed_renamed_deleted_and_refused_clearly(
    bot_env: BotEnv, vin: StoredCharacter
) -> None:
    env = bot_env
    await env.slash(SAVE_SNEAK, user="player1")
    await env.slash("/rolls save name:Spot stat:Wits", user="player1")
    listed = await env.slash("/rolls list", user="player1")
    assert listed.ephemeral and "2 saved rolls of 20" in listed.text and "**Spot:** Wits" in listed.text
    twice = await env.slash("/rolls save name:sneak stat:Wits", user="player1")
    assert twice.ephemeral and "already a saved roll called sneak" in twice.content
    bad_stat = await env.slash("/rolls save name:Fly stat:Flight", user="player1")
    assert bad_stat.ephemeral and "has no 'Flight' to roll" in bad_stat.content
    renamed = await env.slash("/rolls rename name:Spot new_name:Look", user="player1")
    assert "**Spot** is now **Look**" in renamed.content
    alone = await env.slash("/roll saved:Look dice:3", user="player1")
    assert alone.ephemeral and "Give `saved` alone" in alone.content
    unknown = await env.slash("/roll saved:Spot", user="player1")
    assert unknown.ephemeral and "Vin has no saved roll called 'Spot'" in unknown.content
    assert "Sneak; Look" in unknown.content
    deleted = await env.slash("/rolls delete name:Look", user="player1")
    assert "Deleted **Look**" in deleted.content
    assert [r.roll.name for r in await env.storage.saved_rolls.of(env.guild_id, vin.id)] == ["Sneak"]
    theirs = await env.slash("/rolls list character:Vin", user="player2")
    assert theirs.ephemeral and "not yours" in theirs.content


async def test_autocomplete_offers_only_rolls_the_caller_may_roll(
    bot_env: BotEnv, vin: StoredCharacter
) -> None:
    env = bot_env
    await env.slash(SAVE_SNEAK, user="player1")
    mine = await env.harness.autocomplete("/roll saved:sn", user="player1")
    assert [c["name"] for c in mine.choices] == ["Sneak"]
    theirs = await env.harness.autocomplete("/roll character:Vin saved:", user="player2")
    assert theirs.choices == []


async def test_a_character_keeps_at_most_the_bound(bot_env: BotEnv, vin: StoredCharacter) -> None:
    env = bot_env
    for number in range(MAX_SAVED_ROLLS):
        done = await env.slash(f"/rolls save name:Roll{number} stat:Wits", user="player1")
        assert "Saved" in done.content, done.text
    refused = await env.slash("/rolls save name:OneMore stat:Wits", user="player1")
    assert refused.ephemeral and "the most one may keep" in refused.content
    full = await panel(env)  # every button in one message, within Discord's limits (the fake checks)
    assert len(controls(full)) == MAX_SAVED_ROLLS + 3
    assert env.harness.violations == []


async def test_the_panel_rolls_in_one_tap_with_the_channels_circumstances(
    bot_env: BotEnv, vin: StoredCharacter
) -> None:
    env = bot_env
    await env.slash(SAVE_SNEAK, user="player1")
    await env.slash("/scene circumstances value:1 note:fog")
    shown = await panel(env)
    assert labels(shown) == ["Sneak", "Physique", "Charm", "Wits"]
    assert "**Sneak:** Physique + 1 Trait − Tool, Difficulty 2, as “Quietly”" in card_text(shown)
    before = len(env.harness.fake.interactions)
    tap = await env.harness.click("Sneak", message=shown, user="player1")
    assert len(env.harness.fake.interactions) == before + 1  # one interaction, nothing typed
    card = rolled(tap)
    assert not tap.ephemeral and card_title(card) == "Vin: Quietly"
    assert card_field(card, "Pool").startswith("Physique 4 + Trait − Tool + Circumstances = **5**")
    assert "+1 (the Narrator's, for this scene: fog)" in card_field(card, "Circumstances")
    wits = await env.harness.click("Wits", message=shown, user="player1")
    assert card_title(rolled(wits)) == "Vin: Wits"
    logged = await env.storage.rolls.recent(env.guild_id)
    assert [r.label for r in logged][:2] == ["Vin: Wits", "Quietly"]


async def test_the_panel_still_rolls_after_a_restart(bot_env: BotEnv, vin: StoredCharacter) -> None:
    env = bot_env
    await env.slash(SAVE_SNEAK, user="player1")
    await env.slash('/session start title:"The Keep"')
    shown = await panel(env)
    await env.restart()
    tap = await env.harness.click("Sneak", message=shown, user="player1")
    assert card_title(rolled(tap)) == "Vin: Quietly"
    wits = await env.harness.click("Wits", message=shown, user="player1")
    assert card_title(rolled(wits)) == "Vin: Wits"
    assert len(await env.storage.rolls.recent(env.guild_id)) == 2
    session = await env.storage.journal.open_in(env.guild_id, env.world.guild.channels[0].id)
    assert session is not None
    told = [e.text for e in await env.storage.journal.all_entries(session)]
    assert any(t.startswith("player1 rolled Quietly: ") for t in told), told
    assert any(t.startswith("player1 rolled Vin: Wits: ") for t in told), told


async def test_only_the_sheets_controller_rolls_from_its_panel(bot_env: BotEnv, vin: StoredCharacter) -> None:
    env = bot_env
    await env.slash(SAVE_SNEAK, user="player1")
    shown = await panel(env)
    refused = await env.harness.click("Sneak", message=shown, user="player2")
    assert refused.ephemeral and "not yours" in refused.content
    narrator = await env.harness.click("Sneak", message=shown, user="narrator")
    assert card_title(rolled(narrator)) == "Vin: Quietly"  # a Narrator may roll for any sheet
    await env.slash("/rolls delete name:Sneak", user="player1")
    gone = await env.harness.click("Sneak", message=shown, user="player1")
    assert gone.ephemeral and "That saved roll was deleted" in gone.content
    assert len(await env.storage.rolls.recent(env.guild_id)) == 1


async def test_a_saved_standing_roll_spends_it_as_roll_stat_does(
    bot_env: BotEnv, vin: StoredCharacter
) -> None:
    env = bot_env
    await env.slash("/rolls save name:Bribe stat:resources", user="player1")
    tap = await env.harness.click("Bribe", message=await panel(env), user="player1")
    assert "Resources spent: 2 left" in card_text(rolled(tap))
    stored = await env.storage.characters.get(env.guild_id, vin.id)
    assert stored.character.spent.resources == 1


def gm_channel(env: BotEnv) -> int:
    channel = env.world.guild.channel("ooc")
    assert channel is not None
    return channel.id


async def test_a_hidden_villains_panel_is_the_narrators_and_rolls_as_gmroll(bot_env: BotEnv) -> None:
    env = bot_env
    await env.storage.settings.set(env.guild_id, GuildSettings(gm_channel_id=gm_channel(env)))
    thug = make_character(
        name="Thug", kind=CharacterKind.VILLAIN, owner_id=env.user_id("narrator"), attributes={"wits": 6}
    )
    await env.storage.characters.create(env.guild_id, thug)
    await env.slash("/rolls save name:Ambush stat:Wits traits:2 character:Thug")
    posted = await env.slash("/rolls panel character:Thug")
    assert posted.ephemeral and "Only the Narrators can roll" in posted.text  # never in the open
    assert posted.message is not None
    tap = await env.harness.click("Ambush", message=posted.message, user="narrator")
    assert tap.messages and all(m["flags"] & 64 for m in tap.messages)  # the table sees nothing
    assert "Wits 6 + 2 Traits = **8**" in card_text(tap.messages[0])
    copies = [m for m in env.harness.fake.messages.values() if m["channel_id"] == str(gm_channel(env))]
    assert len(copies) == 1 and "Secret roll" in card_text(copies[0])
    [logged] = await env.storage.rolls.recent(env.guild_id)
    assert logged.secret
    ooc = env.world.guild.channel("ooc")
    assert ooc is not None
    env.harness.channel = ooc
    there = await env.slash("/rolls panel character:Thug")
    assert not there.ephemeral  # the GM channel is the Narrators' own
