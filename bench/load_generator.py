"""The open-loop load ``bench.load_bench`` offers: a weighted mix of commands from random
servers, sent on a fixed schedule whether or not earlier ones were answered, and Conflict moves
that each wait for the same Conflict's previous move to be acknowledged (a move told "busy" is
sent again, as its member would: the Conflict has not moved on).

Apart from the bench's runner (``bench.load_bench``: seeding, the bot process, the report) and
its results (``bench.load_results``).
"""

from __future__ import annotations

import asyncio
import gc
import random
import time
from dataclasses import dataclass

from bench.common import JSON, Duel, Payloads, defend_button
from bench.load_results import ACK_WINDOW, GcWatch, ProcessClock, RateResult, Sent, outcome
from bot.admission import BUSY
from fake_discord.process import settle_remote
from fake_discord.records import InteractionRecord, clock
from fake_discord.server import FakeDiscord
from testbed.host import StealClock

DEFAULT_MIX = "roll=30,stat=15,odds=8,table=1,sheet=14,complete=22,conflict=10"
LINES = {
    "roll": ("player1", "/roll dice:5 difficulty:2"),
    "stat": ("player1", "/roll stat:Physique"),
    "odds": ("player2", "/odds roll dice:6 difficulty:3"),
    "table": ("player2", "/odds table"),
    "sheet": ("player2", "/character show name:Vin"),
}
COMPLETIONS = [("player2", "/character show name:V"), ("player1", "/roll stat:Ph")]
ACT, CLICK, NEXT_ROUND, DECLARE = 0, 1, 2, 3
"""Indexes into a duel's moves: /act, the defence click, then Duel.steps (next round, declares, heal)."""
MAX_REFUSED = 3
STEAL = StealClock()


@dataclass
class DuelState:
    duel: Duel
    step: int = 0
    last: InteractionRecord | None = None
    refused: int = 0
    broken: bool = False


