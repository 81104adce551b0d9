"""docs/architecture.md's "A defence click, module by module" is the trace, not a memory of it:
the modules a fresh trace of the click reaches before its reply are the ones the document lists,
in the same order, and the same modules after it (``python -m bench.click_trace --write``
writes the list).

Call counts are left out of the comparison: they move with what a cache holds, while a module
on the path or off it is what a reader of the document relies on.
"""

from pathlib import Path

from testbed.bot_env import BotEnv
from testbed.click_trace import END, START, Trace, trace_defence_click, trace_roll

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
REWRITE = "run `python -m bench.click_trace --write` and commit docs/architecture.md"


def documented() -> tuple[list[str], set[str]]:
    """The modules docs/architecture.md lists before the reply (in order) and after it."""
    block = ARCHITECTURE.read_text(encoding="utf-8").split(START, 1)[1].split(END, 1)[0]
    before: list[str] = []
    after: set[str] = set()
    replied = False
    for line in block.splitlines():
        if line.startswith("the reply ("):
            replied = True
        elif line.startswith("  "):
            name = line.split()[0]
            if replied:
                after.add(name)
            else:
                before.append(name)
    return before, after


def traced(trace: Trace) -> tuple[list[str], set[str]]:
    before = [m.name for m in trace.modules.values() if not m.after_reply]
    return before, {m.name for m in trace.modules.values() if m.after_reply}


async def test_the_documented_defence_click_is_the_traced_one(bot_env: BotEnv) -> None:
    trace = await trace_defence_click(bot_env)
    doc_before, doc_after = documented()
    assert doc_before, f"docs/architecture.md holds no trace: {REWRITE}"
    fresh_before, fresh_after = traced(trace)
    assert fresh_before == doc_before, REWRITE
    assert fresh_after == doc_after, REWRITE
    # Issue 40: before its reply a click reads through at most two packages of bot (the
    # Conflict's and the renderers); the workers hear of the move from its delivery.
    assert len(trace.packages()) <= 2 and "bot.workers" not in trace.packages(), trace.packages()


async def test_a_roll_traces_to_its_card_through_no_worker(bot_env: BotEnv) -> None:
    """``python -m bench.click_trace --roll``: the yardstick a defence click is measured against
    reaches its card, and nothing of the Conflict's workers runs for it."""
    trace = await trace_roll(bot_env)
    before, after = traced(trace)
    assert "bot.cogs.dice.rolling" in before and "storage.rolls" in before
    assert trace.reply == "bot.cogs.dice.rolling.answer"
    assert not [name for name in [*before, *after] if name.startswith("bot.workers")]
