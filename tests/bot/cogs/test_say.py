"""``/say`` through the real dispatch: a line posted as a character through the channel's
webhook, made once and reused, refused for someone else's character, and posted by the bot
itself where it lacks Manage Webhooks (docs/rulings.md §7.5)."""

from pathlib import Path

from fake_discord.payloads import JSON
from fake_discord.permissions import MANAGE_WEBHOOKS
from fake_discord.render import render_message
from fake_discord.world import FakeChannel
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, running_bot_env, table_world
from testbed.console import run_console


def spoken(env: BotEnv) -> list[JSON]:
    """Messages posted through a channel webhook, oldest first."""
    hooks = env.harness.fake.webhooks
    return [m for m in env.harness.fake.messages.values() if int(m.get("webhook_id") or 0) in hooks]


def creates(env: BotEnv) -> int:
    return sum(1 for r in env.harness.fake.requests if r.startswith("POST /channels/") and "/webhooks" in r)


async def make_villain(env: BotEnv, name: str = "Straff") -> None:
    character = make_character(name=name, kind=CharacterKind.VILLAIN, owner_id=env.user_id("narrator"))
    await env.storage.characters.create(env.guild_id, character)


async def test_a_player_speaks_as_their_hero_without_pinging(vin: BotEnv) -> None:
    player2 = vin.user_id("player2")
    text = f"Kelsier would laugh. <@{player2}> @everyone, *move*."
    reply = await vin.slash(f"/say text:{text}", user="player1")
    assert reply.ephemeral and "Said as Vin." in reply.content
    [line] = spoken(vin)
    assert line["author"]["username"] == "Vin" and line["content"] == text
    assert line["mentions"] == [] and not line["mention_everyone"]
    assert line["channel_id"] == str(vin.harness.channel.id)
    assert "interaction_metadata" not in line


async def test_the_webhook_is_made_once_and_found_again_after_a_restart(vin: BotEnv) -> None:
    await vin.slash("/say text:One.", user="player1")
    await vin.slash("/say text:Two. character:Vin", user="player1")
    assert creates(vin) == 1 and len(vin.harness.fake.webhooks) == 1
    await vin.restart()
    await vin.slash("/say text:Three.", user="player1")
    assert creates(vin) == 1 and len(vin.harness.fake.webhooks) == 1
    assert [m["content"] for m in spoken(vin)] == ["One.", "Two.", "Three."]
    assert vin.harness.fake.requests.count(f"GET /channels/{vin.harness.channel.id}/webhooks") == 2


async def test_nobody_speaks_as_someone_elses_character(vin: BotEnv) -> None:
    await make_villain(vin)
    refused = await vin.slash("/say text:Mine now. character:Vin", user="player2")
    assert refused.ephemeral and "Vin is not yours, so you cannot speak as them" in refused.content
    villain = await vin.slash("/say text:Kneel. character:Straff", user="player1")
    assert villain.ephemeral and "Straff" in villain.content and "Said as" not in villain.content
    assert spoken(vin) == [] and creates(vin) == 0
    assert not [m for m in vin.harness.fake.messages.values() if "Mine now." in m["content"]]


async def test_a_narrator_speaks_as_a_villain(vin: BotEnv) -> None:
    await make_villain(vin)
    reply = await vin.slash("/say text:You will kneel. character:Straff", user="narrator")
    assert reply.ephemeral and "Said as Straff." in reply.content
    [line] = spoken(vin)
    assert (line["author"]["username"], line["content"]) == ("Straff", "You will kneel.")


async def test_without_manage_webhooks_the_bot_speaks_and_says_how_to_enable_it(vin: BotEnv) -> None:
    role = vin.world.guild.role("Mistborn Bot")
    assert role is not None
    role.permissions &= ~MANAGE_WEBHOOKS
    player2 = vin.user_id("player2")
    reply = await vin.slash(f"/say text:Hello <@{player2}>", user="player1")
    public = [m for m in reply.messages if not m["flags"] & 64]
    private = [m for m in reply.messages if m["flags"] & 64]
    assert [m["content"] for m in public] == [f"**Vin**: Hello <@{player2}>"]
    assert public[0]["mentions"] == [] and public[0]["author"]["id"] == str(vin.world.bot.id)
    assert len(private) == 1 and "Manage Webhooks" in private[0]["content"]
    assert spoken(vin) == [] and vin.harness.fake.webhooks == {}


