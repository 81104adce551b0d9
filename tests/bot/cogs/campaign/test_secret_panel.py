"""Revealing a Secret from the Narrator's private ``/secret list`` (docs/rulings.md §10.3), through
the real dispatch: the same card, journal entry, Secrets known and award offer as ``/secret
reveal``; working after a restart; a player's click refused privately; stale choices refused
plainly; the words never shown to anyone not told."""

import copy
from typing import Any

from fake_discord import payloads
from fake_discord.component_search import visible_to
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text

JSON = dict[str, Any]
WORDS = "Q7-the-hideout-is-under-the-bakery"
OTHER = "Z9-the-well-is-in-the-caves"


def current(env: BotEnv, message: JSON | None) -> JSON:
    """The message as the fake shows it now (after the bot's edits), kept as it is now."""
    assert message is not None
    return copy.deepcopy(env.harness.fake.messages[int(message["id"])])


def component(message: JSON, custom_id_start: str) -> JSON:
    found: list[JSON] = [
        c
        for row in message.get("components") or []
        for c in row.get("components") or []
        if str(c.get("custom_id", "")).startswith(custom_id_start)
    ]
    assert found, (custom_id_start, message.get("components"))
    return found[0]


def labels(menu: JSON) -> list[str]:
    return [o["label"] for o in menu["options"]]


async def forged(env: BotEnv, user: str, message: JSON, item: JSON, values: list[str] | None = None) -> Any:
    """``user`` using a component of a message they cannot see (a forged click)."""
    harness = env.harness
    return await harness.send(
        payloads.component_click(harness.world, harness.actor(user), message, item, values)
    )


def never_shown_to(env: BotEnv, user: str, *texts: str) -> None:
    member = env.harness.member(user)
    for message in env.harness.fake.messages.values():
        if visible_to(message, member):
            shown = str(message.get("content")) + str(message.get("components")) + str(message.get("embeds"))
            assert not any(text in shown for text in texts), message


async def heroes(env: BotEnv) -> None:
    for name, owner in (("Vin", "player1"), ("Elend", "player2")):
        character = make_character(name=name, kind=CharacterKind.HERO, owner_id=env.user_id(owner))
        await env.storage.characters.create(env.guild_id, character)
    thug = make_character(name="Thug", kind=CharacterKind.VILLAIN, owner_id=env.user_id("narrator"))
    await env.storage.characters.create(env.guild_id, thug)
    await env.slash(f'/secret add title:"The hideout" text:{WORDS}')
    await env.slash(f'/secret add title:"The Well" text:{OTHER}')


