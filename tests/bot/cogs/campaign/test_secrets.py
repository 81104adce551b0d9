"""``/secret``: a Secret revealed to one Hero's player only, or to the table (docs/rulings.md
§10.3), through the real dispatch."""

from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text

WORDS = "Q7-the-hideout-is-under-the-bakery"


async def test_a_secret_revealed_to_one_hero_is_read_by_their_player_only(bot_env: BotEnv) -> None:
    env = bot_env
    for name, owner in (("Vin", "player1"), ("Elend", "player2")):
        character = make_character(name=name, kind=CharacterKind.HERO, owner_id=env.user_id(owner))
        await env.storage.characters.create(env.guild_id, character)
    player = await env.slash(f'/secret add title:"The hideout" text:{WORDS}', user="player1")
    assert player.ephemeral and "Only a Narrator" in player.content
    kept = await env.slash(f'/secret add title:"The hideout" text:{WORDS}')
    assert kept.ephemeral and WORDS in kept.content
    hinted = await env.harness.autocomplete("/secret reveal title:hid", user="player1")
    assert hinted.choices == []  # a title is never suggested to a player
    none = await env.slash("/secret list", user="player1")
    assert none.ephemeral and "hideout" not in none.content
    await env.slash("/session start", user="narrator")
    revealed = await env.slash('/secret reveal title:"The hideout" hero:Vin')
    assert not revealed.ephemeral and "**The hideout**" in revealed.content and WORDS not in revealed.content
    elend = await env.harness.click("Read it", message=revealed.message, user="player2")
    assert elend.ephemeral and WORDS not in elend.content and "not told to you" in elend.content
    vin = await env.harness.click("Read it", message=revealed.message, user="player1")
    assert vin.ephemeral and WORDS in vin.content
    listed = await env.slash("/secret list", user="player1")
    assert "The hideout" in listed.content
    card = await env.slash("/character show name:Vin", user="player2")
    assert card.message is not None and "**Secrets known**\n• The hideout" in card_text(card.message)
    ended = await env.slash("/session end", user="narrator")
    recap = card_text(ended.messages[0])
    assert "Vin learns a Secret: The hideout." in recap and WORDS not in recap
    await env.slash('/secret reveal title:"The hideout"')
    table = await env.harness.click("Read it", user="player2")
    assert table.ephemeral and WORDS in table.content  # told to the table now


async def test_a_secret_edited_and_deleted_follows_the_sheets_of_heroes_told(bot_env: BotEnv) -> None:
    env = bot_env
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"))
    await env.storage.characters.create(env.guild_id, vin)
    await env.slash(f'/secret add title:"The hideout" text:{WORDS}')
    await env.slash('/secret add title:"The Well" text:Power')
    await env.slash('/secret reveal title:"The hideout" hero:Vin')
    player = await env.slash('/secret edit title:"The hideout" text:nope', user="player1")
    assert player.ephemeral and "Only a Narrator" in player.content
    taken = await env.slash('/secret edit title:"The hideout" new_title:"The Well"')
    assert taken.ephemeral and "already" in taken.content
    edited = await env.slash('/secret edit title:"The hideout" new_title:"The bakery" text:Q8-new-words')
    assert edited.ephemeral and "**The bakery**" in edited.content and "Q8-new-words" in edited.content
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    assert stored.character.story.secrets_known == ("The bakery",)
    read = await env.harness.click("Read it", user="player1")
    assert read.ephemeral and "Q8-new-words" in read.content and WORDS not in read.content
    gone = await env.slash('/secret delete title:"The bakery"')
    assert gone.ephemeral and "deleted" in gone.content
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    assert stored.character.story.secrets_known == ()
    listed = await env.slash("/secret list")
    assert "The bakery" not in listed.content and "The Well" in listed.content
    again = await env.slash('/secret delete title:"The bakery"')
    assert again.ephemeral and "There is no Secret called The bakery" in again.content
