"""``/character`` and the "View sheet" menu through the real discord.py dispatch.

Each test asserts the reply and what was stored; refusals must leave storage as it was.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from fake_discord import payloads
from fake_discord.payloads import JSON
from rules.character import Character, CharacterKind, export_character, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv
from testbed.cards import card_text


async def make(
    env: BotEnv, name: str = "Vin", owner: str = "player1", guild_id: int | None = None, **fields: Any
) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    character = make_character(name=name, owner_id=env.user_id(owner), **fields)
    return await env.storage.characters.create(guild_id or env.guild_id, character)


async def snapshot(env: BotEnv) -> list[tuple[int, int, Character]]:
    """Every stored character in the server with its version: what a refusal must not change."""
    return [(s.id, s.version, s.character) for s in await env.storage.characters.list_by_guild(env.guild_id)]


def field(embed: JSON, name: str) -> str:
    value: str = next(f["value"] for f in embed["fields"] if f["name"] == name)
    return value


async def test_create_hero_is_stored_shown_and_made_active(bot_env: BotEnv) -> None:
    reply = await bot_env.slash(
        '/character create name:Vin concept:"Street *thief*" physique:4 charm:3 wits:6 '
        "resources:4 influence:3 spirit:4",
        user="player1",
    )
    assert reply.message is not None and not reply.ephemeral
    sheet = card_text(reply.message)
    assert "now your active character" in sheet
    assert "## Vin — Hero" in sheet and "Street \\*thief\\*" in sheet
    assert "**Resiliences**\nHealth **8**/8" in sheet
    stored = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "vin")
    assert stored.character.owner_id == bot_env.user_id("player1")
    assert stored.character.attributes.wits == 6 and stored.character.standings.resources == 4
    active = await bot_env.storage.active.get(bot_env.guild_id, bot_env.user_id("player1"))
    assert active is not None and active.id == stored.id
    assert not bot_env.harness.violations


async def test_create_reports_hero_build_advice_without_blocking(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/character create name:Kelsier physique:9", user="player1")
    assert reply.message is not None
    advice = card_text(reply.message).split("**Hero build check (advice only)**\n")[1]
    assert "Physique runs from 2 to 6" in advice
    assert (
        await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Kelsier")
    ).character.attributes.physique == 9


async def test_second_hero_does_not_replace_the_active_one(bot_env: BotEnv) -> None:
    await bot_env.slash("/character create name:Vin physique:2", user="player1")
    reply = await bot_env.slash("/character create name:Spook physique:2", user="player1")
    assert reply.message is not None and "active" not in card_text(reply.message)
    active = await bot_env.storage.active.get(bot_env.guild_id, bot_env.user_id("player1"))
    assert active is not None and active.name == "Vin"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/character create name:Straff kind:Villain", "Only a Narrator can create Villains and Extras"),
        ("/character create name:Guards kind:Extra size:5", "Only a Narrator can create Villains and Extras"),
        ("/character create name:Elend owner:@player2", "Only a Narrator can create a character for another"),
        ("/character create name:Vin size:3", "Only Extras come in groups"),
        ("/character create name:Vin", "already a character named Vin"),
        ('/character create name:"   "', "name cannot be empty"),
    ],
)
async def test_create_refusals_store_nothing(bot_env: BotEnv, line: str, message: str) -> None:
    await make(bot_env, "Vin", owner="player2")
    before = await snapshot(bot_env)
    reply = await bot_env.slash(line, user="player1")
    assert reply.ephemeral and message in reply.content
    assert await snapshot(bot_env) == before


async def test_narrator_creates_villains_extras_and_heroes_for_players(bot_env: BotEnv) -> None:
    villain = await bot_env.slash("/character create name:Straff kind:Villain wits:8")
    assert villain.message is not None and villain.ephemeral
    assert "## Straff — Villain" in card_text(villain.message)
    guards = await bot_env.slash("/character create name:Guards kind:Extra size:6")
    assert guards.message is not None and "6 standing" in card_text(guards.message)
    await bot_env.slash("/character create name:Elend owner:@player2")
    stored = {s.name: s.character for s in await bot_env.storage.characters.list_by_guild(bot_env.guild_id)}
    assert stored["Straff"].kind is CharacterKind.VILLAIN and stored["Straff"].owner_id == bot_env.user_id(
        "narrator"
    )
    assert stored["Guards"].size == 6 and stored["Elend"].owner_id == bot_env.user_id("player2")
    active = await bot_env.storage.active.get(bot_env.guild_id, bot_env.user_id("player2"))
    assert active is not None and active.name == "Elend"  # made for them: their active Hero (issue 17, 5)


async def test_show_named_active_private_and_missing(bot_env: BotEnv) -> None:
    stored = await make(bot_env, "Vin", concept="Survivor's heir")
    shown = await bot_env.slash("/character show name:VIN", user="player2")
    assert shown.message is not None and not shown.ephemeral and "## Vin — Hero" in card_text(shown.message)
    private = await bot_env.slash("/character show name:Vin private:true", user="player2")
    assert private.ephemeral
    none = await bot_env.slash("/character show", user="player1")
    assert none.ephemeral and "no active character" in none.content
    await bot_env.storage.active.set(bot_env.guild_id, bot_env.user_id("player1"), stored.id)
    active = await bot_env.slash("/character show", user="player1")
    assert active.message is not None and "## Vin — Hero" in card_text(active.message)


async def test_a_mistyped_name_gets_a_did_you_mean_but_never_a_hidden_sheet(bot_env: BotEnv) -> None:
    """As a mistyped stat does (docs/rulings.md §8.4), among the sheets the caller may read
    (§7.1): the Narrator's hidden Thug is suggested to the Narrator, never to a player."""
    await make(bot_env, "Vin")
    await make(bot_env, "Thug", owner="narrator", kind=CharacterKind.VILLAIN)
    mistyped = await bot_env.slash("/character show name:Vinn", user="player1")
    assert mistyped.ephemeral and mistyped.content == (
        "There is no character named Vinn in this server; `/character list` shows the sheets here. "
        "Did you mean Vin?"
    ), mistyped.content
    hidden = await bot_env.slash("/sheet heal amount:1 name:Thugg", user="player1")
    assert hidden.ephemeral and "no character named Thugg" in hidden.content
    assert "Thug?" not in hidden.content and "Did you mean" not in hidden.content, hidden.content
    narrator = await bot_env.slash("/character show name:Thugg", user="narrator")
    assert narrator.ephemeral and narrator.content.endswith("Did you mean Thug?"), narrator.content
    await bot_env.slash('/conflict start kind:physical stakes:"A brawl"', user="narrator")
    await bot_env.slash("/conflict add character:Thug", user="narrator")
    fighter = await bot_env.slash("/burn metal:Pewter who:Thugg", user="narrator")
    assert "Nobody called Thugg is in this Conflict. Did you mean Thug? In it: Thug." in fighter.content