async def test_a_secret_revealed_to_one_hero_from_the_list_after_a_restart(bot_env: BotEnv) -> None:
    env = bot_env
    await heroes(env)
    await env.slash("/session start", user="narrator")
    theirs = await env.slash("/secret list", user="player1")
    assert theirs.ephemeral and not theirs.components and "hideout" not in theirs.content
    listed = await env.slash("/secret list")
    assert listed.ephemeral and "Reveal one from the menu" in listed.content
    menu = component(current(env, listed.message), "mab:tellsel")
    assert labels(menu) == ["The hideout", "The Well"] and WORDS not in str(menu)
    refused = await forged(env, "player2", current(env, listed.message), menu, [menu["options"][0]["value"]])
    assert refused.ephemeral and "Only a Narrator can reveal a Secret" in refused.content
    assert "hideout" not in refused.content

    await env.harness.select("mab:tellsel", ["The hideout"], message=current(env, listed.message))
    panel = current(env, listed.message)
    assert "Reveal **The hideout** (Story Secret) to whom?" in panel["content"] and WORDS not in str(panel)
    whom = component(panel, "mab:tellto:")
    assert labels(whom) == ["The whole table", "Elend", "Vin"]  # Heroes only: no Villain
    assert component(panel, "mab:tellgo:")["label"] == "Reveal to the table"
    await env.harness.select(whom["custom_id"], ["Vin"], message=panel)
    panel = current(env, listed.message)
    button = component(panel, "mab:tellgo:")
    assert button["label"] == "Reveal to Vin"
    player = await forged(env, "player1", panel, button)
    assert player.ephemeral and "Only a Narrator can reveal a Secret" in player.content

    await env.restart()
    revealed = await env.harness.click("Reveal to Vin", message=panel)
    card = revealed.messages[-2]
    assert not card["flags"] & payloads.EPHEMERAL
    assert "A Secret revealed to" in card["content"] and "Vin: **The hideout**" in card["content"]
    assert revealed.messages[-1]["flags"] & payloads.EPHEMERAL  # the award offered, privately
    assert "can earn Advancements" in revealed.messages[-1]["content"]
    closed = current(env, listed.message)
    assert closed["content"] == "Revealed **The hideout** to Vin." and not closed.get("components")
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    assert stored.character.story.secrets_known == ("The hideout",)
    elend = await env.harness.click("Read it", message=card, user="player2")
    assert elend.ephemeral and "not told to you" in elend.content
    vin = await env.harness.click("Read it", message=card, user="player1")
    assert vin.ephemeral and WORDS in vin.content

    again = await env.harness.click("Reveal to Vin", message=panel)  # the panel as it was: stale
    assert again.ephemeral and "Vin was told **The hideout** already" in again.content
    ended = await env.slash("/session end")
    recap = card_text(ended.messages[0])
    assert recap.count("Vin learns a Secret: The hideout.") == 1 and WORDS not in recap
    never_shown_to(env, "player2", WORDS, OTHER, "The Well")  # nor an untold Secret's title
    never_shown_to(env, "player1", OTHER, "The Well")


async def test_the_same_reveal_as_the_command_and_stale_choices_refused(bot_env: BotEnv) -> None:
    env = bot_env
    await heroes(env)
    listed = await env.slash("/secret list")
    await env.harness.select("mab:tellsel", ["The Well"], message=current(env, listed.message))
    table_panel = current(env, listed.message)
    await env.harness.select(
        component(table_panel, "mab:tellto:")["custom_id"], ["Elend"], message=table_panel
    )
    elend_panel = current(env, listed.message)

    typed = await env.slash('/secret reveal title:"The Well"')  # told to the table meanwhile
    assert not typed.ephemeral and "everyone at the table" in typed.content
    stale = await env.harness.click("Reveal to the table", message=table_panel)
    assert stale.ephemeral and "The table was told **The Well** already" in stale.content
    twice = await env.slash('/secret reveal title:"The Well"')
    assert twice.ephemeral and "The table was told **The Well** already" in twice.content
    told = await env.harness.click("Reveal to Elend", message=elend_panel)  # still news for her sheet
    assert "Elend: **The Well**" in told.messages[-2]["content"]
    relisted = await env.slash("/secret list")
    assert labels(component(current(env, relisted.message), "mab:tellsel")) == ["The hideout"]

    await env.harness.select("mab:tellsel", ["The hideout"], message=current(env, relisted.message))
    panel = current(env, relisted.message)
    await env.harness.select(component(panel, "mab:tellto:")["custom_id"], ["Vin"], message=panel)
    vin_panel = current(env, relisted.message)
    vin = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    await env.storage.characters.delete(env.guild_id, vin.id)
    gone = await env.harness.click("Reveal to Vin", message=vin_panel)
    assert gone.ephemeral and "That Hero is no longer in this server" in gone.content
    aimed = await env.harness.select(component(panel, "mab:tellto:")["custom_id"], ["Vin"], message=panel)
    assert aimed.ephemeral and "That Hero is no longer in this server" in aimed.content
    await env.slash('/secret delete title:"The hideout"')
    deleted = await env.harness.click("Reveal to Vin", message=vin_panel)
    assert deleted.ephemeral and "no longer kept here" in deleted.content
    assert not current(env, relisted.message).get("components")  # the stale panel closed
    never_shown_to(env, "player1", WORDS, OTHER)
