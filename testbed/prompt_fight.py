"""Issue 43's four-round, five-fighter fight, played by buttons, menus and forms only.

Vin (player1), Kell and Breeze (player2's two Heroes) against the Narrator's Thug (a Villain)
and Guards (an Extras group of 3), physical, four rounds, through the real dispatch. Every move
is made from what the bot posted: the board's **Begin round 1** (the Conflict started with
``auto_rounds``, so each next round opens by itself, docs/rulings.md §4.17), the declare
prompt's menus and its form (Traits and a label), the defeat Burden's menu, the Nudges form
(when a blow leaves 2 Nudges: not with seed 17), a hidden character's defence and act from the
Narrator's private prompt (which tells its dice), and Breeze taken out from the board's menu
after round 1. :class:`PromptFight` counts the typed commands of the fight (goal 0; making the
sheets and gathering the cast are not counted), its interactions per round and user, and the
Narrator's share.

``tests/bot/cogs/conflict/test_prompt_fight.py`` plays it; ``python -m bench.prompt_fight``
prints the count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fake_discord.records import InteractionRecord
from rules.character import CharacterKind
from rules.conflict import Conflict, Step, waiting
from testbed import turns
from testbed.bot_env import BotEnv, board_message, refused
from testbed.turns import Table

JSON = dict[str, Any]
EPHEMERAL = 64
ROUNDS = 4
SHEETS = [
    *turns.SHEETS,
    ("player2", "/character create name:Breeze physique:2 charm:5 wits:4 resources:3 influence:3 spirit:3"),
]
GATHER = [
    ("narrator", '/conflict start kind:physical stakes:"Out of the alley" auto_rounds:true'),
    ("player1", "/conflict join"),
    ("player2", "/conflict join"),
    ("narrator", "/conflict add character:Breeze"),
    ("narrator", "/conflict add character:Thug"),
    ("narrator", "/conflict add character:Guards"),
]
TARGETS = {
    "Vin": ("Thug", "Guards"),
    "Kell": ("Guards", "Thug"),
    "Breeze": ("Thug", "Guards"),
    "Thug": ("Vin", "Kell", "Breeze"),
    "Guards": ("Kell", "Vin", "Breeze"),
}
DETAIL = "Declare with Traits, Tool, Power, Burdens, label…"
BURDEN = "If this defeats them: leave a Burden…"
USERS = ("narrator", "player1", "player2")


@dataclass
class Count:
    """The fight's interactions by round and user, and those that were typed commands."""

    moves: dict[int, Counter[str]] = field(default_factory=dict)
    typed: list[str] = field(default_factory=list)
    narrators: Counter[str] = field(default_factory=Counter)
    """The Narrator's interactions by what they pressed or filled."""

    def add(self, round_number: int, user: str, what: str) -> None:
        self.moves.setdefault(round_number, Counter())[user] += 1
        if what.startswith("/"):
            self.typed.append(what)
        if user == "narrator":
            self.narrators[what.split(" with ")[0]] += 1

    @property
    def total(self) -> int:
        return sum(sum(c.values()) for c in self.moves.values())

    @property
    def narrator_share(self) -> float:
        return sum(c["narrator"] for c in self.moves.values()) / max(1, self.total)

    def lines(self) -> list[str]:
        out = []
        for number, counts in sorted(self.moves.items()):
            who = ", ".join(f"{u} {counts[u]}" for u in USERS)
            out.append(f"round {number}: {sum(counts.values())} interactions ({who})")
        out.append(f"typed commands: {len(self.typed)} {self.typed}")
        out.append(f"interactions: {self.total}; the Narrator's share: {self.narrator_share:.0%}")
        out.append(f"the Narrator's: {dict(self.narrators.most_common())}")
        return out


