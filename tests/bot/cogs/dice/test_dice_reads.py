"""What a roll and a sheet read from the database: the common ones read it in one go (issue 31).

A stat roll from the active sheet reads that sheet, the server's settings (who is a Narrator)
and the channel's Circumstances in ONE lookup; ``/character show`` of a whole name reads the
sheet by that name, with no search. Each still applies what it read as before: the scene's
Circumstances, the Narrator's roles, control of the sheet.
"""

from collections.abc import Sequence
from typing import Any

import pytest

from rules.character import CharacterKind, make_character
from storage import GuildSettings
from storage.scenes import SceneCircumstances
from testbed.bot_env import BotEnv
from testbed.cards import card_field, card_text

MISTS = SceneCircumstances(net=-1, note="in the mists")


TABLES = ("active_characters", "guild_settings", "scene_circumstances", "FROM characters")
"""What a roll or a sheet reads (the bot's background workers read other tables meanwhile)."""


@pytest.fixture
def reads(bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each query of a sheet, the settings or a scene made on the loop's lookup connection."""
    conn = bot_env.storage.sqlite.lookup
    made: list[str] = []
    fetch = conn.execute_fetchall

    async def counted(sql: str, params: Sequence[object] = ()) -> list[Any]:
        if any(table in sql for table in TABLES):
            made.append(sql)
        return await fetch(sql, params)

    monkeypatch.setattr(conn, "execute_fetchall", counted)
    return made


async def test_a_stat_roll_reads_sheet_settings_and_scene_in_one_lookup(
    vin: BotEnv, reads: list[str]
) -> None:
    channel = vin.world.guild.channels[0]
    await vin.storage.scenes.set_circumstances(vin.guild_id, channel.id, MISTS)
    await vin.storage.settings.set(vin.guild_id, GuildSettings(narrator_role_ids=(12345,)))
    reads.clear()
    reply = await vin.slash("/roll stat:Steel", user="player1")
    assert len(reads) == 1
    assert reply.message is not None and not reply.ephemeral
    assert card_field(reply.message, "Pool").startswith("Steel 4 − Circumstances = **3**")
    assert "-1 (the Narrator's, for this scene: in the mists)" in card_text(reply.message)
    assert len(await vin.storage.rolls.recent(vin.guild_id)) == 1


async def test_a_narrator_by_role_rolls_their_active_villain_in_one_read(bot_env: BotEnv) -> None:
    """The settings read with the sheet decide who is asking: the Keeper role made a Narrator's
    lets player2 roll for the Villain they hold active, and nothing else grants it."""
    keeper = next(r for r in bot_env.world.guild.roles if r.name == "Keeper")
    player2 = bot_env.user_id("player2")
    thug = make_character(
        name="Thug", kind=CharacterKind.VILLAIN, owner_id=player2, attributes={"physique": 5}
    )
    stored = await bot_env.storage.characters.create(bot_env.guild_id, thug)
    await bot_env.storage.active.set(bot_env.guild_id, player2, stored.id)
    refused = await bot_env.slash("/roll stat:Physique", user="player2")
    assert refused.ephemeral and "the Narrator's" in refused.content
    await bot_env.storage.settings.set(bot_env.guild_id, GuildSettings(narrator_role_ids=(keeper.id,)))
    rolled = await bot_env.slash("/roll stat:Physique", user="player2")
    assert not rolled.ephemeral and rolled.message is not None
    assert card_field(rolled.message, "Pool") == "5 dice"  # the hidden Thug's rating is theirs (§7.1)
    [full] = [m for m in rolled.messages if m["flags"] & 64]
    assert card_field(full, "Pool").startswith("Physique 5")
    assert len(await bot_env.storage.rolls.recent(bot_env.guild_id)) == 1


async def test_stat_suggestions_read_once(vin: BotEnv, reads: list[str]) -> None:
    reads.clear()
    reply = await vin.harness.autocomplete("/roll stat:st", user="player1")
    assert [c["value"] for c in reply.choices] == ["Steel"]
    assert len(reads) == 1


async def test_a_whole_name_is_read_without_a_search(
    vin: BotEnv, monkeypatch: pytest.MonkeyPatch, reads: list[str]
) -> None:
    """A Hero's sheet is anyone's to read: shown by its whole name, it is one read by that name,
    with no search and no settings read (nobody needs to be a Narrator to read it)."""
    searched: list[str] = []
    find = vin.storage.characters.find

    async def counted_find(*args: object, **kwargs: object) -> object:
        searched.append(str(args[1]))
        return await find(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(vin.storage.characters, "find", counted_find)
    reads.clear()
    shown = await vin.slash("/character show name:vin", user="player2")
    assert not shown.ephemeral and shown.message is not None and "Vin" in card_text(shown.message)
    assert searched == [] and len(reads) == 1 and "guild_settings" not in reads[0]
    partial = await vin.slash("/character show name:vi", user="player2")
    assert partial.message is not None and "Vin" in card_text(partial.message)
    assert searched == ["vi"]


async def test_a_secret_sheet_named_in_full_is_still_the_narrators(bot_env: BotEnv) -> None:
    """Read by its whole name too, a Villain is refused to a player and shown to a Narrator by
    role: who is asking is read when the sheet is secret (docs/rulings.md §7.1)."""
    keeper = next(r for r in bot_env.world.guild.roles if r.name == "Keeper")
    thug = make_character(name="Thug", kind=CharacterKind.VILLAIN, owner_id=bot_env.user_id("narrator"))
    await bot_env.storage.characters.create(bot_env.guild_id, thug)
    refused = await bot_env.slash("/character show name:Thug", user="player2")
    assert refused.ephemeral and "Narrator's characters" in refused.content
    await bot_env.storage.settings.set(bot_env.guild_id, GuildSettings(narrator_role_ids=(keeper.id,)))
    shown = await bot_env.slash("/character show name:Thug", user="player2")
    assert shown.ephemeral and shown.message is not None and "Thug" in card_text(shown.message)


async def test_rolling_ones_own_hero_by_name_reads_no_settings(vin: BotEnv, reads: list[str]) -> None:
    """A Hero's owner rolls it whoever they are (docs/rulings.md §6.9): named, it is one read of
    the sheet and one of the scene, and nobody's roles are judged; another player is still
    refused, and a Narrator by role still rolls it."""
    reads.clear()
    mine = await vin.slash("/roll stat:Steel character:Vin", user="player1")
    assert mine.message is not None and not mine.ephemeral
    assert not [sql for sql in reads if "guild_settings" in sql]
    refused = await vin.slash("/roll stat:Steel character:Vin", user="player2")
    assert refused.ephemeral and "not yours" in refused.content
    keeper = next(r for r in vin.world.guild.roles if r.name == "Keeper")
    await vin.storage.settings.set(vin.guild_id, GuildSettings(narrator_role_ids=(keeper.id,)))
    narrated = await vin.slash("/roll stat:Steel character:Vin", user="player2")
    assert narrated.message is not None and not narrated.ephemeral
    assert len(await vin.storage.rolls.recent(vin.guild_id)) == 2
