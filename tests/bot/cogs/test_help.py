"""``/help`` and README's command table are written from the registered command tree."""

from pathlib import Path

from bot.render.help import markdown_table, slash_commands
from testbed.bot_env import BotEnv

README = Path(__file__).resolve().parents[3] / "README.md"
START, END = "<!-- commands:start -->", "<!-- commands:end -->"


def readme_table() -> str:
    text = README.read_text(encoding="utf-8")
    assert START in text and END in text, "README.md needs the generated command table markers"
    return text.split(START, 1)[1].split(END, 1)[0].strip()


async def test_readme_command_table_matches_the_command_tree(bot_env: BotEnv) -> None:
    expected = markdown_table(bot_env.bot.tree.get_commands())
    assert readme_table() == expected, f"Paste this between the markers in README.md:\n\n{expected}\n"


async def test_help_lists_every_synced_command(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/help", user="player1")
    assert reply.ephemeral
    text = "\n".join(f["value"] for f in reply.embeds[0]["fields"])
    synced = [c["name"] for c in bot_env.harness.commands if c.get("type", 1) == 1]
    assert synced and all(f"/{name}" in text for name in synced)
    registered = [c.name for c in slash_commands(bot_env.bot.tree.get_commands())]
    assert sorted(registered) == sorted(synced)


async def test_help_explains_one_command_with_its_options(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/help command:conflict", user="player1")
    fields = {f["name"]: f["value"] for f in reply.embeds[0]["fields"]}
    assert any(name.startswith("/conflict start kind: stakes:") for name in fields)
    assert any(name.startswith("/conflict next-round [force:]") for name in fields)
    unknown = await bot_env.slash("/help command:teleport", user="player1")
    assert unknown.ephemeral and "There is no command /teleport" in unknown.content


async def test_help_suggests_command_names(bot_env: BotEnv) -> None:
    found = await bot_env.harness.autocomplete("/help command:con", user="player1")
    assert [c["value"] for c in found.choices] == ["contest", "conflict"]
