"""Who makes the interactions of a three-round Conflict: the table's rhythm, counted.

Run by hand: ``python -m bench.turns_bench`` (a few seconds). A Narrator and two players play
the same Conflict twice through the real discord.py dispatch on the fake Discord, with the
same seeded dice: Vin (player1) and Kell (player2) against the Narrator's Thug (a Villain) and
Guards (an Extras group of 3), physical, three rounds.

* ``typed``: declarations and actions are slash commands, defences and Nudges the prompt's
  buttons. A player moves only when a message pinged them; otherwise the Narrator, who sees
  the board, moves for them with ``who:`` (a player who is never told it is their turn).
* ``buttons``: every move is a click on the prompt that pinged its player (the Narrator for
  the Thug and the Guards); the Narrator types only ``/conflict next-round``.

It prints, per round, how many interactions each of them made, and how many turns (declare,
act, defend, Nudges) pinged the player who had to move. Setting up (making characters) is
not counted; starting the Conflict and adding its fighters count in round 1.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from testbed.bot_env import running_bot_env, table_world
from testbed.turns import Mode, Table, Tally

SEED = 17


async def measure(mode: Mode, folder: Path) -> Tally:
    async with running_bot_env(folder / f"{mode}.sqlite3", table_world(), seed=SEED) as env:
        table = Table(env, mode)
        await table.play()
        return table.tally


async def main(modes: list[Mode]) -> dict[Mode, Tally]:
    with tempfile.TemporaryDirectory() as folder:
        return {mode: await measure(mode, Path(folder)) for mode in modes}


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["typed", "buttons", "both"], default="both")
    args = parser.parse_args()
    modes: list[Mode] = ["typed", "buttons"] if args.mode == "both" else [args.mode]
    for mode, tally in asyncio.run(main(modes)).items():
        print(f"{mode}:")
        for line in tally.lines():
            print(f"  {line}")


if __name__ == "__main__":
    run()
