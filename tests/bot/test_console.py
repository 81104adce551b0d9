"""README's first command: ``python -m bot`` with no token opens the offline console."""

import asyncio
import io
import logging
import re
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console as RichConsole

from bot.config import Settings
from fake_discord.bot_console import console_logging, run_offline
from fake_discord.terminal import PromptTerminal
from testbed.console import run_console


def test_console_runs_a_script_and_keeps_data_between_runs(tmp_path: Path) -> None:
    db = tmp_path / "console.sqlite3"
    first = run_console('/roll dice:5 label:"First night"\n/odds table\n', db)
    assert first.returncode == 0, first.stderr
    assert "== First night ==" in first.stdout and "Chance of success" in first.stdout
    assert "offline console" in first.stderr and "Traceback" not in first.stderr

    second = run_console("/history rolls\n", db, "--user", "player1", "--player")
    assert second.returncode == 0, second.stderr
    assert "acting as player1" in second.stdout and "First night" in second.stdout
    assert "@narrator" in second.stdout and "<@" not in second.stdout  # mentions shown as names


def test_console_reports_bad_lines_and_exits_nonzero(tmp_path: Path) -> None:
    result = run_console("/roll dice:50\n/nonsense\n", tmp_path / "c.sqlite3")
    assert result.returncode == 1
    assert "dice must be in 0..20" in result.stdout and "unknown command" in result.stdout.lower()


def test_the_console_keeps_the_narrators_secrets_from_a_player(tmp_path: Path) -> None:
    """docs/rulings.md §7.1 in the offline console: after ``!as player1`` the Villain, its plan
    and the secret roll are nowhere in what the console prints."""
    script = (
        '/character create name:Straff kind:villain concept:"Q7 plan"\n'
        "/gmroll dice:3 label:Q7-roll\n"
        "/roll dice:2 label:open\n"
        "!as player1\n"
        "/character show name:Straff\n"
        "/character list\n"
        "/history rolls\n"
    )
    result = run_console(script, tmp_path / "secrets.sqlite3")
    assert result.returncode == 0, result.stderr
    narrator, player = result.stdout.split("(now acting as player1)")
    assert "Q7 plan" in narrator and "Q7-roll" in narrator
    assert "one of the Narrator's characters" in player and "open" in player
    assert "Q7" not in player


SAMPLES = Path(__file__).resolve().parents[1] / "rules" / "character" / "roll20"


def test_the_console_drives_the_builder_templates_and_a_roll20_import(tmp_path: Path) -> None:
    """docs/rulings.md §6.10–§6.12 in the offline console: a Mistborn from only a name, a
    Narrator's template, a Roll20 import; then a half-made Hero resumed in a second run."""
    script = (
        "/character create name:Thug template:thug\n"
        "!as player1\n"
        "/character create name:Vin\n"
        "!submit concept:Street urchin\n"
        '!select "Strong, average and weak: one each" "Strong Attributes, average Standings, weak Powers"\n'
        '!select "Attributes: strong, 13 points" "Physique 3 · Charm 4 · Wits 6"\n'
        '!select "Standings: average, 11 points" "Resources 4 · Influence 4 · Spirit 3"\n'
        '!select "Choose the Powers" Mistborn\n'
        "!submit drive:Keep her crew safe profession:Thief specialty:Hiding feature:Small personality:Wary\n"
        "!click Write Destiny, Tragedy and Props\n"
        "!submit destiny:Hero of Ages tragedy:Reen props:Glass knives (weapon 1)\\nMistcloak (armour 1)\n"
        "!click Create Vin\n"
        f"/character import file:{SAMPLES / 'full.json'} name:Valette\n"
        "/character create name:Spook\n"
        "!submit concept:Tineye\n"
    )
    db = tmp_path / "builder.sqlite3"
    first = run_console(script, db)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr
    assert "Created **Thug**. From the Thug template" in first.stdout
    assert "Created **Vin**. It is now your active character." in first.stdout
    assert "• Glass knives (weapon +1)" in first.stdout and "• Mistcloak (armour 1)" in first.stdout
    assert "Imported **Valette** from Roll20." in first.stdout
    second = run_console("/character create name:Spook\n!click Cancel\n", db, "--user", "player1", "--player")
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr
    assert "Here is your Hero as you left them." in second.stdout and "step 2 of 7" in second.stdout
    assert "Cancelled: **Spook** was not made" in second.stdout


