"""Exact odds against brute-force enumeration of the same cells.

Run by hand: ``python -m bench.odds_bench`` (pools 2–8, about 10 s) or
``python -m bench.odds_bench --max-dice 10`` (every cell, a few minutes: 6^10 throws).

Both sides start cold. The exact side computes the 2–N × 1–5 success table and an N-vs-N
Contest from :mod:`rules.odds`; the brute-force side throws every combination of faces and
tallies the same numbers. The two must agree exactly; the script says how much faster exact is.
"""

import argparse
import itertools
import time
from collections import Counter
from fractions import Fraction

from rules.odds import _odds, contest_odds, distribution, success_chance
from rules.roll import result_of


def exact(max_dice: int) -> tuple[dict[tuple[int, int], Fraction], tuple[Fraction, Fraction]]:
    distribution.cache_clear()
    _odds.cache_clear()
    table = {(n, d): success_chance(n, d) for n in range(2, max_dice + 1) for d in range(1, 6)}
    c = contest_odds(max_dice, max_dice)
    return table, (c.win, c.stalemate)


def enumerate_throws(dice: int) -> Counter[tuple[int, int]]:
    tally: Counter[tuple[int, int]] = Counter()
    for faces in itertools.product(range(1, 7), repeat=dice):
        tally[(result_of(faces), faces.count(6))] += 1
    return tally


def brute(max_dice: int) -> tuple[dict[tuple[int, int], Fraction], tuple[Fraction, Fraction]]:
    table = {}
    tallies = {}
    for n in range(2, max_dice + 1):
        tallies[n] = enumerate_throws(n)
        for d in range(1, 6):
            table[(n, d)] = Fraction(sum(w for (r, _), w in tallies[n].items() if r >= d), 6**n)
    side = tallies[max_dice]
    win = stalemate = 0
    for (ar, an), aw in side.items():
        for (orr, on), ow in side.items():
            if ar >= 1 and (ar, an) > (orr, on):
                win += aw * ow
            elif ar >= 1 and (ar, an) == (orr, on):
                stalemate += aw * ow
    total = 6 ** (2 * max_dice)
    return table, (Fraction(win, total), Fraction(stalemate, total))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-dice", type=int, default=8, choices=range(2, 11))
    args = parser.parse_args()
    t0 = time.perf_counter()
    exact_table, exact_contest = exact(args.max_dice)
    t1 = time.perf_counter()
    brute_table, brute_contest = brute(args.max_dice)
    t2 = time.perf_counter()
    assert exact_table == brute_table, "exact odds disagree with enumeration"
    assert exact_contest == brute_contest, "exact Contest odds disagree with enumeration"
    cells = len(exact_table)
    n = args.max_dice
    print(f"cells: {cells} (pools 2-{n} x Difficulty 1-5) + Contest {n} vs {n}; results identical")
    print(f"exact:       {1000 * (t1 - t0):9.1f} ms")
    print(f"brute force: {1000 * (t2 - t1):9.1f} ms")
    print(f"ratio:       {(t2 - t1) / (t1 - t0):9.0f}x faster exact")
    t3 = time.perf_counter()
    exact(10)
    print(
        f"exact, full 2-10 x 1-5 table + Contest 10 vs 10, cold: {1000 * (time.perf_counter() - t3):.1f} ms"
    )


if __name__ == "__main__":
    main()
