"""``/edit ratings`` through the real dispatch: the three Attributes or Standings and the build
labels in one form of menus, through the same checks as every ``/edit``; a refused form can be
opened again with what was picked, and a sheet changed meanwhile is not overwritten."""

from fake_discord import modal_parts, payloads
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv

LABELS = "Strong Attributes, average Standings, weak Powers"


async def make(env: BotEnv) -> StoredCharacter:
    character = make_character(
        name="Vin",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        attributes={"physique": 3, "charm": 4, "wits": 6},
        standings={"resources": 4},
        spent={"resources": 2},
    )
    return await env.storage.characters.create(env.guild_id, character)


def picks(record: InteractionRecord) -> dict[str, object]:
    assert record.modal is not None, record.text
    return {p["label"]: p["value"] for p in modal_parts.fields(record.modal)}


async def stored(env: BotEnv) -> StoredCharacter:
    return await env.storage.characters.get_by_name(env.guild_id, "Vin")


async def test_three_attributes_and_the_labels_in_two_interactions(bot_env: BotEnv) -> None:
    """Before the form: three ``/edit attribute`` and one ``/edit build``, four interactions."""
    await make(bot_env)
    opened = await bot_env.slash("/edit ratings part:Attributes name:Vin", user="player1")
    assert picks(opened) == {
        "Physique": ["3"],
        "Charm": ["4"],
        "Wits": ["6"],
        "Strong, average and weak": ["none"],
    }, "the menus open at the sheet's numbers"
    saved = await bot_env.harness.submit(
        {"Physique": "6", "Charm": "5", "Wits": "2", "Strong, average and weak": LABELS}, user="player1"
    )
    assert saved.ephemeral and "Physique 6 · Charm 5 · Wits 2." in str(saved.embeds), saved.text
    vin = (await stored(bot_env)).character
    assert vin.attributes.model_dump() == {"physique": 6, "charm": 5, "wits": 2}
    assert vin.build is not None and vin.build.attributes.value == "strong"


async def test_a_refused_form_changes_nothing_and_opens_again_with_the_picks(bot_env: BotEnv) -> None:
    before = await make(bot_env)
    await bot_env.slash("/edit ratings part:Standings name:Vin", user="player1")
    refused = await bot_env.harness.submit({"Resources": "2", "Spirit": "7"}, user="player1")
    assert refused.ephemeral and "Not saved" in refused.content and "cannot have 2 spent" in refused.content
    after = await stored(bot_env)
    assert after.version == before.version and after.character == before.character
    again = await bot_env.harness.click("Open the form again", user="player1")
    assert picks(again) == {
        "Resources": ["2"],
        "Influence": ["2"],
        "Spirit": ["7"],
        "Strong, average and weak": ["none"],
    }
    fixed = await bot_env.harness.submit({"Resources": "3"}, user="player1")
    assert "Resources 3 · Influence 2 · Spirit 7." in str(fixed.embeds), fixed.text
    assert (await stored(bot_env)).character.standings.model_dump() == {
        "resources": 3,
        "influence": 2,
        "spirit": 7,
    }


async def test_a_sheet_changed_since_the_form_opened_is_not_overwritten(bot_env: BotEnv) -> None:
    await make(bot_env)
    await bot_env.slash("/edit ratings part:Attributes name:Vin", user="player1")
    await bot_env.slash("/edit attribute attribute:Wits value:7 name:Vin", user="player1")
    late = await bot_env.harness.submit({"Physique": "5"}, user="player1")
    assert late.ephemeral and "changed since this form opened" in late.content, late.text
    assert (await stored(bot_env)).character.attributes.model_dump() == {"physique": 3, "charm": 4, "wits": 7}


async def test_only_who_controls_the_sheet_opens_its_form(bot_env: BotEnv) -> None:
    await make(bot_env)
    refused = await bot_env.slash("/edit ratings part:Attributes name:Vin", user="player2")
    assert refused.modal is None and refused.ephemeral and "not yours" in refused.content


async def test_a_forged_rating_is_refused_without_a_button(bot_env: BotEnv) -> None:
    before = await make(bot_env)
    opened = await bot_env.slash("/edit ratings part:Attributes name:Vin", user="player1")
    assert opened.modal is not None
    harness = bot_env.harness
    forged = payloads.modal_submit(harness.world, harness.actor("player1"), opened.modal, {"physique": "11"})
    reply = await harness.send(forged)
    assert reply.ephemeral and "not one of the choices" in reply.content and not reply.components
    assert (await stored(bot_env)).version == before.version
