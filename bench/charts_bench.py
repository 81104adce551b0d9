"""The odds charts: how long Pillow takes to import and each chart to draw, and the examples in docs/.

Run by hand: ``python -m bench.charts_bench`` (about 15 s). It times, in fresh interpreters, the
import of what ``bot/render/charts.py`` uses of Pillow against a bare ``python -c pass`` (median
of ``--imports`` runs), then each chart's drawing without the store that keeps them (median of
``--draws`` after 5 unmeasured), and prints the PNG sizes.

``python -m bench.charts_bench --save docs`` writes the examples docs/odds-charts.md shows
(``odds-roll.png``, ``odds-table.png``, ``odds-contest.png``) and measures nothing.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import machine, table
from bot.render.charts import (
    contest_chart,
    draw_contest,
    draw_roll,
    draw_table,
    roll_chart,
    table_chart,
)
from rules.odds import contest_odds, odds, odds_table

PILLOW = "from PIL import Image, ImageDraw, ImageFont, PngImagePlugin"


def examples() -> dict[str, Callable[[], bytes]]:
    """Each chart kind for one input, drawn anew on every call (the store is bypassed)."""
    roll = roll_chart(odds(5, 3)).figures
    grid = table_chart(odds_table()).figures
    contest = contest_chart(contest_odds(6, 4, difficulty=2), acting=6, opposing=4, difficulty=2).figures
    return {
        "roll": lambda: draw_roll(roll),
        "table": lambda: draw_table(grid),
        "contest": lambda: draw_contest(contest),
    }


def import_ms(code: str, runs: int) -> float:
    """Median wall time of a fresh interpreter running ``code``, after one run to warm the disk."""
    subprocess.run([sys.executable, "-c", code], check=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def draw_ms(draw: Callable[[], bytes], runs: int) -> tuple[float, int]:
    """Median milliseconds of ``runs`` drawings after 5 unmeasured, and the PNG's size."""
    for _ in range(5):
        draw()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        png = draw()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times), len(png)


def save(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, draw in examples().items():
        path = folder / f"odds-{name}.png"
        path.write_bytes(draw())
        print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.charts_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--imports", type=int, default=15, help="interpreter starts per import figure")
    parser.add_argument("--draws", type=int, default=100, help="measured drawings per chart")
    parser.add_argument("--save", type=Path, metavar="DIR", help="write the example charts to DIR instead")
    args = parser.parse_args()
    if args.save:
        save(args.save)
        return
    load = machine()
    bare = import_ms("pass", args.imports)
    pillow = import_ms(PILLOW, args.imports)
    print(f"charts: {load}")
    print(f"import Pillow: {pillow - bare:.0f} ms over a bare interpreter ({pillow:.0f} vs {bare:.0f} ms)\n")
    rows = []
    for name, draw in examples().items():
        ms, size = draw_ms(draw, args.draws)
        rows.append([name, f"{ms:.1f}", f"{size / 1024:.0f} KiB"])
    print(table(["chart", "first drawing, median ms", "PNG"], rows))


if __name__ == "__main__":
    main()
