"""A Coinshot's round in the offline console (``python -m bot`` with no token), from the prompt
alone: burn Steel, push a coin at the Thug, act; next round the push form, a medium object
anchored (docs/rulings.md §9.3, §9.10) — the same dispatch as Discord. The console throws real
dice: a hit that leaves Nudges is spent with none (``/nudges``; refused, changing nothing, when
the dice left none), so the round can end either way."""

from pathlib import Path

from testbed.console import played

SCRIPT = """!as player1
/character create name:Kel physique:4 wits:5
/edit power-add type:Allomancy power:Steel rating:5
!as narrator
/power reserve metal:Steel charges:5 name:Kel
/character create name:Thug kind:Villain physique:5 wits:2
/conflict start kind:physical stakes:"The keep"
!as player1
/conflict join
!as narrator
/conflict add character:Thug
/conflict begin
/declare who:Thug action:no-roll
!as player1
!click Burn Steel (5 left)
!select "Attack…" "Push a coin at Thug"
!click Act with 3
!as narrator
!click Don't defend
!as player1
/nudges
!as narrator
!click Next round
/declare who:Thug action:no-roll
!as player1
!select "Declare with Traits, Tool, Power, Burdens, label…" "Push at Thug…"
!submit size:medium anchored:yes label:"flings a horseshoe"
"""


def test_the_console_plays_a_coinshots_round_from_the_prompt(tmp_path: Path) -> None:
    out = played(SCRIPT, tmp_path)
    assert "error:" not in out, out[-3000:]
    assert "<select Attack…: Thug | Push a coin at Thug>" in out, out[-3000:]
    assert (
        "physical attack on **Thug** (Health) with a small metal object pushed or pulled: "
        "5 Action Dice — Steel 5" in out
    ), out[-3000:]
    assert "Kel** rolls" in out, out[-3000:]  # acted with 3, the Thug did not defend
    assert "braced on anchors, “flings a horseshoe”: 5 Action Dice — Steel 5" in out, out[-3000:]