def test_the_console_drives_a_request_for_rolls(tmp_path: Path) -> None:
    """docs/rulings.md §6.13 in the offline console: the Narrator asks, the player rolls from the
    button with a Trait chosen in the builder, and the request shows who has rolled."""
    script = (
        "!as player1\n"
        "/character create name:Vin charm:4\n"
        '/edit trait slot:Specialty text:"Smooth talker"\n'
        "!as narrator\n"
        '/request roll stat:Charm heroes:Vin difficulty:2 traits:"Smooth talker"\n'
        "!as player1\n"
        "!click Roll — Vin\n"
        '!select "Traits that help (+1 die each)" "Smooth talker"\n'
        "!click Roll 5 dice\n"
        "!as narrator\n"
        "!click Close\n"
    )
    result = run_console(script, tmp_path / "request.sqlite3")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "The Narrator asks for a roll" in result.stdout
    assert "Charm 4 + Trait = **5**" in result.stdout
    assert "**Vin**: Outcome" in result.stdout and "Closed." in result.stdout


def test_the_narrator_waits_for_a_players_defence_and_the_log_is_a_file(tmp_path: Path) -> None:
    """Messages made in the console carry the time they were made, so a Narrator answering a
    fresh defence prompt for the player is told to wait, as on Discord; the log is a file."""
    script = (
        "/character create name:Thug template:thug\n"
        "!as player1\n"
        "/character create name:Vin physique:3 wits:5\n"
        "!as narrator\n"
        "/conflict start kind:physical stakes:Alley\n"
        "/conflict add character:Vin\n"
        "/conflict add character:Thug side:opposition\n"
        "/conflict begin\n"
        "/declare action:attack target:Vin stat:Physique who:Thug\n"
        "!as player1\n"
        "/declare action:full-defence stat:Physique\n"
        "!as narrator\n"
        "/act dice:4 who:Thug\n"
        "!click Defend with 2\n"
    )
    result = run_console(script, tmp_path / "wait.sqlite3")
    assert "Give the player a moment to choose: you can answer for them in 30 s." in result.stdout
    log = tmp_path / "console.log"
    assert f"Log: {log}" in result.stderr and "WARNING" not in result.stderr
    assert log.is_file()


def test_the_console_logs_warnings_to_its_file_and_shows_only_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        log = console_logging(tmp_path / "console.log")
        logging.getLogger("discord.gateway").warning("Can't keep up, websocket is 1.2s behind.")
        logging.getLogger("bot").error("The roll log could not be written.")
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers[:] = handlers
        root.setLevel(level)
    written, shown = log.read_text(), capsys.readouterr().err
    assert "Can't keep up" in written and "could not be written" in written
    assert "could not be written" in shown and "Can't keep up" not in shown


def test_the_console_serves_the_web_view_and_web_prints_its_link(tmp_path: Path) -> None:
    result = run_console("/web\n", tmp_path / "web.sqlite3")
    assert result.returncode == 0, result.stderr
    assert re.search(r"\[link Open the view\] http://127\.0\.0\.1:\d+/login\?t=\S+", result.stdout)


def test_a_board_reposted_by_conflict_status_shows_at_once(tmp_path: Path) -> None:
    """The repost is paced in the background; the console waits for it before the next line."""
    script = "/conflict start kind:physical stakes:Alley\n/conflict status\n/roll dice:2 label:after\n"
    result = run_console(script, tmp_path / "status.sqlite3")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    status = result.stdout.split("> /conflict status\n")[1].split("\n> ")[0]
    assert "The board is posted below." in status
    assert "(new message in channel)" in status and "Conflict — round 1" in status