class PromptFight(Table):
    """``testbed.turns.Table``'s table (who controls whom, where their prompt is) playing the
    fight from the prompts alone."""

    def __init__(self, env: BotEnv) -> None:
        super().__init__(env, "buttons")
        self.count = Count()
        self.detailed: set[str] = set()
        self.burdened = False
        self.removed = False

    async def counted(self, user: str, record: InteractionRecord, what: str) -> InteractionRecord:
        # A private answer with buttons, or a private menu closed with the outcome following it.
        answered = bool((record.message or {}).get("components")) or any(
            m.get("embeds") for m in record.followups
        )
        assert answered or not refused(record), f"{user} {what} was refused: {record.content}"
        self.count.add(self.round, user, what)
        await self.env.bot.conflicts.idle()
        return record

    async def click(self, user: str, label: str, message: JSON | None = None) -> InteractionRecord:
        found = message if message is not None else self.prompt(user)
        return await self.counted(user, await self.env.harness.click(label, message=found, user=user), label)

    async def select(
        self, user: str, menu: str, values: list[str], message: JSON | None = None
    ) -> InteractionRecord:
        found = message if message is not None else self.prompt(user)
        record = await self.env.harness.select(menu, values, message=found, user=user)
        return await self.counted(user, record, menu)

    async def submit(self, user: str, values: dict[str, Any]) -> InteractionRecord:
        return await self.counted(user, await self.env.harness.submit(values, user=user), "form")

    def target(self, conflict: Conflict, name: str) -> str:
        standing = {p.name for p in conflict.participants if not p.defeated}
        return next(t for t in TARGETS[name] if t in standing)

    async def fight(self) -> Count:
        await self.env.play([*SHEETS, *GATHER])
        await self.env.bot.conflicts.idle()
        await self.click("narrator", "Begin round 1", await board_message(self.env))
        while (conflict := await self.state()) is not None:
            if conflict.round > ROUNDS:  # the rounds roll on: the fifth has opened by itself
                return self.count
            self.round = conflict.round
            if self.round == 2 and not self.removed:
                await self.remove("Breeze")
                continue
            wait = waiting(conflict)
            participant = wait.participants[0]
            await self.turn(conflict, wait.step, participant, self.user_of(conflict, participant))
        return self.count

    async def remove(self, name: str) -> None:
        """The Narrator takes ``name`` out between rounds (before round 2's first declaration),
        from the board's menu: one pick."""
        self.removed = True
        await self.select("narrator", "Remove a fighter…", [name], await board_message(self.env))

    async def turn(self, conflict: Conflict, step: Step, participant: int, user: str) -> None:
        who = conflict.participant(participant)
        if step is Step.DEFEND:
            await self.defend(user, who.kind is not CharacterKind.HERO)
        elif step is Step.NUDGES:
            pending = conflict.pending
            if pending is not None and pending.nudges >= 2:
                await self.click(user, "Split Nudges…")
                await self.submit(user, {"damage": str(pending.nudges - 1), "next_round": "1"})
            else:
                await self.click(user, "All on damage")
        elif step is Step.DECLARE:
            target = self.target(conflict, who.name)
            if user != "narrator" and who.name not in self.detailed:
                self.detailed.add(who.name)
                await self.select(user, DETAIL, [f"Attack {target}"])
                await self.submit(user, {"traits": "1", "label": "goes for the throat"})
            else:
                await self.select(user, "Attack…", [target])
        else:
            await self.act(user, who.round.action_dice, who.kind is not CharacterKind.HERO)

    def private_prompt(self, user: str, after: JSON | None) -> JSON | None:
        """The newest message only ``user`` sees, with buttons, posted after ``after``: the
        Narrator's private prompt of a hidden character (``bot.cogs.conflict.narrator_prompt``)."""
        uid, since = self.env.user_id(user), int((after or {}).get("id") or 0)
        for number, message in reversed(self.env.harness.fake.messages.items()):
            if number <= since:
                return None
            meta = message.get("interaction_metadata") or {}
            mine = int((meta.get("user") or {}).get("id") or 0) == uid
            if mine and int(message.get("flags") or 0) & EPHEMERAL and message.get("components"):
                return message
        return None

    async def defend(self, user: str, hidden: bool) -> None:
        """A Hero's player defends with the largest count offered; the Narrator, for a hidden
        character, from their private prompt, which tells its dice."""
        message = self.prompt(user)
        if hidden:
            message = self.private_prompt(user, message)
            assert message is not None, "the Narrator's private prompt is missing"
        assert message is not None
        offered = [str(c.get("label")) for row in message.get("components") or [] for c in row["components"]]
        defend = [label for label in offered if label.startswith("Defend with")]
        await self.click(user, defend[-1] if defend else "Don't defend", message)

    async def act(self, user: str, held: int, hidden: bool) -> None:
        pool = min(10, held)
        if pool < 2:
            await self.click(user, "Not act")
        elif not hidden and not self.burdened:
            self.burdened = True
            menu = await self.select(user, BURDEN, ["Grave Burden"])
            await self.click(user, f"Act with {pool}", menu.message)
        elif hidden:  # the Narrator's private prompt tells its dice
            private = self.private_prompt(user, self.prompt(user))
            assert private is not None, "the Narrator's private prompt is missing"
            await self.click(user, f"Act with {pool}", private)
        else:
            await self.click(user, f"Act with {pool}")
