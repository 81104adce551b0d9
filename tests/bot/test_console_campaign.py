"""A campaign across nights in the offline console (docs/rulings.md §10.1): the night's awards
from the panel ``/session end`` offers, a Long Breather's spend on a Stunt picked from its
metal's catalogue, and the Stunt changing the next roll, kept between runs; a Secret revealed
from the Narrator's list (§10.3)."""

from pathlib import Path

from testbed.console import run_console


def test_the_console_carries_a_campaign_across_two_nights(tmp_path: Path) -> None:
    db = tmp_path / "campaign.sqlite3"
    first = (
        "/setup players-spend setting:on\n"
        "!as player1\n"
        "/character create name:Vin physique:4 charm:3 wits:5\n"
        "/edit power-add type:allomancy power:Pewter rating:3\n"
        "/power burn metal:Pewter\n"
        "!as narrator\n"
        "/session start title:One\n"
        '/conflict start kind:physical stakes:"A brawl"\n'
        "!as player1\n"
        "/conflict join\n"
        "!as narrator\n"
        "/conflict end\n"
        "/session end\n"
        '!select mab:awsel:1:1 "Vin: 5 Advancements"\n'
        "!click Give these awards\n"
    )
    night = run_console(first, db)
    assert night.returncode == 0, night.stdout[-3000:] + night.stderr
    assert "**Vin**: 0" in night.stdout  # present: she joined the fight, and nothing else
    assert "Vin earns 5 Advancements tonight (5 Advancements for the night)." in night.stdout

    second = (
        "/session start title:Two\n"
        "/sheet breather kind:Long name:Vin\n"
        "!as player1\n"
        "!complete /advancement spend name:Vin improvement:stunt|0 words:strength\n"
        '/advancement spend name:Vin improvement:stunt|0 words:"Prodigious Strength"\n'
        "/roll stat:Physique character:Vin task:strength\n"
        "/advancement show name:Vin\n"
    )
    spent = run_console(second, db)
    assert spent.returncode == 0, spent.stdout[-3000:] + spent.stderr
    assert "Prodigious Strength — +1 die on strength rolls" in spent.stdout
    assert "Vin spends 4 Advancements: the Stunt “Prodigious Strength”" in spent.stdout
    assert "Prodigious Strength 1" in spent.stdout
    assert "**Vin**: 1 held of 20 (5 earned, 4 spent)." in spent.stdout


def test_the_console_reveals_a_secret_from_the_narrators_list(tmp_path: Path) -> None:
    words = "Q7-the-hideout-is-under-the-bakery"
    script = (
        "!as player1\n"
        "/character create name:Vin physique:4 charm:3 wits:5\n"
        "!as player2\n"
        "/character create name:Elend physique:3 charm:5 wits:4\n"
        "!as narrator\n"
        f'/secret add title:"The hideout" text:{words}\n'
        "/secret list\n"
        '!select mab:tellsel "The hideout"\n'
        "!select mab:tellto:1 Vin\n"
        "!click Reveal to Vin\n"
        "!as player2\n"
        "!click Read it\n"
        "!as player1\n"
        "!click Read it\n"
        "/character show name:Vin\n"
    )
    run = run_console(script, tmp_path / "secrets.sqlite3")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    assert "Reveal **The hideout** (Story Secret) to whom?" in run.stdout
    assert "Vin: **The hideout**. Press Read it for its words." in run.stdout
    assert "That Secret was not told to you" in run.stdout
    before, _, vin = run.stdout.rpartition("> !as player1")
    narrator, _, elend = before.rpartition("> !as player2")
    assert words not in narrator.split("> /secret list")[1]  # never on the panel or the card
    assert words not in elend and words in vin  # read by Vin's player alone
    assert "Traceback" not in run.stderr
