"""The bot's counters and latency histograms, in Prometheus's format (``prometheus-client``).

Counted as they happen, for the whole process: interactions received by kind, the time from
an interaction's arrival to its first answer, "busy" answers and unexpected errors. What is a
state rather than an event (the loop's lag, shards connected, the outbox's backlog) is read
when Prometheus scrapes (``bot.health``). Nothing is served unless ``MISTBORN_METRICS_PORT`` is
set; counting costs a counter and a histogram call per interaction, a few microseconds, so it
always runs and a port turned on later shows the process's whole life.

The metrics belong to no registry here: each server made by ``bot.health`` registers them in
its own, so two bots in one process (the tests) never clash over names.
"""

from typing import Any

import discord
from prometheus_client import Counter, Histogram

KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
}
OTHER = "other"

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Seconds; Discord forgets an interaction unanswered after 3 s (``bot.replies``)."""

INTERACTIONS = Counter("mistborn_interactions", "Interactions received, by kind.", ["kind"], registry=None)
ANSWER_SECONDS = Histogram(
    "mistborn_interaction_answer_seconds",
    "Seconds from an interaction's arrival to its first answer (a reply, an update, a form, "
    'a "thinking…" defer, autocomplete suggestions), by kind.',
    ["kind"],
    buckets=LATENCY_BUCKETS,
    registry=None,
)
BUSY = Counter(
    "mistborn_busy_answers",
    'Interactions answered "busy, try again" without running: the bot past capacity '
    "(reason=overloaded), the database busy past its timeout (reason=database), or every "
    "picture reader taken with pictures waiting (reason=portraits).",
    ["reason"],
    registry=None,
)
ERRORS = Counter(
    "mistborn_errors",
    "Unexpected errors (bugs, logged with a traceback): in a command or button (where=interaction), "
    "or in the Conflict board's background redraw (where=board).",
    ["where"],
    registry=None,
)
REFUSED = Counter(
    "mistborn_refused_requests",
    "REST answers Discord counts toward its ban (10,000 in 10 minutes bans the address for an "
    "hour), by status: 401 (bad token), 403 (no access), 429 (rate limited).",
    ["status"],
    registry=None,
)
COLLECTORS = (INTERACTIONS, ANSWER_SECONDS, BUSY, ERRORS, REFUSED)

_received = {kind: INTERACTIONS.labels(kind) for kind in (*KINDS.values(), OTHER)}
_answered = {kind: ANSWER_SECONDS.labels(kind) for kind in (*KINDS.values(), OTHER)}
OVERLOADED = BUSY.labels("overloaded")
DATABASE_BUSY = BUSY.labels("database")
PORTRAITS_BUSY = BUSY.labels("portraits")
INTERACTION_ERRORS = ERRORS.labels("interaction")
BOARD_ERRORS = ERRORS.labels("board")


def kind_of(interaction: discord.Interaction[Any]) -> str:
    return KINDS.get(getattr(interaction, "type", None), OTHER)  # type: ignore[arg-type]


def received(interaction: discord.Interaction[Any]) -> None:
    """One interaction arrived."""
    _received[kind_of(interaction)].inc()


def answered(interaction: discord.Interaction[Any], seconds: float) -> None:
    """``interaction`` got its first answer ``seconds`` after it arrived."""
    _answered[kind_of(interaction)].observe(seconds)
