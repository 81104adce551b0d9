"""Conflict embeds stay inside Discord's limits with 25 maximal participants and long batches."""

from collections.abc import Iterator

from bot.render.conflict import (
    defence_prompt,
    event_lines,
    events_embed,
    status_embed,
    summary_embed,
)
from bot.render.rows import INDENT
from rules.burdens import Severity
from rules.character import Burden, Resilience, make_character
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    Declare,
    DiceSpec,
    EndReason,
    Event,
    Side,
    SummaryLine,
)
from rules.conflict import events as ev
from tests.bot.render.conflict_render_support import assert_fits, text_of
from tests.rules.conflict.builders import Table

NASTY = "*_~`|\\>@everyone<@123456789012345678>"


def nasty_name(index: int) -> str:
    return (f"{index:02d}" + NASTY * 3)[:64]


def crowd() -> Iterator[Table]:
    """25 maximal names, declared and then resolving with an attack waiting for a defence."""
    sheets = {
        i: make_character(name=nasty_name(i), kind="hero" if i % 2 else "villain", owner_id=1)
        for i in range(1, 26)
    }
    table = Table.start(sheets)
    yield table
    label = ("**" + NASTY) * 3
    for pid in (p.id for p in sorted(table.state.participants, key=lambda p: (p.wits, p.rank))):
        target = pid % 25 + 1
        spec = ActionSpec(kind=ActionKind.ATTACK, target=target, label=label[:100])
        table.do(Declare(participant=pid, action=spec, dice=DiceSpec(stat="Physique")))
    yield table
    first = table.state.participants[0].id
    table.do(Act(participant=first, pool=2))
    yield table


def test_25_maximal_names_fit_every_limit() -> None:
    long_stakes = ("*_" + NASTY) * 10
    for step, table in enumerate(crowd()):
        state = table.state.model_copy(update={"stakes": long_stakes[:200]})
        board = status_embed(state, table.sheets)
        assert_fits(board)
        assert "@everyone" not in text_of(board) and "<@123456789012345678>" not in text_of(board)
        lines = [line for f in board.fields if f.name != "Next" for line in (f.value or "").split("\n")]
        starts = [line for line in lines if not line.startswith(INDENT)]  # a row begins a participant
        assert len(starts) == 25, "every participant keeps its rows"
        if step == 2:
            prompt = defence_prompt(state, table.sheets)
            assert prompt is not None and len(prompt) <= 2000
    events = table.last.events if table.last else ()
    assert_fits(events_embed(table.state, events, title="x" * 300))


def test_a_long_batch_keeps_its_last_lines() -> None:
    tables = crowd()
    table = next(tables)
    table = next(tables)
    everything: list[Event] = []
    for _ in range(4):
        everything += [
            ev.Joined(participant=p.id, side=p.side, surprised=False) for p in table.state.participants
        ]
    reply = events_embed(table.state, everything, title="Many")
    assert_fits(reply)
    description = reply.description or ""
    assert description.startswith("… ") and "earlier lines not shown" in description
    assert description.endswith(event_lines(table.state, everything)[-1])


def test_the_reply_and_summary_share_one_message() -> None:
    wound = Burden(name="W" * 40, severity=Severity.GRAVE)
    lines = tuple(
        SummaryLine(
            name=nasty_name(i),
            side=Side.HEROES if i % 2 else None,
            dealt=i,
            taken=((Resilience.HEALTH, 3),),
            members_lost=1,
            burdens=(wound,) * 10,
            defeated=True,
        )
        for i in range(40)
    )
    ended = ev.ConflictEnded(
        reason=EndReason.NARRATOR, defeated_sides=(), rounds=9, summary=lines, log_dropped=1
    )
    summary = summary_embed(ended)
    assert_fits(summary)
    assert "The oldest log entry was dropped" in (summary.footer.text or "")
    table = next(crowd())
    events = [ev.Joined(participant=p.id, side=p.side, surprised=True) for p in table.state.participants]
    reply = events_embed(table.state, [*events, *events, ended], title="End", limit=2500)
    shared = summary_embed(ended, limit=3500)
    assert_fits(reply)
    assert_fits(shared)
    assert len(reply) + len(shared) <= 6000
