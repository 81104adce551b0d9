"""``/session``: a Narrator's night, its recap and its journal, through the real dispatch."""

import pytest

from fake_discord.payloads import JSON
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, make_character
from testbed.bot_env import ALLEY_BRAWL, BotEnv
from tests.bot.cogs.requests.test_requests import roll

EPHEMERAL = 64


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


SECRETS: dict[str, tuple[str, str]] = {
    "a /gmroll": ("/gmroll dice:5 label:Q7-AMBUSH", "Q7-AMBUSH"),
    "a secret request": ('/request roll stat:Charm heroes:"Elend" secret:true', "Elend"),
    "a hidden Villain's wound": ("/sheet damage amount:2 name:Thug", "Thug took 2"),
    "a hidden Villain's Burden": (
        '/burden add burden:"Q7 cracked rib" severity:serious name:Thug',
        "Q7 cracked rib",
    ),
}
"""Every kind of secret the bot keeps (docs/rulings.md §7.1), how the night makes it, and the
words that would give it away."""


async def night(env: BotEnv) -> InteractionRecord:
    """A session with a Conflict (Vin against the Thug, a hidden Villain), a Contest, and every
    secret of SECRETS, ended by the Narrator."""
    guild = env.guild_id
    for name, kind, owner, attributes in [
        ("Vin", CharacterKind.HERO, "player1", {"wits": 4}),
        ("Elend", CharacterKind.HERO, "player2", {}),
        ("Thug", CharacterKind.VILLAIN, "narrator", {"physique": 5}),
    ]:
        sheet = make_character(name=name, kind=kind, owner_id=env.user_id(owner), attributes=attributes)
        stored = await env.storage.characters.create(guild, sheet)
        if name == "Vin":
            await env.storage.active.set(guild, env.user_id(owner), stored.id)
    gm = env.world.guild.channels[1]
    await env.slash(f"/setup gm-channel channel:#{gm.name}")
    started = await env.slash('/session start title:"The alley"', user="narrator")
    assert not started.ephemeral, started.text
    await env.play(ALLEY_BRAWL)
    env.bot.conflicts.grace.seconds = 0
    await env.slash("/act dice:5", user="narrator")
    await env.harness.click("Don't defend", user="player1")
    await env.slash("/contest actor_dice:4 opponent_dice:3", user="player1")
    for line, _ in SECRETS.values():
        reply = await env.slash(line, user="narrator")
        assert not reply.errors, reply.text
    await roll(env, "player2", "Elend")
    await env.bot.conflicts.idle()
    ended = await env.slash("/conflict end", user="narrator")
    assert not ended.ephemeral, ended.text
    return await env.slash("/session end", user="narrator")


@pytest.mark.parametrize("secret", sorted(SECRETS))
async def test_the_tables_recap_keeps_every_secret_and_the_narrators_has_it(
    bot_env: BotEnv, secret: str
) -> None:
    env = bot_env
    ended = await night(env)
    public, private = ended.messages[0], ended.messages[-1]
    assert not int(public.get("flags") or 0) & EPHEMERAL and int(private.get("flags") or 0) & EPHEMERAL
    table, narrator = card_text(public), card_text(private)
    for part in (
        "A physical Conflict began, for A brawl in the alley",
        "Narrator ended the Conflict",
        "Contest:",
    ):
        assert part in table and part in narrator, (part, table)
    assert "Vin: " in table and "damage taken" in table
    _, words = SECRETS[secret]
    player = journal_of(env, await env.slash("/session journal", user="player1"))
    full = journal_of(env, await env.slash("/session journal", user="narrator"))
    assert words not in table and words not in player, (secret, table, player)
    assert words in full, (secret, full)


async def test_the_narrators_recap_files_villains_and_extras_under_their_own_headings(
    bot_env: BotEnv,
) -> None:
    """Issue 39: the tallies were all under "Heroes", a Villain's and an Extra's too."""
    env = bot_env
    for name, kind, owner in [
        ("Vin", CharacterKind.HERO, "player1"),
        ("Thug", CharacterKind.VILLAIN, "narrator"),
        ("Guard", CharacterKind.EXTRA, "narrator"),
    ]:
        sheet = make_character(name=name, kind=kind, owner_id=env.user_id(owner))
        await env.storage.characters.create(env.guild_id, sheet)
    await env.slash('/session start title:"The Keep"', user="narrator")
    for name in ("Vin", "Thug", "Guard"):
        hurt = await env.slash(f"/sheet damage amount:1 name:{name}", user="narrator")
        assert not hurt.errors, hurt.text
    recap = card_text((await env.slash("/session recap", user="narrator")).messages[0])
    assert "**Heroes**\n• Vin: 1 damage taken" in recap, recap
    assert "**Villains**\n• Thug: 1 damage taken" in recap, recap
    assert "**Extras**\n• Guard: 1 damage taken" in recap, recap
