"""The cluster bench's load generator, in a process of its own (``bench.cluster_bench``).

In the bench's process it shared an event loop with the fake Discord, so every callback the
fake handled made the next interaction late (45 ms behind at 100/s): the bench measured itself.
Here nothing else runs: the schedule is kept by ``time.sleep`` on the system's monotonic clock
(the fake's clock too), and each interaction due is one line on stdout, ``<kind> <server> <due>``,
which the bench turns into an interaction at once. The last line is ``end <lag>``: how late this
process ever was, in seconds.

    python -m bench.cluster_generator --rate 100 --seconds 5 --servers 20 --seed 11 roll:40 move:15
"""

import argparse
import random
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster_generator")
    parser.add_argument("--rate", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--servers", type=int, required=True)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--start", type=float, default=0.0, help="monotonic time of the first (default: now)")
    parser.add_argument("mix", nargs="+", help="kind:weight ...")
    args = parser.parse_args()
    kinds = [item.split(":")[0] for item in args.mix]
    weights = [int(item.split(":")[1]) for item in args.mix]
    rng = random.Random(args.seed)
    start = max(args.start, time.monotonic() + 0.01)
    lag = 0.0
    out = sys.stdout
    for i in range(int(args.rate * args.seconds)):
        due = start + i / args.rate
        if (delay := due - time.monotonic()) > 0:
            time.sleep(delay)
        lag = max(lag, time.monotonic() - due)
        kind = rng.choices(kinds, weights)[0]
        out.write(f"{kind} {rng.randrange(args.servers)} {due!r}\n")
        out.flush()
    out.write(f"end {lag!r}\n")
    out.flush()


if __name__ == "__main__":
    main()
