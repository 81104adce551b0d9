"""Entry point: ``python -m bot``.

Until the Discord layer lands this opens a small offline console over the rules engine, reading
``/roll dice:5 difficulty:3`` and ``/odds`` lines from the keyboard, a pipe or a file.
"""

import random
import shlex
import sys
from typing import TextIO

from rules.errors import RulesError
from rules.odds import odds_table
from rules.pool import build_pool
from rules.roll import Reading, roll

HELP = "Commands: /roll dice:N [difficulty:1-5] [traits:N] [tool:-1|0|1], /odds, /help. Ctrl-D quits."


def describe(reading: Reading) -> str:
    parts = " + ".join(f"{c.label} {c.dice}" for c in reading.pool.contributions)
    verdict = "Success" if reading.success else "Failure"
    lines = [
        f"Pool: {parts} = {reading.pool.total} -> {reading.pool.dice} dice",
        f"Dice: {' '.join(map(str, reading.faces))}",
        f"{verdict}: Result {reading.result} vs Difficulty {reading.difficulty}, "
        f"Outcome {reading.outcome:+d} ({reading.outcome_name})",
    ]
    if reading.nudges:
        lines.append(f"Nudges: {reading.nudges}" + (" (catch a Beat!)" if reading.can_catch_beat else ""))
    if reading.complications:
        lines.append(f"Complications: {reading.complications}")
    return "\n".join(lines)


def handle(line: str, rng: random.Random) -> str:
    words = shlex.split(line)
    if not words or words[0] in ("/help", "help"):
        return HELP
    options = dict(word.split(":", 1) for word in words[1:] if ":" in word)
    try:
        if words[0] == "/roll":
            pool = build_pool(
                int(options.get("dice", "2")),
                traits_for=int(options.get("traits", "0")),
                tool=int(options.get("tool", "0")),
            )
            return describe(roll(pool, rng, difficulty=int(options.get("difficulty", "1"))))
        if words[0] == "/odds":
            rows = [
                f"{dice:>2} dice: " + "  ".join(f"{float(p):6.1%}" for p in row.values())
                for dice, row in odds_table().items()
            ]
            return "Chance of success, Difficulty 1-5:\n" + "\n".join(rows)
    except (RulesError, ValueError) as error:
        return f"Error: {error}"
    return f"Unknown command {words[0]!r}. {HELP}"


def console(stream: TextIO, out: TextIO) -> None:
    rng = random.Random()
    out.write(f"Mistborn dice console (offline). {HELP}\n")
    for line in stream:
        out.write(handle(line.strip(), rng) + "\n")


def main() -> None:
    console(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
