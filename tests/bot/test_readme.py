"""Every example in README runs as printed and shows what README says it shows.

The console sessions are taken from README as they stand (``> `` prompts, ``# comments`` and
all) and run the way README says a script runs, ``python -m bot < demo.txt > transcript.txt``;
each line is held to what its example promises. The slash commands README quotes inline must at
least be commands the console accepts as typed.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

from fake_discord.render import render_message
from fake_discord.typed import clean_line
from testbed.bot_env import DUEL, BotEnv, board_message

README = Path(__file__).resolve().parents[2] / "README.md"
SHELL_RUN = ".venv/bin/python -m bot < demo.txt > transcript.txt"
INLINE = re.compile(r"`(/[a-z][^`<]*\w:[^`<]*)`")

PROMISED = {
    '/roll dice:5 difficulty:3 label:"Leap the canal"': "▌ == Leap the canal ==",
    "/character create name:Thug template:thug": "Created **Thug**. From the Thug template",
    "!as player1": "(now acting as player1)",
    "/character create name:Vin physique:3 wits:5": "Created **Vin**. It is now your active character.",
    "/roll stat:Wits traits:1": "▌ **Pool:** Wits 5 + Trait = **6**",
    "!as narrator": "(now acting as narrator)",
    '/conflict start kind:physical stakes:"Escape the alley"': "Escape the alley",
    "/conflict add character:Vin": "**Vin** joins the Heroes",
    "/conflict add character:Thug side:opposition": "**Thug** joins the Opposition",
    "/conflict begin": "round 1 begins",
    "/declare action:attack target:Vin stat:Physique who:Thug": "**Thug** declares a physical attack",
    "/declare action:full-defence stat:Physique": "**Vin** declares full defence",
    "/act dice:4 who:Thug": "[Defend with 2]",
    "!click Defend with 2": "**Vin** defends with 2 Defense Dice",
    "!as player2": "(now acting as player2)",
    "/character create name:Spook": "[modal] Who they are",
    "!submit concept:Tineye street urchin": "Strong, average and weak: one each",
    '!select "Strong, average and weak: one each" "Strong Attributes, average Standings, weak Powers"': (
        "Attributes: strong, 13 points"
    ),
    '!select "Attributes: strong, 13 points" "Physique 3 · Charm 4 · Wits 6"': "Standings: average",
    '!select "Standings: average, 11 points" "Resources 4 · Influence 4 · Spirit 3"': "Choose the Powers",
    '!select "Choose the Powers" "Misting: Tin"': "[modal]",
    "!submit drive:Prove himself profession:Lookout specialty:Hearing feature:Lanky personality:Quiet": (
        "[Write Destiny, Tragedy and Props]"
    ),
    "!click Write Destiny, Tragedy and Props": "[modal]",
    "!submit destiny:Save the city tragedy:His uncle props:Spectacles": "[+Create Spook]",
    "!click Create Spook": "Created **Spook**.",
    "/character export name:Spook": "[file: Spook.json",
    "!save Spook.json": "(saved Spook.json to data/saved/Spook.json",
}
"""Each line README shows, and what its output must contain."""


def console_examples(text: str) -> list[list[str]]:
    """README's console sessions: runs of indented lines typed after a ``> `` prompt."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.startswith("    > "):
            current.append(line[4:])
        elif current:
            blocks.append(current)
            current = []
    return blocks + ([current] if current else [])


def run_as_readme_says(script: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot < demo.txt > transcript.txt`` in `folder`, with no token set."""
    folder.mkdir()
    (folder / "demo.txt").write_text(script)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MISTBORN_"))}
    with (folder / "demo.txt").open() as demo, (folder / "transcript.txt").open("w") as transcript:
        done = subprocess.run(
            [sys.executable, "-m", "bot"],
            stdin=demo,
            stdout=transcript,
            stderr=subprocess.PIPE,
            text=True,
            timeout=180,
            cwd=folder,
            env=env,
            check=False,
        )
    done.stdout = (folder / "transcript.txt").read_text()
    return done


def answers(transcript: str) -> dict[str, str]:
    """What each echoed line printed, up to the next echo."""
    parts = re.split(r"^> (.*)$", transcript, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_readme_says_how_a_script_runs() -> None:
    assert SHELL_RUN in README.read_text()


def test_every_console_example_in_readme_runs_as_printed(tmp_path: Path) -> None:
    blocks = console_examples(README.read_text())
    assert len(blocks) >= 2
    typed = [clean_line(line) for block in blocks for line in block]
    assert set(typed) == set(PROMISED), "README's examples and their promises differ"
    for number, block in enumerate(blocks):
        result = run_as_readme_says("\n".join(block) + "\n", tmp_path / f"example{number}")
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr
        assert "Traceback" not in result.stderr and "WARNING" not in result.stderr
        shown = answers(result.stdout)
        for line in block:
            command = clean_line(line)
            assert PROMISED[command] in shown[command], (command, shown[command])
    assert (tmp_path / "example1" / "data" / "saved" / "Spook.json").read_text().startswith("{")
    assert not (tmp_path / "example1" / "Spook.json").exists()  # not where the console was started


def test_every_command_readme_quotes_with_options_is_accepted_as_typed(tmp_path: Path) -> None:
    quoted = sorted(set(INLINE.findall(README.read_text())))
    assert "/odds roll dice:5 difficulty:3" in quoted and "/character create name:Vin" in quoted
    result = run_as_readme_says("\n".join(quoted) + "\n", tmp_path / "inline")
    shown = answers(result.stdout)
    assert sorted(shown) == quoted
    refused = {line: out for line, out in shown.items() if out.lstrip().startswith("error:")}
    assert not refused


SECTION = re.compile(r"## What it looks like\n(.*?)\n## ", re.S)
PICTURE = re.compile(r"```text\n(.*?)```", re.S)


def pictures() -> list[str]:
    """README's pictures of cards, in order: a roll's, then the Conflict board's."""
    section = SECTION.search(README.read_text())
    assert section, "README has no 'What it looks like' section"
    return [found.rstrip("\n") for found in PICTURE.findall(section[1])]


async def test_the_roll_card_readme_shows_is_what_the_console_draws(bot_env: BotEnv) -> None:
    """README's picture of a roll card is the console's drawing of that roll, dice seeded."""
    bot_env.bot.rng = random.Random(14)
    reply = await bot_env.slash('/roll dice:5 difficulty:3 label:"Leap the canal"', user="player1")
    assert reply.message is not None
    assert render_message(reply.message) == pictures()[0]


async def test_the_board_card_readme_shows_is_what_the_console_draws(bot_env: BotEnv) -> None:
    """README's picture of the Conflict board is the console's drawing of ``DUEL``'s board."""
    await bot_env.play(DUEL)
    await bot_env.bot.conflicts.idle()
    await bot_env.bot.conflicts.boards.idle()
    assert render_message(await board_message(bot_env)) == pictures()[1]
