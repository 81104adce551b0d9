"""What a person types at the console: pasted transcripts, suggestions, buttons, files, a terminal.

Piped scripts read and write plain text; at a terminal prompt_toolkit reads the lines (driven
here by its pipe input) and rich shows the answers (recorded here), through the same bot.
"""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console as RichConsole

from fake_discord.console import run_console
from fake_discord.harness import running_bot
from fake_discord.terminal import PromptTerminal, SlashCompleter, complete
from fake_discord.typed import clean_line, fold, matches
from tests.fake_discord.sample_bot import SampleBot


async def run(script: str) -> tuple[int, str]:
    output = io.StringIO()
    code = await run_console(SampleBot, input=io.StringIO(script), output=output)
    return code, output.getvalue()


def test_a_pasted_transcript_line_runs_as_typed() -> None:
    assert clean_line("> /roll dice:5   # a roll") == "/roll dice:5"
    assert clean_line("  > !as player1\t# who types") == "!as player1"
    assert clean_line("# only a comment") == "" and clean_line(">") == ""
    assert clean_line("/setup gm-channel channel:#table") == "/setup gm-channel channel:#table"
    assert clean_line('/roll label:"Take # 2" # why') == '/roll label:"Take # 2"'


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=20))
def test_folding_is_stable_and_matches_itself(text: str) -> None:
    assert fold(fold(text)) == fold(text)
    assert matches(text, text) and matches("", text)


def test_folding_ignores_case_and_accents() -> None:
    assert matches("menard", "Lady Ménard") and matches("GUARD", "Guard group (Extra)")
    assert not matches("guards", "Guard group")


async def test_the_console_ignores_prompts_and_comments_and_echoes_what_ran() -> None:
    code, out = await run("> /ping   # is it alive?\n# nothing\n> !as player1 # switch\n")
    assert code == 0, out
    assert "> /ping\npong\n" in out and "(now acting as player1)" in out
    assert "#" not in out.split("!help for syntax.")[1]


async def test_complete_filters_fixed_choices_anywhere_ignoring_case_and_accents() -> None:
    code, out = await run("!complete /character set attribute:ARM\n!complete /character show name:ELS\n")
    assert code == 0, out
    assert "> !complete /character set attribute:ARM\n  charm\n\n" in out
    assert "  Kelsier\n" in out  # the bot's own autocomplete, through a real interaction
    code, out = await run("!complete /character set attribute:charm value:3\n")
    assert code == 1 and "error: value has no suggestions: type a value (integer)" in out


async def test_click_ignores_a_leading_marker_or_takes_a_number(tmp_path: Path) -> None:
    script = (
        "/export name:Vin\n!click +✅ Confirm\n/export name:Vin\n!click confirm\n/export name:Vin\n!click 2\n"
    )
    code, out = await run(script + "!click ander\n!click 9\n")
    assert out.count("[+✅ Confirm] [!Änder]") == 3, out
    assert out.count("\nconfirmed\n") == 2 and out.count("\nchanged\n") == 2
    assert code == 1 and "error: the newest message has 2 of those, not 9" in out


async def test_save_writes_an_attachment_to_a_file(tmp_path: Path) -> None:
    first, folder = tmp_path / "vin.json", tmp_path / "all"
    folder.mkdir()
    last = tmp_path / "x"
    script = f"/export name:Vin\n!save {first}\n!save notes.txt {folder}\n!save 3 {folder}\n!save {last}\n"
    code, out = await run(script)
    assert json.loads(first.read_text()) == {"name": "Vin"}
    assert json.loads(last.read_text()) == {"name": "Vin"}  # a bare path: the newest message's file
    assert (folder / "notes.txt").read_bytes() == b"notes"
    assert f"(saved Vin.json to {first}, 15 bytes)" in out
    assert "error: the newest message with files has 2, not 3" in out and code == 1


async def test_the_terminal_completes_commands_options_choices_and_the_bots_suggestions() -> None:
    async with running_bot(SampleBot) as h:

        async def offered(text: str) -> list[str]:
            return [c.text for c in await complete(h, text)]

        assert "/character" in await offered("/char")
        assert await offered("/character s") == ["show ", "set "]
        assert await offered("/character set ") == ["attribute:", "value:", "note:"]
        assert await offered("/character set attribute:ARM") == ["charm"]
        assert "Kelsier" in await offered("/character show name:els")
        assert "Kelsier" in await offered("!complete /character show name:els")
        assert await offered("/character set attribute:charm va") == ["value:"]
        assert "!click" in await offered("!cl") and await offered("!as play") == ["player1", "player2"]
        completer = SlashCompleter(h)
        found = [c.text async for c in completer.get_completions_async(Document("/pi"), None)]  # type: ignore[arg-type]
        assert found == ["/ping", "/lateping"]  # a start first, then a match anywhere


async def test_the_terminal_reads_lines_with_prompt_toolkit_and_shows_embeds_with_rich() -> None:
    screen = RichConsole(
        file=io.StringIO(), force_terminal=True, color_system="truecolor", width=80, record=True
    )
    with create_pipe_input() as pipe:
        terminal = PromptTerminal(input=pipe, output=DummyOutput(), screen=screen)
        output = io.StringIO()
        session = asyncio.create_task(
            run_console(SampleBot, input=io.StringIO(), output=output, terminal=terminal)
        )
        pipe.send_text("/character show name:Vin\r")
        pipe.send_text("> /ping # typed as in README\r")
        pipe.send_text("!click Roll again\r")
        pipe.send_text("\x04")  # Ctrl-D on an empty line ends the session, like the end of a pipe
        code = await asyncio.wait_for(session, 30)
    assert code == 0 and output.getvalue() == ""
    text = screen.export_text(clear=False)
    assert "Vin" in text and "A Mistborn of Luthadel" in text and "sheet v1" in text
    assert "╭" in text and "pong" in text and "narrator rolls again" in text
    assert " Roll again " in text and "| ==" not in text  # a panel and keys, not the plain form
    styled = screen.export_text(styles=True)
    assert "\x1b[" in styled  # in colour


async def test_save_keeps_a_relative_path_inside_the_consoles_folder_for_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, saves = tmp_path / "project", tmp_path / "data" / "saved"
    started.mkdir()
    monkeypatch.chdir(started)
    script = "/export name:Vin\n!save Vin.json\n!save notes.txt sub/\n!save ../../escape.json\n"
    output = io.StringIO()
    code = await run_console(SampleBot, input=io.StringIO(script), output=output, saves=saves)
    out = output.getvalue()
    assert json.loads((saves / "Vin.json").read_text()) == {"name": "Vin"}
    assert f"(saved Vin.json to {saves / 'Vin.json'}, 15 bytes)" in out
    assert (saves / "sub" / "notes.txt").read_bytes() == b"notes"
    assert "error: '../../escape.json' leads out of" in out and "give a full path" in out
    assert list(started.iterdir()) == [] and not (tmp_path / "escape.json").exists()
    assert code == 1