class Load:
    def __init__(self, fake: FakeDiscord, duels: list[Duel], mix: dict[str, int], seed: int) -> None:
        self.fake = fake
        self.p = Payloads(fake)
        self.rng = random.Random(seed)
        self.guilds = fake.world.guilds
        self.kinds = list(mix)
        self.weights = [mix[k] for k in self.kinds]
        self.templates: dict[str, list[JSON]] = {}
        for kind, (user, line) in LINES.items():
            self.templates[kind] = [self.p.slash(line, self.p.actor(g, user)) for g in self.guilds]
        crowded = self.guilds[0]
        self.templates["list"] = [self.p.slash("/character list", self.p.actor(crowded, "player2"))]
        self.templates["complete"] = [
            self.p.slash(line, self.p.actor(g, user), focus=True)
            for g in self.guilds
            for user, line in COMPLETIONS
        ]
        self.duels = [DuelState(d) for d in duels]
        self.duel_templates = {
            id(d): [self._duel_template(d, i) for i in range(NEXT_ROUND + len(d.steps))] for d in duels
        }

    def _duel_template(self, duel: Duel, index: int) -> JSON:
        """``/act``; the click (built per send, from the prompt); then next round, declares, heal."""
        if index == ACT:
            return self.p.slash(duel.act_line, self.p.actor(duel.guild, "narrator", duel.channel))
        if index == CLICK:
            return {}
        user, line = duel.steps[index - NEXT_ROUND]
        return self.p.slash(line, self.p.actor(duel.guild, user, duel.channel))

    def pick(self) -> tuple[str, JSON]:
        kind = self.rng.choices(self.kinds, self.weights)[0]
        if kind == "conflict":
            move = self._duel_move()
            if move is not None:
                return kind, move
            kind = "roll"
        return kind, self.p.fresh(self.rng.choice(self.templates[kind]))

    def _duel_move(self) -> JSON | None:
        """The next move of a random Conflict whose previous move was acknowledged, if any."""
        ready = [d for d in self.duels if not d.broken and (d.last is None or d.last.response is not None)]
        if not ready:
            return None
        state = self.rng.choice(ready)
        last, duel, steps = state.last, state.duel, self.duel_templates[id(state.duel)]
        if last is not None and outcome_is_busy(last):
            return self.p.fresh(last.payload)  # told "busy": the member tries the same move again
        if last is not None and (last.errors or last.ephemeral):
            state.refused += 1
            state.broken = state.refused >= MAX_REFUSED
            state.step = NEXT_ROUND  # a refused move: start the round again
        else:
            state.refused = 0
        if state.step == CLICK:
            state.step = NEXT_ROUND
            custom_id = defend_button(last.message if last else None)
            if last is not None and last.message is not None and custom_id is not None:
                actor = self.p.actor(duel.guild, "player1", duel.channel)
                return self.p.fresh(self.p.click(actor, last.message, custom_id))
        payload = self.p.fresh(steps[state.step])
        state.step = (state.step + 1) % len(steps)
        return payload

    def track(self, kind: str, record: InteractionRecord) -> None:
        """Remember a Conflict move as its duel's newest (matched by channel)."""
        if kind != "conflict":
            return
        channel = int(record.payload["channel"]["id"])
        for state in self.duels:
            if state.duel.channel.id == channel:
                state.last = record

    async def declare_all(self) -> None:
        """Both sides of every Conflict declare, one move at a time, so each is ready for /act."""
        for state in self.duels:
            for step in (DECLARE, DECLARE + 1):
                record = await self.fake.send_interaction(
                    self.p.fresh(self.duel_templates[id(state.duel)][step])
                )
                await settle_remote(record)
                if record.errors or record.ephemeral:
                    raise RuntimeError(f"setup move refused: {record.errors or record.content}")
            state.step = ACT

    async def run_rate(self, rate: int, seconds: float, bot: ProcessClock | None = None) -> RateResult:
        fake = self.fake
        result = RateResult(rate, seconds)
        before = len(fake.violations)
        total = int(rate * seconds)
        start = clock() + 0.01
        cpu_before = bot.seconds() if bot else 0.0
        harness_before, steal_before = time.process_time(), STEAL.ticks()
        with GcWatch(hold=True) as watch:  # no pause here may count against the bot
            for i in range(total):
                due = start + i / rate
                delay = due - clock()
                if delay > 0:
                    await asyncio.sleep(delay)
                result.lag = max(result.lag, clock() - due)
                kind, payload = self.pick()
                record = await fake.send_interaction(payload)
                self.track(kind, record)
                result.sent.append(Sent(kind, due, record))
            # Everything sent gets its full 3 s window (bounded), then the bot is left to drain.
            last_due = start + (total - 1) / rate
            while clock() < last_due + ACK_WINDOW + 0.2 and any(
                s.record.response is None for s in result.sent
            ):
                await asyncio.sleep(0.05)
        result.gc_full, result.gc_max = watch.full, watch.longest
        result.harness_cpu = time.process_time() - harness_before
        result.steal = STEAL.share_since(steal_before)
        if bot is not None:
            result.bot_cpu = bot.seconds() - cpu_before
        if result.sent:  # followups and board edits drain before the next rate
            await settle_remote(result.sent[-1].record, total=5.0)
        await asyncio.sleep(0.5)
        result.violations = len(fake.violations) - before
        self.compact(result)
        gc.collect()  # what the window left, outside it
        return result

    def compact(self, result: RateResult) -> None:
        """Sum up the rate, then drop its records from here and from the fake (messages too),
        so later rates do not carry a growing heap (and longer garbage collections)."""
        result.outcomes = [
            (s.kind, outcome(s), None if s.record.responded_at is None else s.record.responded_at - s.due)
            for s in result.sent
        ]
        keep = {id(d.last) for d in self.duels}
        fake = self.fake
        for sent in result.sent:
            record = sent.record
            if id(record) in keep:
                continue
            fake.interactions.pop(record.id, None)
            for message in [record.original, *record.followups]:
                if message is not None:
                    fake.messages.pop(int(message["id"]), None)
        result.sent = []


def parse_mix(text: str) -> dict[str, int]:
    mix: dict[str, int] = {}
    for part in text.split(","):
        name, _, weight = part.partition("=")
        if name.strip() not in {*LINES, "complete", "conflict", "list"}:
            raise SystemExit(f"unknown mix entry {name!r}")
        mix[name.strip()] = int(weight)
    return mix


def outcome_is_busy(record: InteractionRecord) -> bool:
    """The bot said "busy, try again" (admission control, past capacity): nothing was changed."""
    return record.ephemeral and record.content == BUSY and not record.errors