def test_as_seats_a_third_player_who_is_the_same_in_the_next_run(tmp_path: Path) -> None:
    db = tmp_path / "third.sqlite3"
    first = run_console("!as player3\n/character create name:Marsh physique:3 wits:4\n", db)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr
    assert "(player3 joins Scadrial Table as a player)" in first.stdout
    assert "Created **Marsh**. It is now your active character." in first.stdout
    assert "Player: @player3" in first.stdout
    again = run_console("!as player3\n/roll stat:Wits\n", db)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr
    assert "**Pool:** Wits 4" in again.stdout
    typed = run_console("/roll stat:Wits\n", db, "--user", "player3", "--player")
    assert "**Pool:** Wits 4" in typed.stdout


def test_a_player_seated_in_an_earlier_run_shows_by_name(tmp_path: Path) -> None:
    """Issue 39: player3's sheet showed "<@…>" in the next run until ``!as player3`` named them."""
    db = tmp_path / "seated.sqlite3"
    first = run_console("!as player3\n/character create name:Marsh physique:3 wits:4\n", db)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr
    later = run_console("/character show name:Marsh\n!as\n", db)
    assert later.returncode == 0, later.stdout[-3000:] + later.stderr
    assert "Player: @player3" in later.stdout and "<@" not in later.stdout, later.stdout[-3000:]
    assert "  player3" in later.stdout.split("> !as\n")[1], "!as lists who sat at the table before"


def test_slash_quit_says_how_to_leave(tmp_path: Path) -> None:
    result = run_console("/quit\n/roll dice:2\n!quit\n/roll dice:3\n", tmp_path / "quit.sqlite3")
    assert "/quit is not a command here: type !quit or press Ctrl-D to leave" in result.stdout, result.stdout
    assert "unknown command" not in result.stdout.lower()
    assert "> /roll dice:2" in result.stdout and "> /roll dice:3" not in result.stdout, "!quit leaves"


EMBED = re.compile(r"^\+-{40}\n(.*?)^\+-{40}$", flags=re.MULTILINE | re.DOTALL)


def test_help_history_and_the_board_read_as_in_discord(tmp_path: Path) -> None:
    """No zero-width field name, no doubled colon, times instead of ``<t:…>``, every line of an
    embed inside its border, and the board drawn as a card (its legend has two rows)."""
    script = (
        "/help\n/help command:conflict\n/roll dice:3 label:Leap\n/history rolls\n"
        "/conflict start kind:physical stakes:Alley\n"
    )
    result = run_console(script, tmp_path / "read.sqlite3")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    out = result.stdout
    assert "\u200b" not in out and "::" not in out
    assert "| /conflict start kind: stakes: [auto_rounds:]: Narrator: start a Conflict in this channel" in out
    assert "<t:" not in out and re.search(r"\| (a few seconds|a minute) ago @narrator \*\*Leap\*\*", out)
    embeds = EMBED.findall(out)
    assert len(embeds) >= 4  # the help, its page on /conflict, the history, the Conflict's start
    assert all(line.startswith("|") for embed in embeds for line in embed.splitlines())
    assert "▌ == Conflict — round 1 · Physical ==" in out  # the board is a card, drawn as one
    assert "the Narrator's characters show their state only" in out


async def test_at_a_terminal_the_boards_footer_shows_whole(tmp_path: Path) -> None:
    screen = RichConsole(file=io.StringIO(), force_terminal=True, width=80, record=True)
    settings = Settings(db_path=tmp_path / "terminal.sqlite3")
    with create_pipe_input() as pipe:
        terminal = PromptTerminal(input=pipe, output=DummyOutput(), screen=screen)
        console = run_offline(settings, user="narrator", narrator=True, terminal=terminal)
        session = asyncio.create_task(console)
        pipe.send_text("/conflict start kind:physical stakes:Alley\r/help\r\x04")
        assert await asyncio.wait_for(session, 60) == 0
    text = screen.export_text(clear=False)
    assert "▶ whose move it is · AD Action Dice · DD Defense Dice" in text
    assert "the Narrator's characters show their state only" in text
    assert "\u200b" not in text