async def test_character_in_another_server_is_invisible(bot_env: BotEnv) -> None:
    await make(bot_env, "Marsh", owner="player1", guild_id=bot_env.guild_id + 1)
    for line in ("/character show name:Marsh", "/edit attribute attribute:Wits value:5 name:Marsh"):
        reply = await bot_env.slash(line, user="player1")
        assert reply.ephemeral and "no character named Marsh" in reply.content
    listed = await bot_env.slash("/character list", user="player1")
    assert "Marsh" not in listed.embeds[0]["description"]
    choices = await bot_env.harness.autocomplete("/character show name:Ma", user="player1")
    assert choices.choices == []
    other = await bot_env.storage.characters.get_by_name(bot_env.guild_id + 1, "Marsh")
    assert other.version == 1


async def test_list_shows_names_kinds_owners_and_filters(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin")
    await make(bot_env, "Straff", owner="narrator", kind=CharacterKind.VILLAIN)
    everyone = await bot_env.slash("/character list", user="player2")
    text = everyone.embeds[0]["description"]
    # docs/rulings.md §7.1: players list Heroes only; the Narrator sees Straff, privately.
    assert "Straff" not in text and f"<@{bot_env.user_id('player1')}>" in text and not everyone.ephemeral
    narrator = await bot_env.slash("/character list", user="narrator")
    listed = narrator.embeds[0]["description"]
    assert narrator.ephemeral and "**Straff** · Villain · <@" in listed and "hidden from players" in listed
    mine = await bot_env.slash("/character list member:@player1 private:true", user="player2")
    assert mine.ephemeral and "Vin" in mine.embeds[0]["description"]
    assert "Straff" not in mine.embeds[0]["description"]


async def test_rename_own_character(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin")
    await make(bot_env, "Elend", owner="player2")
    reply = await bot_env.slash("/character rename name:vin new_name:Valette", user="player1")
    assert reply.ephemeral and "Renamed **Vin** to **Valette**" in reply.embeds[0]["description"]
    assert (await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Valette")).version == 2
    before = await snapshot(bot_env)
    taken = await bot_env.slash("/character rename name:Valette new_name:elend", user="player1")
    assert taken.ephemeral and "already a character named" in taken.content
    theirs = await bot_env.slash("/character rename name:Elend new_name:Tindwyl", user="player1")
    assert theirs.ephemeral and "not yours" in theirs.content
    assert await snapshot(bot_env) == before


async def test_delete_asks_and_deletes_on_confirm(bot_env: BotEnv) -> None:
    stored = await make(bot_env, "Vin")
    await bot_env.storage.active.set(bot_env.guild_id, bot_env.user_id("player1"), stored.id)
    question = await bot_env.slash("/character delete name:Vin", user="player1")
    assert question.ephemeral and "Delete **Vin** for good?" in question.content
    assert await bot_env.storage.characters.list_by_guild(bot_env.guild_id)
    done = await bot_env.harness.click("Delete", user="player1")
    assert done.content == "Deleted **Vin**." and done.components == []
    assert await bot_env.storage.characters.list_by_guild(bot_env.guild_id) == []
    assert await bot_env.storage.active.get(bot_env.guild_id, bot_env.user_id("player1")) is None


async def test_delete_cancel_keeps_the_character(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin")
    before = await snapshot(bot_env)
    await bot_env.slash("/character delete name:Vin", user="player1")
    kept = await bot_env.harness.click("Cancel", user="player1")
    assert "nothing was deleted" in kept.content and kept.components == []
    assert await snapshot(bot_env) == before


async def test_delete_refused_for_others_and_only_the_asker_may_click(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin")
    before = await snapshot(bot_env)
    refused = await bot_env.slash("/character delete name:Vin", user="player2")
    assert refused.ephemeral and "not yours" in refused.content and not refused.components
    await bot_env.slash("/character delete name:Vin", user="narrator")
    harness = bot_env.harness
    message, button = harness.find_component("Delete", harness.member("narrator"))
    intruder = await harness.send(
        payloads.component_click(bot_env.world, harness.actor("player2"), message, button)
    )
    assert intruder.ephemeral and "Only the member who asked" in intruder.content
    assert await snapshot(bot_env) == before


async def test_delete_does_not_remove_a_sheet_changed_meanwhile(bot_env: BotEnv) -> None:
    stored = await make(bot_env, "Vin")
    await bot_env.slash("/character delete name:Vin", user="player1")
    changed = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=bot_env.user_id("player1"), notes="new"
    )
    await bot_env.storage.characters.update(bot_env.guild_id, stored, changed)
    reply = await bot_env.harness.click("Delete", user="player1")
    assert "Someone else changed Vin" in reply.content and reply.components == []
    assert (await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")).character.notes == "new"


async def test_delete_confirmation_times_out(bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cogs.characters.views import DeleteView

    monkeypatch.setattr(DeleteView, "TIMEOUT", 0.2)
    await make(bot_env, "Vin")
    question = await bot_env.slash("/character delete name:Vin", user="player1")
    assert await question.wait_for(lambda r: "No answer" in r.content, 3)
    assert question.components == []
    assert len(await bot_env.storage.characters.list_by_guild(bot_env.guild_id)) == 1


async def test_the_delete_question_survives_a_restart(bot_env: BotEnv) -> None:
    """The buttons carry the character, its version and the asker: a new process answers them."""
    await make(bot_env, "Vin")
    await make(bot_env, "Elend")
    vin_question = (await bot_env.slash("/character delete name:Vin", user="player1")).message
    elend_question = (await bot_env.slash("/character delete name:Elend", user="player1")).message
    assert vin_question is not None and elend_question is not None
    await bot_env.restart()
    harness = bot_env.harness
    kept = await harness.click("Cancel", message=elend_question, user="player1")
    assert kept.content == "Kept **Elend**: nothing was deleted." and kept.components == []
    done = await harness.click("Delete", message=vin_question, user="player1")
    assert done.content == "Deleted **Vin**." and done.components == []
    assert [s.name for s in await bot_env.storage.characters.list_by_guild(bot_env.guild_id)] == ["Elend"]


async def test_after_a_restart_a_stale_or_expired_question_deletes_nothing(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = await make(bot_env, "Vin")
    await make(bot_env, "Elend")
    vin_question = (await bot_env.slash("/character delete name:Vin", user="player1")).message
    changed = stored.character.model_copy(update={"notes": "new"})
    await bot_env.storage.characters.update(bot_env.guild_id, stored, changed)
    elend_question = (await bot_env.slash("/character delete name:Elend", user="player1")).message
    assert vin_question is not None and elend_question is not None
    await bot_env.restart()
    stale = await bot_env.harness.click("Delete", message=vin_question, user="player1")
    assert "Someone else changed Vin" in stale.content and stale.components == []

    from bot.cogs.characters.views import DeleteView

    monkeypatch.setattr(DeleteView, "TIMEOUT", 0.0)  # the question is older than that
    expired = await bot_env.harness.click("Delete", message=elend_question, user="player1")
    assert expired.content == "No answer, so **Elend** was kept." and expired.components == []
    assert len(await bot_env.storage.characters.list_by_guild(bot_env.guild_id)) == 2


async def test_use_sets_the_active_character_for_controllers_only(bot_env: BotEnv) -> None:
    vin = await make(bot_env, "Vin")
    await make(bot_env, "Straff", owner="narrator", kind=CharacterKind.VILLAIN)
    reply = await bot_env.slash("/character use name:vin", user="player1")
    assert reply.ephemeral and "**Vin** is now your active character" in reply.embeds[0]["description"]
    active = await bot_env.storage.active.get(bot_env.guild_id, bot_env.user_id("player1"))
    assert active is not None and active.id == vin.id
    refused = await bot_env.slash("/character use name:Straff", user="player1")
    assert refused.ephemeral and "one of the Narrator's characters" in refused.content  # §7.1
    active = await bot_env.storage.active.get(bot_env.guild_id, bot_env.user_id("player1"))
    assert active is not None and active.id == vin.id
    narrator = await bot_env.slash("/character use name:Vin", user="narrator")
    assert not narrator.content and narrator.ephemeral


async def test_export_then_import_under_a_new_name(bot_env: BotEnv, tmp_path: Path) -> None:
    await make(
        bot_env, "Vin", concept="Mistborn", powers=[{"type": "allomancy", "name": "Steel", "rating": 4}]
    )
    exported = await bot_env.slash("/character export name:Vin", user="player2")
    assert exported.ephemeral and "/character import" in exported.content
    assert exported.message is not None
    attachment = exported.message["attachments"][0]
    assert attachment["filename"] == "Vin.json"
    data = bot_env.harness.fake.file_bytes(attachment)
    assert json.loads(data)["character"]["concept"] == "Mistborn"
    path = tmp_path / "vin.json"
    path.write_bytes(data)
    clash = await bot_env.slash(f'/character import file:"{path}"', user="player2")
    assert clash.ephemeral and "under another name with the `name` option" in clash.content
    copied = await bot_env.slash(f'/character import file:"{path}" name:Valette', user="player2")
    assert copied.message is not None and copied.ephemeral
    assert "Imported **Valette**" in card_text(copied.message)
    stored = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Valette")
    assert stored.character.owner_id == bot_env.user_id("player2")
    assert stored.character.powers[0].name == "Steel" and stored.character.concept == "Mistborn"


async def test_import_villain_needs_a_narrator_who_keeps_the_files_owner(
    bot_env: BotEnv, tmp_path: Path
) -> None:
    straff = make_character(name="Straff", kind=CharacterKind.VILLAIN, owner_id=42)
    path = tmp_path / "straff.json"
    path.write_text(export_character(straff))
    refused = await bot_env.slash(f'/character import file:"{path}"', user="player1")
    assert refused.ephemeral and "Only a Narrator can import Villains" in refused.content
    assert await snapshot(bot_env) == []
    await bot_env.slash(f'/character import file:"{path}"', user="narrator")
    stored = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Straff")
    assert stored.character.owner_id == 42
    hero = tmp_path / "vin.json"
    hero.write_text(export_character(make_character(name="Vin", kind="hero", owner_id=42)))
    await bot_env.slash(f'/character import file:"{hero}" owner:@player1', user="narrator")
    vin = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")
    assert vin.character.owner_id == bot_env.user_id("player1")


HOSTILE = {
    "not json": (b"this is not json", "not valid JSON"),
    "too large": (b"{" + b" " * 600_000 + b"}", "a Roll20 export: 512 KiB"),
    "ours too large": (b'{"schema_version": 1, "character": {}' + b" " * 70_000 + b"}", "at most 64 KiB"),
    "wrong schema": (
        json.dumps({"schema_version": 1, "character": {"name": "X"}}).encode(),
        "cannot be imported",
    ),
    # The rules' words are shown inert (bot.text): the underscore is escaped, and reads the same.
    "future version": (json.dumps({"schema_version": 9, "character": {}}).encode(), "schema\\_version is 9"),
    "not a sheet": (b"[1, 2, 3]", "not a character sheet"),
    "deep nesting": (b"[" * 5000 + b"]" * 5000, "not a character sheet"),
    "huge number": (
        json.dumps(
            {"schema_version": 1, "character": {"name": "X", "kind": "hero", "owner_id": 10**40}}
        ).encode(),
        "cannot be imported",
    ),
    "binary": (bytes(range(256)), "not valid JSON"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
async def test_malformed_imports_give_one_clear_private_error(
    bot_env: BotEnv, tmp_path: Path, case: str
) -> None:
    data, message = HOSTILE[case]
    path = tmp_path / "sheet.json"
    path.write_bytes(data)
    reply = await bot_env.slash(f'/character import file:"{path}"', user="player1")
    assert len(reply.messages) == 1 and reply.ephemeral
    assert message in reply.content, reply.content
    assert await snapshot(bot_env) == []


async def test_view_sheet_menu_shows_the_members_active_character(bot_env: BotEnv) -> None:
    stored = await make(bot_env, "Vin")
    none = await bot_env.harness.user_menu("View sheet", "player1", user="player2")
    assert none.ephemeral and "player1 has no active character" in none.content
    await bot_env.storage.active.set(bot_env.guild_id, bot_env.user_id("player1"), stored.id)
    shown = await bot_env.harness.user_menu("View sheet", "player1", user="player2")
    assert shown.message is not None and shown.ephemeral and "## Vin — Hero" in card_text(shown.message)


async def test_name_autocomplete_reads_all_but_edits_only_your_own(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin")
    await make(bot_env, "Valette", owner="player2")
    await make(bot_env, "Vorin", owner="narrator", kind=CharacterKind.VILLAIN)
    read = await bot_env.harness.autocomplete("/character show name:v", user="player1")
    assert [c["value"] for c in read.choices] == ["Valette", "Vin"]  # the Villain is the Narrator's
    everything = await bot_env.harness.autocomplete("/character show name:v", user="narrator")
    assert [c["value"] for c in everything.choices] == ["Valette", "Vin", "Vorin"]
    own = await bot_env.harness.autocomplete("/character use name:v", user="player1")
    assert [c["value"] for c in own.choices] == ["Vin"]
    narrator = await bot_env.harness.autocomplete("/edit trait slot:Drive name:v", user="narrator")
    assert len(narrator.choices) == 3
