"""What a Conflict move shows: the reply, the question to whoever must answer, and its outbox row.

Kept apart from the flow that runs the move (``bot.cogs.conflict.service``) so each stays readable; the
flow composes these inside the move's transaction.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import discord

from bot import replies
from bot.cogs.conflict.metal_offers import Offer
from bot.cogs.conflict.turns import Turn
from bot.render.components import JSON, action_rows, view_of
from rules.conflict import Waiting
from storage import MessageKind, NewMessage, OutboxMessage
from storage.conflict_moves import Applied

NudgeMode = Literal["damage", "beat", "none"]


@dataclass(frozen=True)
class Prompt:
    """The buttons of the question to whoever must answer the pending action, or take their turn.

    ``conflict_id`` is the stored Conflict's id and ``attack_id`` the action's: a button names
    both, so it can only ever settle that action, even after a restart or in a new Conflict. A
    turn's buttons name the turn (``turn``: round, step and character) instead.
    """

    conflict_id: int
    attack_id: int = 0
    defend_with: tuple[int, ...] = ()
    """Defence choices in dice (0 = don't defend) when the target must answer."""
    nudge_modes: tuple[NudgeMode, ...] = ()
    """Spending choices when the attacker has Nudges to spend."""
    narrator_view: bool = False
    """Offer the board's "Narrator view": the target's dice are not shown to the table."""
    hidden: int = 0
    """The hidden character who must answer: the Narrator gets its dice and exact choices
    privately from the prompt."""
    turn: Turn | None = None
    """A declare or act turn: its buttons (targets, pool sizes)."""
    react_traits: tuple[str, ...] = ()
    """A busy defender's Traits, offered in a menu: each that helps them react adds a die
    (docs/rulings.md §4.11)."""
    throw: bool = False
    """The attacker's dice, rolled at the table now the defence is set (docs/rulings.md §7.2)."""
    deflect_with: tuple[int, ...] = ()
    """Dice a Steel or Iron burner may deflect a metal attack with (docs/rulings.md §9.3)."""
    deflect_metal: str = ""
    burn_to_deflect: tuple[int, int, tuple[Offer, ...]] | None = None
    """(round, defender, the Burn offers of Steel or Iron unlit): a defender who could deflect
    this metal attack once the metal burns gets its Burn buttons, and the prompt is asked again
    with the menu (§9.3)."""

    @property
    def key(self) -> str:
        """What is asked, the same for every asking of it: an attack's defence or Nudges, or a
        turn; the outbox keeps it so a restarted bot knows whether it was asked."""
        if self.turn is not None:
            return self.turn.key
        return f"{self.step}:{self.attack_id}"

    @property
    def step(self) -> str:
        """What a pending action's prompt asks, by the name of its ``rules.conflict.Step``."""
        return "defend" if self.defend_with else "roll" if self.throw else "nudges"


@dataclass(frozen=True)
class Question:
    """Who must answer the pending action, what they are asked, and the buttons to answer with."""

    prompt: Prompt
    text: str
    ping: tuple[int, ...]

    @property
    def content(self) -> str:
        return " ".join(f"<@{user}>" for user in self.ping) + (" " if self.ping else "") + self.text


@dataclass(frozen=True)
class Reply:
    """What one move shows: the outcome, the question to the next player, and whom to ping."""

    guild_id: int
    channel_id: int
    embeds: list[discord.Embed]
    content: str = ""
    ping: tuple[int, ...] = ()
    prompt: Prompt | None = None
    applied: Applied | None = field(default=None, compare=False)
    components: list[JSON] = field(default_factory=list, compare=False)
    """The buttons, as the message body carries them (``bot.render.components``)."""
    private: Callable[[], list[discord.Embed]] | None = field(default=None, compare=False, repr=False)
    """Makes :attr:`private_embeds`: only when they are asked for, after the reply is sent."""

    @cached_property
    def private_embeds(self) -> list[discord.Embed]:
        """The full figures the public embeds hid, for the Narrator who made the move only."""
        return self.private() if self.private is not None else []

    @cached_property
    def view(self) -> discord.ui.View | None:
        """The buttons as discord.py sends them, made only where the reply is sent: the outbox
        row needs only their JSON (:meth:`payload`), and a click's reply is sent after its answer."""
        return view_of(self.components)

    @property
    def by_narrator(self) -> bool:
        """Whether a Narrator made the move: only theirs carries the private figures."""
        return self.private is not None

    @cached_property
    def mentions(self) -> discord.AllowedMentions:
        """Whom the reply pings, as it is sent (its outbox body has it as :func:`mentions_json`)."""
        return replies.pinging(self.ping)

    @property
    def outcome(self) -> OutboxMessage | None:
        """The outbox row this reply is, once the move is saved."""
        rows = self.applied.messages if self.applied is not None else ()
        return next((row for row in rows if row.kind is MessageKind.OUTCOME), None)

    def payload(self) -> JSON:
        """The create-message body that shows this reply, exactly as the interaction reply does."""
        return {
            "content": self.content,
            "embeds": [embed.to_dict() for embed in self.embeds],
            "components": action_rows(self.components),
            "allowed_mentions": mentions_json(self.ping),
        }


def mentions_json(users: Sequence[int]) -> JSON:
    """Whom a body pings, as ``replies.pinging(users).to_dict()`` writes it (each user once), made
    without discord.py's object: the outbox row is made before the move is written, and a
    click's reply, which needs the object, is sent only after the click's answer."""
    return {"users": list(dict.fromkeys(users)), "parse": []}


def asked_before(asked: Question, before: Waiting | None) -> bool:
    """Whether the move left the same question waiting as before it (a metal burnt, dice
    adjusted): it was asked then, and each turn pings its player once."""
    if before is None:
        return False
    turn = asked.prompt.turn
    if turn is not None:
        same_step = before.step.value == turn.step and before.round == turn.round
        return same_step and bool(before.participants) and before.participants[0] == turn.participant
    return before.step.value == asked.prompt.step and before.action_id == asked.prompt.attack_id


def message(kind: MessageKind, reply: Reply, interaction_id: int | None) -> NewMessage:
    """The outbox row of a reply: its create-message body, and the question its buttons answer."""
    asks = reply.prompt if reply.prompt is not None and reply.components else None
    action = asks.attack_id if asks is not None and asks.turn is None else None
    return NewMessage(
        kind=kind,
        payload=reply.payload(),
        action_id=action,
        prompt_key=asks.key if asks is not None else None,
        interaction_id=interaction_id,
    )


def own_thread_parent(interaction: discord.Interaction[discord.Client]) -> int | None:
    """The parent channel of the thread the interaction came from, when the bot made that thread
    (a Conflict's own, ``bot.cogs.conflict.threads``); else None."""
    channel, me = interaction.channel, interaction.client.user
    if isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me.id:
        return channel.parent_id
    return None


def closing_summary(thread_id: int, reply: Reply) -> dict[str, Any]:
    """The line the parent channel gets when the Conflict in its thread ends: the summary."""
    return {
        "content": f"The Conflict in <#{thread_id}> is over.",
        "embeds": [embed.to_dict() for embed in reply.embeds[-1:]],
        "allowed_mentions": discord.AllowedMentions.none().to_dict(),
    }
