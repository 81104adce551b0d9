"""One member cannot freeze the bot: costly commands cool down, sheets are capped."""

from pathlib import Path

from fake_discord.world import default_world
from rules.character import make_character
from testbed.bot_env import BotEnv, refused, running_bot_env
from tests.bot.test_bad_input import LogCatcher, Probe
from tests.bot.test_probes import add_other_table


async def test_a_costly_command_past_its_cooldown_is_refused_privately_and_clearly(bot_env: BotEnv) -> None:
    per_minute = bot_env.bot.settings.costly_per_minute
    for _ in range(per_minute):
        assert not refused(await bot_env.slash("/odds table", user="player1"))
    refusal = await bot_env.slash("/odds table", user="player1")
    assert refusal.ephemeral and refusal.content is not None
    assert refusal.content.startswith("Slow down: try again in ") and refusal.content.endswith(" s.")
    seconds = int(refusal.content.removeprefix("Slow down: try again in ").removesuffix(" s."))
    assert 1 <= seconds <= 60
    assert not refused(await bot_env.slash("/odds table", user="player2"))  # per member
    assert not refused(await bot_env.slash("/history fairness", user="player1"))  # per command


async def test_a_member_cannot_keep_more_heroes_than_the_limit(bot_env: BotEnv) -> None:
    bot_env.bot.settings.max_heroes_per_member = 3
    owner = bot_env.user_id("player1")
    for i in range(3):
        await bot_env.storage.characters.create(
            bot_env.guild_id, make_character(name=f"Hero {i}", kind="hero", owner_id=owner)
        )
    refusal = await bot_env.slash("/character create name:One Too Many physique:3 wits:5", user="player1")
    assert refusal.ephemeral and refusal.content is not None
    assert "already has 3 Heroes in this server" in refusal.content
    assert len(await bot_env.storage.characters.summaries(bot_env.guild_id)) == 3
    made = await bot_env.slash("/character create name:Someone Else physique:3 wits:5", user="player2")
    assert not refused(made)


async def test_a_server_cannot_keep_more_sheets_than_the_limit(bot_env: BotEnv) -> None:
    bot_env.bot.settings.max_sheets_per_server = 2
    await bot_env.play(
        [
            ("narrator", "/character create name:Thug template:thug"),
            ("player1", "/character create name:Vin physique:3 wits:5"),
        ]
    )
    refusal = await bot_env.slash("/character create name:Guard template:thug")
    assert refusal.ephemeral and refusal.content is not None
    assert "already has 2 character sheets" in refusal.content
    assert len(await bot_env.storage.characters.summaries(bot_env.guild_id)) == 2


async def test_the_cooldown_counts_a_member_across_every_server(tmp_path: Path) -> None:
    """Counted per (server, member), a member in ten servers had ten times the calls: the
    cooldown is the member's, wherever they call from."""
    world = default_world()
    other = add_other_table(world)
    async with running_bot_env(tmp_path / "bot.sqlite3", world, seed=7, sync_global=True) as env:
        with LogCatcher() as logs:
            probe = Probe(env, log=logs)
            for _ in range(env.bot.settings.costly_per_minute):
                assert not (await probe.send("odds", [], path=["table"], user="player1")).refused
            elsewhere = await probe.send("odds", [], path=["table"], user="player1", guild=other)
            assert elsewhere.refused and elsewhere.record.content.startswith("Slow down: try again in ")
            assert not (await probe.send("odds", [], path=["table"], user="player2", guild=other)).refused
            probe.check_log()
