"""A three-round Conflict at the table, played through the real dispatch: who makes each move.

A Narrator and two players, Vin (player1) and Kell (player2), against the Narrator's Thug (a
Villain) and Guards (an Extras group of 3), physical, three rounds. :class:`Table` plays it in
one of two modes and counts each interaction and whether the turn pinged the one who must move:

* ``typed``: declarations and actions are slash commands, defences and Nudges the prompt's
  buttons. A player moves only when a message pinged them; otherwise the Narrator, who sees
  the board, moves for them with ``who:`` (a player who is never told it is their turn).
* ``buttons``: every move is a click on the prompt that pinged its player (the Narrator for
  the Thug and the Guards); the Narrator types only ``/conflict next-round``.

``tests/bot/cogs/conflict/test_turn_prompts.py`` plays it, and ``python -m bench.turns_bench``
prints the count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.character import CharacterKind
from rules.conflict import Conflict, Step, available_defence, waiting
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, refused

JSON = dict[str, Any]
Mode = Literal["typed", "buttons"]
ROUNDS = 3

SHEETS = [
    ("player1", "/character create name:Vin physique:4 charm:4 wits:3 resources:3 influence:3 spirit:3"),
    ("player1", "/edit prop-add prop:Dagger weapon:1"),
    ("player2", "/character create name:Kell physique:3 charm:4 wits:4 resources:3 influence:3 spirit:3"),
    ("narrator", "/character create name:Thug kind:Villain physique:4 wits:3"),
    ("narrator", "/character create name:Guards kind:Extra physique:3 wits:2 size:3"),
]
START = [
    ("narrator", '/conflict start kind:physical stakes:"Out of the alley"'),
    ("player1", "/conflict join"),
    ("player2", "/conflict join"),
    ("narrator", "/conflict add character:Thug"),
    ("narrator", "/conflict add character:Guards"),
    ("narrator", "/conflict begin"),
]
TARGETS = {
    "Vin": ("Thug", "Guards"),
    "Kell": ("Guards", "Thug"),
    "Thug": ("Vin", "Kell"),
    "Guards": ("Kell", "Vin"),
}


@dataclass
class Tally:
    """Interactions per round and user, and turns that pinged (or not) the one who must move."""

    moves: dict[int, Counter[str]] = field(default_factory=dict)
    pinged: Counter[str] = field(default_factory=Counter)
    unpinged: Counter[str] = field(default_factory=Counter)

    def add(self, round_number: int, user: str) -> None:
        self.moves.setdefault(round_number, Counter())[user] += 1

    def lines(self) -> list[str]:
        out = []
        for number, counts in sorted(self.moves.items()):
            total = sum(counts.values())
            who = ", ".join(f"{u} {counts[u]}" for u in ("narrator", "player1", "player2"))
            out.append(f"round {number}: {total} interactions ({who})")
        out.append(f"turns that pinged their mover: {dict(self.pinged)}; that did not: {dict(self.unpinged)}")
        return out


def mentioned(message: JSON) -> set[int]:
    """Users a message pinged (the fake fills ``mentions`` as Discord does)."""
    return {int(user["id"]) for user in message.get("mentions") or []}


class Table:
    def __init__(self, env: BotEnv, mode: Mode) -> None:
        self.env = env
        self.mode = mode
        self.tally = Tally()
        self.mark = 0
        self.pings: set[int] = set()
        self.round = 1

    async def state(self) -> Conflict | None:
        return await current_conflict(
            self.env.storage, self.env.guild_id, self.env.world.guild.channels[0].id
        )

    def user_of(self, conflict: Conflict, participant: int) -> str:
        found = conflict.participant(participant)
        if found.kind is not CharacterKind.HERO:
            return "narrator"
        return "player1" if found.name == "Vin" else "player2"

    async def move(self, user: str, how: str, target: str = "", values: list[str] | None = None) -> None:
        """One interaction: a slash command (``how`` starts with /), a click, or a select."""
        fake = self.env.harness.fake
        self.mark = max(fake.messages, default=0)
        if how.startswith("/"):
            record = await self.env.slash(how, user=user)
        elif values is not None:
            record = await self.env.harness.select(target, values, message=self.prompt(user), user=user)
        else:
            record = await self.env.harness.click(target, message=self.prompt(user), user=user)
        assert not refused(record), f"{user} {how} {target} was refused: {record.content}"
        await self.env.bot.conflicts.idle()
        self.tally.add(self.round, user)
        self.pings = set().union(*(mentioned(m) for i, m in fake.messages.items() if i > self.mark))

    def prompt(self, user: str) -> JSON | None:
        """The newest message that pinged ``user``: where their buttons are."""
        uid = self.env.user_id(user)
        for message in reversed(self.env.harness.fake.messages.values()):
            if uid in mentioned(message) and message.get("components"):
                return message
        return None

    def target(self, conflict: Conflict, name: str) -> str:
        standing = {p.name for p in conflict.participants if not p.defeated}
        return next(t for t in TARGETS[name] if t in standing)

    async def play(self) -> None:
        await self.env.play(SHEETS)
        for user, line in START:
            await self.move(user, line)
        while (conflict := await self.state()) is not None:
            wait = waiting(conflict)
            if wait.step is Step.NEXT_ROUND:
                if conflict.round >= ROUNDS:
                    return
                await self.move("narrator", "/conflict next-round")
                self.round += 1
                continue
            who = conflict.participant(wait.participants[0])
            user = self.user_of(conflict, who.id)
            told = self.env.user_id(user) in self.pings
            (self.tally.pinged if told else self.tally.unpinged)[wait.step.value] += 1
            if self.mode == "typed" and not told and wait.step in (Step.DECLARE, Step.ACT):
                user = "narrator"
            await self.turn(conflict, wait.step, who.id, user)

    async def turn(self, conflict: Conflict, step: Step, participant: int, user: str) -> None:
        who = conflict.participant(participant)
        if step is Step.DEFEND:
            sheets = {p.id: s.character for p in conflict.participants if (s := await self.sheet(p.id))}
            held = min(10, available_defence(conflict, sheets, participant))
            await self.move(user, "click", f"Defend with {held}" if held >= 2 else "Don't defend")
        elif step is Step.NUDGES:
            await self.move(user, "click", "All on damage")
        elif step is Step.DECLARE and self.mode == "typed":
            target = self.target(conflict, who.name)
            await self.move(user, f"/declare who:{who.name} action:attack target:{target} stat:Physique")
        elif step is Step.DECLARE:
            await self.move(user, "select", "Attack…", [self.target(conflict, who.name)])
        elif self.mode == "typed":
            held = min(10, who.round.action_dice)
            await self.move(
                user, f"/act who:{who.name} dice:{held}" if held >= 2 else f"/pass who:{who.name}"
            )
        else:
            held = min(10, who.round.action_dice)
            await self.move(user, "click", f"Act with {held}" if held >= 2 else "Not act")

    async def sheet(self, character_id: int) -> Any:
        return await self.env.storage.characters.get(self.env.guild_id, character_id)
