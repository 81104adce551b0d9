"""The offline console driven by a script, as a scripted demo would run it."""

from __future__ import annotations

import io
import json
from pathlib import Path

from fake_discord.console import run_console
from tests.fake_discord.sample_bot import SampleBot


async def run(script: str, *, user: str = "narrator", narrator: bool = True) -> tuple[int, str]:
    output = io.StringIO()
    code = await run_console(
        SampleBot, input=io.StringIO(script), output=output, user=user, narrator=narrator
    )
    return code, output.getvalue()


async def test_scripted_session(tmp_path: Path) -> None:
    sheet = tmp_path / "kelsier.json"
    sheet.write_text(json.dumps({"name": "Kelsier"}))
    script = f"""
# a comment, then a blank line

/ping
!as player1
/character show name:Vin
!click Roll again
!complete /character show name:ke
!menu Show sheet @player2
/announce text:Round 1 begins
/metals
!select "Choose metals" Steel Iron
/import file:{sheet}
/note
!submit note:Pewter burn
/rename
!click Rename
!submit name:Vin aliases:Valette\\nLady Renoux
!as
!commands
!help
!quit
/ping
"""
    code, out = await run(script)
    assert code == 0, out
    assert out.startswith("Offline Discord: Mistborn Bot in Scadrial Table #table, acting as narrator.")
    assert "> /ping\npong\n" in out
    assert "(now acting as player1)" in out
    assert "| == Vin ==" in out and "[Roll again] [Keep]" in out
    assert "player1 rolls again" in out
    assert "  Kelsier\n" in out
    assert "[ephemeral]\nsheet of player2" in out
    assert "[ephemeral]\nposted\n(new message in channel)\nRound 1 begins!\n(edited)\n" in out
    assert "<select Choose metals: Steel | Iron | Pewter>" in out and "burning steel and iron" in out
    assert "imported Kelsier (kelsier.json)" in out
    assert "[modal] Character note (custom_id" in out
    assert "noted: Pewter burn" in out
    assert "  Epithet: field epithet (required, now 'the Survivor')" in out
    assert "renamed to Vin, the Survivor (Valette / Lady Renoux)" in out
    assert "* player1" in out and "  narrator (Narrator)" in out
    assert "/character set attribute:<physique|charm|wits> value:<integer 1..6> [note:<text>]" in out
    assert "!click <label, custom_id or number>" in out
    assert out.count("pong") == 1, "lines after !quit must not run"


async def test_errors_are_reported_and_eof_ends_the_session() -> None:
    code, out = await run(
        "/nope\n/character set attribute:charm value:9\nhello\n/big\n", user="player2", narrator=False
    )
    assert code == 1
    assert "acting as player2" in out
    assert "error: unknown command /nope" in out
    assert "error: value must be in 1..6 (got 9)" in out
    assert "error: not a command: 'hello'" in out
    assert "(rejected by Discord: embed 0 description has 5000 characters (max 4096))" in out
    assert "\n> " not in out.replace("\n> /", "").replace("\n> hello", "")


async def test_narrator_flag_controls_the_role() -> None:
    code, out = await run("/narrate player:@player1\n", user="player1", narrator=False)
    assert code == 1
    assert "error: player1 cannot use narrate: it needs manage_guild" in out
    code, out = await run("/narrate player:@player2\n", user="player1", narrator=True)
    assert code == 0 and "player2 is in the spotlight" in out


async def test_as_with_a_new_name_seats_one_more_player() -> None:
    code, out = await run(
        "!as player3\n/ping\n/narrate player:@player1\n!as\n!as narrator\n/narrate player:@player3\n"
        "!as Big Bob\n"
    )
    assert "(player3 joins Scadrial Table as a player)\n(now acting as player3)" in out
    assert "> /ping\npong\n" in out
    assert "error: player3 cannot use narrate: it needs manage_guild" in out  # a player, no role
    assert "* player3\n" in out and "  player2\n" in out
    assert "player3 is in the spotlight" in out  # the Narrator can name the new player
    assert "error: 'Big Bob' cannot be a member's name" in out and "(e.g. !as player3)" in out
    assert out.count("joins Scadrial Table") == 1
    assert code == 1  # the two refused lines
