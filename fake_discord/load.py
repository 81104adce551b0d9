"""A stream of interactions from several members, and what each acknowledgement promises.

The crash tests and ``bench/soak_faults.py`` send state-changing commands to a bot in another
process (:class:`~fake_discord.process.RemoteHarness`) as fast as it answers, kill it, and
then check that everything it *acknowledged* survived. :class:`Load` records what was sent and,
for each interaction, an optional promise: an async check of the bot's state (its database,
for instance) that must hold if the bot acknowledged. What the state is and how to check it is
the caller's business; this module only talks to the bot through the fake.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from fake_discord import payloads
from fake_discord.commandline import parse_slash
from fake_discord.layout import is_layout
from fake_discord.payloads import EPHEMERAL
from fake_discord.process import RemoteHarness, settle_remote
from fake_discord.records import InteractionRecord

JSON = dict[str, Any]
State = TypeVar("State")
"""What promises are checked against (the bot's storage, say)."""


def acknowledged(record: InteractionRecord) -> bool:
    """The fake received a non-error answer: a reply the bot only sends after it committed.

    Assumes the common convention that a refusal is private text, without an embed or a card; a button
    that deferred or updated its message (types 6 and 7) did so after its change was saved.
    """
    if record.response_type in (6, 7):
        return True
    if record.response_type not in (4, 5):
        return False
    if not record.messages:
        return False
    message = record.messages[0]
    private = bool(int(message.get("flags") or 0) & EPHEMERAL)
    return not (private and not message.get("embeds") and not is_layout(message))


@dataclass
class Sent(Generic[State]):
    what: str
    record: InteractionRecord
    check: Callable[[State], Awaitable[bool]] | None


@dataclass
class Load(Generic[State]):
    """Everything sent, and a way to wait for "the next interaction is on its way to the bot"."""

    harness: RemoteHarness
    sent: list[Sent[State]] = field(default_factory=list)
    pulse: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def acks(self) -> int:
        return sum(acknowledged(s.record) for s in self.sent)

    def in_flight(self) -> list[Sent[State]]:
        return [s for s in self.sent if s.record.response is None]

    async def write(
        self,
        user: str,
        line: str,
        check: Callable[[State], Awaitable[bool]] | None = None,
        *,
        settle: bool = False,
    ) -> InteractionRecord:
        """Send a slash command as `user`; wait for its first answer, or (`settle`) until it is done."""
        harness = self.harness
        actor = harness.actor(user)
        parsed = parse_slash(line, harness.commands, actor.guild, actor.member, attach=harness.attach)
        payload = payloads.slash_command(
            harness.world, actor, parsed.command, parsed.options, parsed.resolved
        )
        return await self._send(line, payload, check, settle)

    async def click(
        self,
        user: str,
        custom_id: str,
        check: Callable[[State], Awaitable[bool]] | None = None,
        *,
        settle: bool = False,
    ) -> InteractionRecord:
        """Press the newest button `user` can see with this custom id."""
        harness = self.harness
        actor = harness.actor(user)
        message, component = harness.find_component(custom_id, actor.member, kinds={2})
        payload = payloads.component_click(harness.world, actor, message, component)
        return await self._send(f"click {custom_id}", payload, check, settle)

    async def _send(
        self, what: str, payload: JSON, check: Callable[[State], Awaitable[bool]] | None, settle: bool
    ) -> InteractionRecord:
        fake = self.harness.fake
        record = await fake.send_interaction(payload)
        self.sent.append(Sent(what, record, check))
        self.pulse.set()
        self.pulse = asyncio.Event()
        ack = fake.limits.ack_deadline + 0.5
        if settle:
            await settle_remote(record, ack_timeout=ack, idle=self.harness.idle)
        else:
            await record.wait_response(ack)
        return record

    async def broken_promises(self, state: State) -> list[str]:
        """Acknowledged interactions whose promise does not hold in `state`."""
        broken = []
        for sent in self.sent:
            if sent.check is not None and acknowledged(sent.record) and not await sent.check(state):
                broken.append(sent.what)
        return broken
