"""The path of one "Defend with N" click through our modules, traced (``testbed.click_trace``).

Run by hand: ``python -m bench.click_trace`` prints the modules the click reached, in the order it
first reached them, with their calls and the first function called in each, split where the
reply's delivery starts; ``--write`` puts that list into docs/architecture.md ("A defence click,
module by module"), where ``tests/bot/test_click_trace.py`` holds it to the trace. ``--reply
MODULE:FUNCTION`` names another function as the start of the reply (to trace an older tree).
``--roll`` traces a ``/roll stat:Physique`` instead (``testbed.click_trace.trace_roll``), the
plain command a click is measured against; it is printed, never written.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from bench.common import quiet_logs
from fake_discord.world import default_world
from testbed.bot_env import running_bot_env
from testbed.click_trace import END, REPLY, ROLL_REPLY, START, Trace, trace_defence_click, trace_roll

ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def block(trace: Trace) -> str:
    """The generated part of docs/architecture.md, between its markers."""
    return f"{START}\n{trace.summary()}:\n\n```\n{trace.listing()}\n```\n{END}"


def write(trace: Trace) -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    ARCHITECTURE.write_text(before + block(trace) + after, encoding="utf-8")


async def run(args: argparse.Namespace) -> None:
    quiet_logs()
    if args.roll and args.write:
        raise SystemExit("--write writes the defence click's trace; --roll is only printed")
    module, _, function = (args.reply or ":".join(ROLL_REPLY if args.roll else REPLY)).partition(":")
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot_env(Path(folder) / "trace.sqlite3", default_world()) as env:
            if args.roll:
                trace = await trace_roll(env, (module, function))
            else:
                trace = await trace_defence_click(env, (module, function))
    print(trace.summary())
    print(f"bot packages before the reply: {', '.join(trace.packages())}")
    print()
    print(trace.listing())
    if args.write:
        write(trace)
        print(f"\nwritten into {ARCHITECTURE}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.click_trace", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the list into docs/architecture.md")
    parser.add_argument("--roll", action="store_true", help="trace a /roll stat:Physique instead")
    parser.add_argument(
        "--reply",
        metavar="MODULE:FUNCTION",
        help=f"the function that starts the reply's delivery (default {':'.join(REPLY)};"
        f" with --roll {':'.join(ROLL_REPLY)})",
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