def test_a_template_is_taken_by_the_word_its_choice_shows(tmp_path: Path) -> None:
    """Discord's list shows "Guard group (Extra)"; typing "guard" leaves that one, as in Discord."""
    script = (
        "/character create name:Watch template:guard size:4\n/character create name:Hunter template:steel\n"
    )
    result = run_console(script, tmp_path / "templates.sqlite3")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "Created **Watch**. From the Guard group template" in result.stdout
    assert "Created **Hunter**. From the Steel Inquisitor template" in result.stdout


def test_the_console_plays_a_round_by_menus_forms_and_buttons(tmp_path: Path) -> None:
    """Issue 43 in the offline console: a declaration from the prompt's form, and the next round
    from the board, with no typed move."""
    script = (
        "/character create name:Straff kind:villain physique:3 wits:2\n"
        "!as player1\n"
        "/character create name:Vin physique:3 wits:3\n"
        "!as narrator\n"
        "/conflict start kind:physical stakes:Ball\n"
        "/conflict add character:Vin\n"
        "/conflict add character:Straff\n"
        "/conflict begin\n"
        '!select "Declare with Traits, Tool, Power, Burdens, label…" "Full defence"\n'
        "!submit traits:1 label:braces\n"
        "!as player1\n"
        "!click Full defence\n"
        "!as narrator\n"
        "!click Next round\n"
    )
    result = run_console(script, tmp_path / "buttons.sqlite3")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "**Straff** declares full defence, “braces”: 4 Defense Dice — Physique 3 + Trait" in result.stdout
    assert "Round 2 begins" in result.stdout


def test_the_console_plays_the_narrators_private_prompt_and_rolling_rounds(tmp_path: Path) -> None:
    """Issue 43 in the offline console: a player's attack on a secret Villain leaves its
    Narrator a private prompt, shown to them (not the player) when they next type, and one
    click there defends; the Conflict's rounds roll on, and the board's menu then offers to
    take a fighter out, a pick doing it. The console throws real dice: a hit that leaves Nudges
    is spent with none (``/nudges``; refused, changing nothing, when the dice left none), so the
    round rolls on either way."""
    script = (
        "!as player1\n/character create name:Vin physique:3 wits:3\n!as narrator\n"
        "/character create name:Straff kind:Villain physique:3 wits:2\n"
        '/conflict start kind:physical stakes:"The ball" auto_rounds:true\n'
        "/conflict add character:Vin\n/conflict add character:Straff\n"
        "!click Begin round 1\n!click Full defence\n"
        "!as player1\n!select Attack… Straff\n!click Act with 3\n"
        "!as narrator\n!click Defend with 3\n!as player1\n/nudges\n"
        '!as narrator\n!select "Remove a fighter…" Vin\n'
    )
    result = run_console(script, tmp_path / "private.sqlite3")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    player = result.stdout.split("(now acting as narrator)")[-3]
    assert "holds 3 Defense Dice" not in player
    away, after = result.stdout.split("> !click Defend with 3")
    away = away.split("(now acting as narrator)")[-1]
    assert "while you were away" in away and "**Straff** holds 3 Defense Dice" in away
    assert "**Straff** defends with 3 dice" in after and "Round 2 begins" in after
    assert "**Vin** leaves the Conflict" in after or "Vin leaves" in after, after[-2000:]


def test_the_console_votes_in_a_poll_for_the_next_night(tmp_path: Path) -> None:
    """Issue 43's poll in the offline console: members vote with ``!vote`` (by number or
    text), a wrong answer is refused with the list, and the closed poll counts the votes."""
    script = (
        "/session poll first:2027-01-08 19:00 second:2027-01-09 19:00\n"
        "!vote 2\n!as player1\n!vote Sat\n!vote 7\n!as narrator\n!click Close the poll now\n"
    )
    result = run_console(script, tmp_path / "poll.sqlite3")
    assert result.returncode == 1, result.stderr  # the one wrong answer
    out = result.stdout
    assert "(narrator voted)" in out and "(player1 voted)" in out
    assert "no answer '7' in the poll: 1. Fri 8 Jan" in out
    assert "Saturday, 09 January 2027 19:00: 2 vote(s)" in out, out[-1500:]
