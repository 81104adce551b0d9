"""The secrecy matrix of issue 14: who sees, and who may do, what (docs/rulings.md §6.9, §7).

One row per thing a member can try, one column per kind of member; each cell is what the bot
must do. ``tests/bot/test_secrecy_matrix.py`` plays every cell through the real discord.py path
and asserts it (a refusal also leaves the database unchanged); ``python -m tests.bot.secrecy_matrix``
prints this table as Markdown for the closing note.

The table at play: player1's Hero Vin and player2's Hero Elend; the Villain Straff, made by a
member while their role made them a Narrator (the role is then taken away), and that member's
active character; a secret ``/gmroll`` by the Narrator; all three in a live Conflict in #table.
Issue 39's rooms (docs/rulings.md §7.6): a session in #ooc, which player2 may not view, with
Vin's roll there; a session open in #table, where player1 gave Vin a Burden in #whisper, a
private thread of #table. Every cell is asked in #table. Another server holds nothing of this.
"""

PERSONAS: dict[str, str] = {
    "player": "player (Vin's)",
    "other": "other player (Elend's)",
    "keeper": "role-only Narrator",
    "former": "former Narrator (made Straff)",
    "admin": "admin (Manage Server)",
    "stranger": "another server's member",
}
"""Who tries, by the key the tests use, with the column heading."""

ROWS: dict[str, str] = {
    "show": "`/character show name:Straff`",
    "export": "`/character export name:Straff`",
    "list": "`/character list`: Straff",
    "autocomplete": "autocomplete `name:Str`",
    "menu": "user menu View sheet (Straff is active)",
    "history": "`/history rolls`: the secret `/gmroll`",
    "fairness": "`/history fairness`: the secret roll",
    "board": "board: Narrator view button",
    "contest": "`/contest` with Straff's sheet as opponent",
    "roll": "`/roll character:Straff stat:Physique`",
    "faces_own_off": "typed faces, own roll, table dice off",
    "faces_own_on": "typed faces, own roll, table dice on",
    "faces_other_off": "typed faces, the attacker's (Straff's) dice, table dice off",
    "faces_other_on": "typed faces, the attacker's (Straff's) dice, table dice on",
    "challenge": "`/declare … challenge:true` against another",
    "heal": "`/sheet heal` mid-Conflict (own / Straff)",
    "damage": "`/sheet damage` mid-Conflict (own / Straff)",
    "burden": "`/burden add` mid-Conflict (own / Straff)",
    "act_villain": "`/act who:Straff` (act for the Villain)",
    "room_journal": "`/session journal session:N`: #ooc's night (player2 cannot view #ooc)",
    "room_history": "`/history rolls`: Vin's roll in #ooc",
    "room_story": "`/sheet history name:Vin`: Vin's roll in #ooc",
    "thread_recap": "`/session recap`: the Burden given in #whisper (player1's private thread)",
}
"""What is tried, by the key the tests use, with the row heading."""

REFUSED = "refused"
NARRATORS = ("keeper", "admin")
PUBLICLY, FIGURES = "publicly", "figures privately"
"""A Narrator's answer about Straff's sheet: what the table sees of it (a plain state, the dice
thrown), and the figures for the Narrator alone (docs/rulings.md §7.1)."""


def row(narrators: str, others: str = REFUSED, *, own_table_dice: str | None = None) -> dict[str, str]:
    """A row where the Narrators (by role, by Manage Server) get ``narrators`` and everyone else
    ``others``; ``own_table_dice``: what the two players get instead."""
    cells = {p: narrators if p in NARRATORS else others for p in PERSONAS}
    if own_table_dice is not None:
        cells["player"] = cells["other"] = own_table_dice
    return cells


EXPECTED: dict[str, dict[str, str]] = {
    "show": row("shown privately"),
    "export": row("file privately"),
    "list": row("listed privately", "not listed"),
    "autocomplete": row("offered", "not offered"),
    "menu": row("shown privately"),
    "history": row("listed privately", "not listed"),
    "fairness": row("counted privately", "not counted"),
    "board": row("full board privately"),
    "contest": row(f"dice {PUBLICLY}, {FIGURES}"),
    "roll": row(f"dice {PUBLICLY}, {FIGURES}"),
    "faces_own_off": row("accepted"),
    "faces_own_on": row("accepted", own_table_dice="accepted"),
    "faces_other_off": row("accepted"),
    "faces_other_on": row("accepted"),
    "challenge": row("accepted"),
    "heal": row(FIGURES),  # Straff is unhurt: nothing the table need hear
    "damage": row(f"state {PUBLICLY}, {FIGURES}"),
    "burden": row(f"state {PUBLICLY}, {FIGURES}"),
    "act_villain": row("accepted"),
    "room_journal": {**row("file privately", "file privately"), "other": REFUSED, "stranger": REFUSED},
    "room_history": {
        **row("listed privately", "listed privately"),
        "other": "not listed",
        "stranger": "not listed",
    },
    "room_story": {**row("listed privately", "listed privately"), "other": "not listed", "stranger": REFUSED},
    "thread_recap": {
        **row("shown privately", "not shown"),
        "player": "shown privately",
        "stranger": REFUSED,
    },
}
"""Every cell: what the bot must do for that member."""


def markdown(cells: dict[str, dict[str, str]] | None = None) -> str:
    """The matrix as a Markdown table (``cells``: observed outcomes; default: the expected)."""
    table = EXPECTED if cells is None else cells
    header = "| | " + " | ".join(PERSONAS.values()) + " |"
    lines = [header, "|---" * (len(PERSONAS) + 1) + "|"]
    for key, heading in ROWS.items():
        lines.append(f"| {heading} | " + " | ".join(table[key][p] for p in PERSONAS) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
