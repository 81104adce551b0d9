"""``/session``: a Narrator's night, its recap and its journal, through the real dispatch."""

from fake_discord.payloads import JSON
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv


def card_text(message: JSON) -> str:
    """Every TextDisplay of a layout message, in order."""
    texts: list[str] = []

    def walk(components: list[JSON]) -> None:
        for component in components:
            if component.get("type") == 10:
                texts.append(str(component["content"]))
            walk(list(component.get("components") or []))

    walk(list(message.get("components") or []))
    return "\n".join(texts)


def journal_of(env: BotEnv, reply: InteractionRecord) -> str:
    attachment = reply.message["attachments"][0] if reply.message else {}
    return env.harness.fake.file_bytes(attachment).decode("utf-8")


async def test_a_night_from_start_to_recap(bot_env: BotEnv) -> None:
    env = bot_env
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"))
    stored = await env.storage.characters.create(env.guild_id, vin)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), stored.id)
    refused = await env.slash("/session start", user="player1")
    assert refused.ephemeral and "Only a Narrator" in refused.content
    started = await env.slash('/session start title:"The Keep"', user="narrator")
    assert not started.ephemeral and "The Keep" in started.content, started.content
    await env.slash("/roll dice:4", user="player1")
    await env.slash("/sheet damage amount:3", user="player1")
    await env.slash("/gmroll dice:5 label:Ambush", user="narrator")
    ended = await env.slash("/session end", user="narrator")
    public, private = ended.messages[0], ended.messages[-1]
    print(card_text(public))
    print(card_text(private))
    assert "Vin: 3 damage taken" in card_text(public)
    assert "Narrator's version" in card_text(private)
    journal = await env.slash("/session journal", user="player1")
    text = journal_of(env, journal)
    print(text)
    assert "took 3 Health damage" in text and "Ambush" not in text
    full = journal_of(env, await env.slash("/session journal", user="narrator"))
    assert "Ambush" in full
