"""A defence click's own work, run hot and run cold: what a move pays is set by the CPU's caches.

Run by hand: ``python -m bench.cold_bench`` (200 samples per phase, about 15 s on 2 cores);
``--samples`` changes the size.

Each phase of a defence click's own Python (above its storage, docs/benchmarks.md, "One
interaction through the real dispatch") runs alone, on the dispatch bench's duel at its defence
step (Vin, a full sheet, defending against the Thug's attack, ``bench.common``): the rules
(``rules.conflict.apply``), the new document written (``dump_conflict``), the reply's embed
(``bot.render.conflict.events_embed``), and the document read back (``load_conflict``, what a
move pays when its state is not remembered). Each is timed by the thread's CPU clock, median:

* **hot**: run back to back, so its code and data stay in the CPU's caches, as a loop or a
  profiler's micro-benchmark finds them;
* **cold**: run after the caches are swept (a buffer larger than this machine's last-level
  cache copied), as in the bot, where the gateway, HTTP, storage and other servers'
  interactions run between two moves of a Conflict.

Before this bench, a click's phases were timed only hot; the gap says why cutting a move's
operations (each 1-5 % of the click) barely moved ``bench.dispatch_bench``: the cold figure is
what the bot pays, and it is set by how much distinct code and data a move touches.
"""

from __future__ import annotations

import argparse

from bench.common import SHEET, machine, table
from rules.character import CharacterKind
from rules.character.checked import make_character
from testbed.cold_work import Sweeper, duel, median_us, phases


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cold_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200, help="samples per phase and way (default 200)")
    args = parser.parse_args()
    vin = make_character(SHEET, name="Vin", kind=CharacterKind.HERO, owner_id=11)
    thug = make_character(
        name="Thug", kind=CharacterKind.VILLAIN, owner_id=12, attributes={"physique": 5, "wits": 2}
    )
    sweep = Sweeper()
    rows = []
    for name, work in phases(duel(vin, thug), 20 + 2 * args.samples).items():
        median_us(work, 20, None)  # first-use caches, unmeasured
        hot = median_us(work, args.samples, None)
        cold = median_us(work, args.samples, sweep)
        rows.append([name, f"{hot:.0f}", f"{cold:.0f}", f"{cold / hot:.1f}x"])
    print(f"a defence click's own work, hot and cold, {args.samples} samples each ({machine()})\n")
    print(table(["phase", "hot µs", "cold µs", "cold / hot"], rows))


if __name__ == "__main__":
    main()