async def test_long_text_goes_through_the_form(vin: BotEnv) -> None:
    opened = await vin.slash("/say", user="player1")
    assert opened.modal is not None
    [field] = [c for row in opened.modal["components"] for c in row["components"]]
    assert field["style"] == 2 and field["max_length"] == 2000
    text = "Ash falls. " * 180
    submitted = await vin.harness.submit({field["custom_id"]: text.strip()}, user="player1")
    assert submitted.ephemeral and "Said as Vin." in submitted.content
    [line] = spoken(vin)
    assert line["author"]["username"] == "Vin" and line["content"] == text.strip()


async def test_the_console_shows_the_characters_name(vin: BotEnv) -> None:
    await vin.slash("/say text:Survive.", user="player1")
    [line] = spoken(vin)
    assert render_message(line).splitlines() == ["[Vin]", "Survive."]


async def test_in_a_thread_the_parents_webhook_posts_into_the_thread(tmp_path: Path) -> None:
    world = table_world()
    table = world.guild.channels[0]
    thread = FakeChannel(world.ids.next(), "the-fight", type=11, parent_id=table.id)
    world.guild.channels.append(thread)
    async with running_bot_env(tmp_path / "say.sqlite", world) as env:
        owner = env.user_id("player1")
        made = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=owner)
        await env.storage.characters.create(env.guild_id, made)
        env.harness.channel = thread
        reply = await env.slash("/say text:Here. character:Vin", user="player1")
        assert "Said as Vin." in reply.content
        [line] = spoken(env)
        assert line["channel_id"] == str(thread.id)
        [hook] = env.harness.fake.webhooks.values()
        assert hook["channel_id"] == str(table.id)


def test_the_offline_console_shows_the_line_under_the_characters_name(tmp_path: Path) -> None:
    script = "!as player1\n/character create name:Vin physique:3 wits:5\n/say text:Survive.\n"
    result = run_console(script, tmp_path / "say.sqlite3")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Said as Vin." in result.stdout and "[Vin]\nSurvive." in result.stdout


async def test_a_webhook_deleted_by_a_moderator_is_made_again(vin: BotEnv) -> None:
    await vin.slash("/say text:One.", user="player1")
    vin.harness.fake.webhooks.clear()
    reply = await vin.slash("/say text:Two.", user="player1")
    assert "Said as Vin." in reply.content and creates(vin) == 2
    lines = [m for m in vin.harness.fake.messages.values() if m["author"]["username"] == "Vin"]
    assert [m["content"] for m in lines] == ["One.", "Two."]


async def test_a_name_discord_refuses_for_a_webhook_is_posted_by_the_bot(vin: BotEnv) -> None:
    await make_villain(vin, "Clyde the Fence")
    reply = await vin.slash('/say text:"Coin first." character:Clyde the Fence', user="narrator")
    assert reply.content == "**Clyde the Fence**: Coin first." and not reply.ephemeral
    assert creates(vin) == 0


async def test_without_an_active_character_the_player_is_told_how_to_pick_one(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/say text:Hello.", user="player2")
    assert reply.ephemeral and "/character use" in reply.content
    assert bot_env.harness.fake.webhooks == {}


async def test_the_form_still_speaks_after_a_restart_and_checks_control_again(vin: BotEnv) -> None:
    opened = await vin.slash("/say", user="player1")
    assert opened.modal is not None
    await vin.restart()
    submitted = await vin.harness.submit({"line": "Still here."}, user="player1")
    assert "Said as Vin." in submitted.content
    again = await vin.slash("/say", user="player1")
    vin_sheet = await vin.storage.characters.get_by_name(vin.guild_id, "Vin")
    moved = vin_sheet.character.model_copy(update={"owner_id": vin.user_id("player2")})
    await vin.storage.characters.update(vin.guild_id, vin_sheet, moved)
    refused = await vin.harness.submit({"line": "Not mine."}, modal=again.modal, user="player1")
    assert refused.ephemeral and "Vin is not yours" in refused.content
    assert [m["content"] for m in spoken(vin)] == ["Still here."]
