"""One Conflict move, start to finish: who asks, the transaction, and what the table must see.

Slash commands and prompt buttons both come through :meth:`ConflictFlow.run`: it decides who is
asking, applies one engine command inside one transaction (``run_transition``; the permission
check runs there too, against the fresh state) and composes the :class:`Reply` — the outcome,
the prompt for whoever must answer next (a defence, Nudges, or a turn to declare or act, with a
ping for that player only, once per turn: docs/rulings.md §4.21) and which buttons it offers.
The reply is composed *inside* the transaction and queued in the outbox with the state it shows
(``storage.outbox``), so a move the table cannot see is never saved. Sending it is the caller's
last step (the cog's delivery; the buttons are drawn here, ``bot.moves.buttons``, and the cog
answers their clicks); ``bot.workers.outbox`` explains how the reply and the outbox between
them show every outcome exactly once.

A move reads the Conflict and its sheets once and renders the reply and the board from what it
holds: nothing is read again after the commit.

The reply is public, so it shows the Narrator's secret Villains and Extras as names and plain
states (``bot.access.visibility_of``, docs/rulings.md §7.1); when a Narrator made the move and
that hid something, the reply also carries the full figures for them alone (privately, so not
through the outbox: after a crash the Narrator reads them with "Narrator view").
"""

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

import discord
from pydantic import ValidationError

from bot.access import Caller, caller_of, channel_id_of, guild_id_of, table_channel_of, visibility_of
from bot.crash import crash_point
from bot.errors import BotError
from bot.moves.answers import (
    NudgeMode,
    Prompt,
    Question,
    Reply,
    asked_before,
    closing_summary,
    message,
    own_thread_parent,
)
from bot.moves.buttons import prompt_items, prompt_view
from bot.moves.transaction import run_transition, start_conflict
from bot.moves.turns import hero_news, tie_note, turn_of
from bot.render.common import INFO, plain
from bot.render.conflict import FULL, Visibility, defence_prompt, events_embed, summary_embed
from bot.render.conflict_card import CardButtons
from bot.render.conflict_turns import act_question, declare_question
from bot.render.conflict_words import is_group
from bot.rolling.roll_log import conflict_rolls
from bot.workers.board import Boards
from bot.workers.board_state import Shown, own_buttons
from bot.workers.outbox import Outbox, close_row
from bot.workers.pacing import Pacer
from bot.workers.threads import Threads
from rules.character import Character
from rules.conflict import (
    Awaiting,
    Command,
    Conflict,
    ConflictType,
    available_defence,
    beat_possible,
)
from rules.conflict.defend import needs_grant
from rules.conflict.events import ConflictEnded, Defeated, Event, Joined, Left
from rules.errors import RulesError
from rules.words import count_of, verb
from storage import MessageKind, NewMessage, Storage
from storage.conflict_documents import load_stored
from storage.conflict_moves import Applied

Sheets = Mapping[int, Character]
Build = Callable[[Conflict, Sheets, Caller], Command]

DEFEND_GRACE = 30.0
"""Seconds a player gets to answer a defence before a Narrator may answer for them."""
MAX_DEFENCE = 10
MAX_OPTIONS = 25
"""Options one Discord select menu holds."""


def invalid_option(error: ValidationError) -> str:
    """One plain sentence for an option value the engine's command model refused."""
    problems = error.errors(include_url=False, include_input=False)
    where = ".".join(str(step) for step in problems[0]["loc"]) if problems else "an option"
    detail = problems[0]["msg"] if problems else "not valid"
    return f"That is not a valid value for {where}: {detail}."


def reaction_traits(conflict: Conflict, sheets: Sheets, target: int) -> tuple[str, ...]:
    """The Traits a busy defender may react with (docs/rulings.md §4.11), for the prompt's menu;
    none for anyone whose Defense Dice are already in hand."""
    sheet = sheets.get(target)
    if sheet is None or not needs_grant(conflict.participant(target)):
        return ()
    traits = sheet.traits
    named = (traits.drive, traits.profession, traits.specialty, traits.feature, traits.personality)
    return tuple(dict.fromkeys(t for t in (*named, *traits.extras) if t))[:MAX_OPTIONS]


def target_fell(asked: Question, events: Sequence[Event]) -> bool:
    """Whether this move took down the target of the turn still waiting: its buttons must change
    (no pool for a fallen target), so it is asked again."""
    turn = asked.prompt.turn
    return turn is not None and bool(turn.target_down) and any(isinstance(e, Defeated | Left) for e in events)


PROMPTS_KEPT = 4096
"""Defence prompts whose time is remembered at most; an older one is merely not held to the grace."""


class ConflictFlow:
    """Runs Conflict moves for every channel; owns the boards, the outbox and the defence timers."""

    def __init__(self, client: discord.Client, storage: Storage, pacer: Pacer | None = None) -> None:
        self.storage = storage
        pacer = pacer if pacer is not None else Pacer()
        threads = Threads(client, pacer)
        self.boards = Boards(client, storage, pacer, threads)
        self.boards.buttons = self.board_buttons
        self.outbox = Outbox(client, storage, pacer, threads)
        self.outbox.closing = self.boards.ended
        self.defend_grace = DEFEND_GRACE
        self._prompted: dict[tuple[int, int, int], float] = {}

    async def run(
        self,
        interaction: discord.Interaction[discord.Client],
        build: Build,
        *,
        rng: random.Random,
        title: str,
        conflict_id: int | None = None,
    ) -> Reply:
        """Apply the command ``build`` makes from the fresh state, and compose the reply.

        ``rng`` throws any dice the move needs (the client's, injected so rolls replay in tests).
        """
        crash_point("move-received")
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        # Who is asking is read beside the Conflict (two connections, two threads), not before it.
        asking = asyncio.ensure_future(caller_of(interaction, self.storage))

        def make(state: Conflict, sheets: Sheets) -> Command:
            try:
                return build(state, sheets, asking.result())
            except ValidationError as error:
                # Choices are enforced by Discord's client only; a raw payload reaches the model.
                raise RulesError(invalid_option(error)) from None

        replies: list[Reply] = []
        parent = own_thread_parent(interaction)
        compose = self._composer(guild_id, channel_id, title, interaction.id, replies, asking, parent=parent)
        try:
            applied = await run_transition(
                self.storage,
                guild_id,
                channel_id,
                make,
                rng=rng,
                conflict_id=conflict_id,
                compose=compose,
                ready=asking,
                interaction_id=interaction.id,
                rolls=lambda applied: conflict_rolls(guild_id, applied),
                table_id=table_channel_of(interaction),
            )
        finally:
            if not asking.done():
                asking.cancel()
            elif not asking.cancelled():
                asking.exception()  # retrieved: a failure here already surfaced, or is moot
        return self._saved(replies[-1], applied)

    async def start(
        self,
        interaction: discord.Interaction[discord.Client],
        conflict_type: ConflictType,
        stakes: str,
        *,
        thread_id: int | None = None,
    ) -> Reply:
        """Start a Conflict in the interaction's channel, its first message queued with it;
        ``thread_id``: in that thread of the channel instead, where no interaction is answered."""
        guild_id, channel_id = guild_id_of(interaction), thread_id or channel_id_of(interaction)
        replies: list[Reply] = []
        answered = None if thread_id else interaction.id
        compose = self._composer(guild_id, channel_id, "A Conflict begins", answered, replies, None)
        applied = await start_conflict(
            self.storage,
            guild_id,
            channel_id,
            conflict_type,
            stakes,
            compose=compose,
            table_id=table_channel_of(interaction),
        )
        return self._saved(replies[-1], applied)

    def _composer(
        self,
        guild_id: int,
        channel_id: int,
        title: str,
        interaction_id: int | None,
        replies: list[Reply],
        asking: "asyncio.Future[Caller] | None",
        *,
        parent: int | None = None,
    ) -> Callable[[Applied], Awaitable[list[NewMessage]]]:
        """``parent``: the channel is a thread the bot made in that channel; a move ending its
        Conflict also queues the thread's closing (the summary there, the thread archived)."""

        async def compose(applied: Applied) -> list[NewMessage]:
            narrator = asking is not None and asking.result().narrator
            reply = await self.compose(guild_id, channel_id, applied, title=title, narrator=narrator)
            replies.append(reply)
            messages = [message(MessageKind.OUTCOME, reply, interaction_id)]
            if parent is not None and any(isinstance(e, ConflictEnded) for e in applied.events):
                messages.append(close_row(parent, closing_summary(channel_id, reply)))
            return messages

        return compose

    def _saved(self, reply: Reply, applied: Applied) -> Reply:
        """The reply with its saved move; its outbox rows are this process's to answer now."""
        self.outbox.replying(applied.messages)
        crash_point("after-commit")
        return replace(reply, applied=applied)

    def _embeds(self, applied: Applied, title: str, view: Visibility) -> list[discord.Embed]:
        conflict = applied.conflict
        ended = [e for e in applied.events if isinstance(e, ConflictEnded)]
        # Discord allows 6000 characters across a message's embeds: share them out.
        limit = 2500 if ended else 6000
        embeds = [events_embed(conflict, applied.events, title=title, limit=limit, view=view)]
        return embeds + [summary_embed(e, limit=3500, view=view) for e in ended[:1]]

    async def compose(
        self, guild_id: int, channel_id: int, applied: Applied, *, title: str, narrator: bool = False
    ) -> Reply:
        """The outcome, the closing summary if the Conflict ended, and the next prompt, as the
        table may see them; ``narrator``: the mover also gets what that hid."""
        conflict = applied.conflict
        sheets = dict(applied.characters)
        revealed = set(applied.revealed)
        gone = {
            line.participant
            for e in applied.events
            if isinstance(e, ConflictEnded)
            for line in e.summary
            if line.participant is not None and line.participant not in sheets
        }
        if gone:  # who left before the end shows by their sheet (docs/rulings.md §7.1)
            for cid, stored in (await self.storage.characters.get_many(guild_id, gone)).items():
                sheets[cid] = stored.character
                revealed |= {cid} if stored.revealed else set()
        view = visibility_of(conflict, sheets, revealed)
        embeds = self._embeds(applied, title, view)

        def private() -> list[discord.Embed]:
            shown: list[discord.Embed] = []
            full = self._embeds(applied, title, FULL)
            if [e.to_dict() for e in full] != [e.to_dict() for e in embeds]:
                shown = [full[0].set_footer(text="The full figures, for the Narrator only."), *full[1:]]
            joined = {e.participant for e in applied.events if isinstance(e, Joined)}
            note = tie_note(conflict, joined)
            if note:  # the Narrator's alone (docs/rulings.md §4.2, §7.1)
                shown.append(discord.Embed(title="Declaration ties", description=note, colour=INFO))
            return shown

        reply = Reply(
            guild_id=guild_id,
            channel_id=channel_id,
            embeds=embeds,
            applied=applied,
            private=private if narrator else None,
        )
        news = hero_news(applied.events, conflict, sheets)
        if news:
            told = tuple(dict.fromkeys(n.user for n in news))
            text = " ".join(n.text for n in news)
            content = " ".join(f"<@{user}>" for user in told) + " " + text
            reply = replace(reply, content=content, ping=told)
        if applied.stored is None:
            return reply
        asked = self.question(applied.stored.id, conflict, sheets, view)
        if asked is None or (asked_before(asked, applied.before) and not target_fell(asked, applied.events)):
            return reply
        if news:
            asked = replace(
                asked, text=f"{text}\n{asked.text}", ping=tuple(dict.fromkeys((*told, *asked.ping)))
            )
        if asked.prompt.defend_with:
            self.prompted(guild_id, channel_id, asked.prompt.attack_id)
        return replace(
            reply,
            content=asked.content,
            ping=asked.ping,
            prompt=asked.prompt,
            view=prompt_view(asked.prompt),
        )

    def question(
        self, conflict_id: int, conflict: Conflict, sheets: Sheets, view: Visibility
    ) -> Question | None:
        """The question of the pending action (a defence or Nudges) or of the turn to declare or
        act, or None when nothing waits for anyone (the Narrator's next round, an ended fight)."""
        pending = conflict.pending
        if pending is None:
            return self._turn_question(conflict_id, conflict, sheets, view)
        hidden_target = pending.target is not None and not view.shows(pending.target)
        if pending.awaiting is Awaiting.DEFENCE and pending.target is not None:
            answerer = pending.target
            text = defence_prompt(conflict, sheets, view) or ""
            # The buttons of a hidden target offer every count: their number would tell its dice.
            held = MAX_DEFENCE if hidden_target else available_defence(conflict, sheets, pending.target)
            most = min(MAX_DEFENCE, held)
            traits = () if hidden_target else reaction_traits(conflict, sheets, pending.target)
            if traits:
                text += " A Trait that helps you react adds a die: pick it in the menu."
            prompt = Prompt(
                conflict_id,
                pending.id,
                defend_with=(0, *range(2, most + 1)),
                narrator_view=hidden_target,
                react_traits=traits,
            )
        else:
            answerer = pending.attacker
            name = plain(conflict.name_of(pending.attacker))
            has = verb("has", is_group(conflict, pending.attacker))
            text = (
                f"**{name}** {has} {count_of(pending.nudges, 'Nudge')} to spend: "
                "use the buttons, or `/nudges` to split them (damage, remove dice, next round, story)."
            )
            # The Beat is offered only when it can be taken (docs/rulings.md §2.10, §4.15).
            beat: tuple[NudgeMode, ...] = ("beat",) if beat_possible(conflict, pending) else ()
            prompt = Prompt(conflict_id, pending.id, nudge_modes=("damage", *beat, "none"))
        sheet = sheets.get(answerer)
        return Question(prompt, text, () if sheet is None else (sheet.owner_id,))

    def board_buttons(self, shown: Shown) -> CardButtons:
        """The board's buttons: its own at its foot, and under whoever must answer now the very
        buttons of their prompt (same custom ids, same flow when clicked; docs/rulings.md §4.21),
        as the public may see them (a hidden character's offer every count, §7.1)."""
        own = own_buttons(shown)
        conflict = shown.conflict
        if conflict is None:
            return own
        try:
            asked = self.question(shown.conflict_id, conflict, shown.sheets, shown.visibility())
        except RulesError:
            return own
        if asked is None:
            return own
        prompt = replace(asked.prompt, narrator_view=False)  # the board has its own at its foot
        pending = conflict.pending
        if prompt.turn is not None:
            up: int | None = prompt.turn.participant
        elif pending is not None:
            up = pending.target if prompt.defend_with else pending.attacker
        else:
            up = None
        return CardButtons(up=up, turn=prompt_items(prompt), bottom=own.bottom)

    def _turn_question(
        self, conflict_id: int, conflict: Conflict, sheets: Sheets, view: Visibility
    ) -> Question | None:
        turn = turn_of(conflict, sheets, view)
        if turn is None:
            return None
        if turn.step == "declare":
            text = declare_question(turn.name, turn.round, turn.stat, turn.many)
        else:
            text = act_question(turn.name, turn.held, turn.act_with, turn.target_down, turn.many)
        sheet = sheets.get(turn.participant)
        return Question(Prompt(conflict_id, turn=turn), text, () if sheet is None else (sheet.owner_id,))

    def asked_again(
        self, conflict_id: int, conflict: Conflict, sheets: Sheets, revealed: frozenset[int]
    ) -> NewMessage | None:
        """The pending action's question posted anew, with working buttons (after a restart, when
        the old prompt is gone or shows no buttons for it); None when nothing waits."""
        asked = self.question(conflict_id, conflict, sheets, visibility_of(conflict, sheets, revealed))
        if asked is None:
            return None
        reply = Reply(
            guild_id=0,
            channel_id=conflict.channel_id,
            embeds=[],
            content=asked.content,
            ping=asked.ping,
            prompt=asked.prompt,
            view=prompt_view(asked.prompt),
        )
        return message(MessageKind.PROMPT, reply, None)

    def prompted(self, guild_id: int, channel_id: int, attack_id: int) -> None:
        """Remember when this defence prompt was posted; forget prompts older than the grace,
        which no longer hold anyone back, so the table stays as small as the prompts in play."""
        now = time.monotonic()
        key = (guild_id, channel_id, attack_id)
        self._prompted.pop(key, None)
        self._prompted[key] = now
        while self._prompted:
            oldest = next(iter(self._prompted))
            if now - self._prompted[oldest] <= self.defend_grace and len(self._prompted) <= PROMPTS_KEPT:
                break
            del self._prompted[oldest]

    def waited(self, interaction: discord.Interaction[discord.Client], attack_id: int) -> float | None:
        """Seconds since this attack's defence prompt was posted, if known.

        A button knows its own message's age; for a slash command the prompt time is kept in
        memory (after a restart it is unknown, and then the wait is not enforced).
        """
        if interaction.message is not None:
            return (discord.utils.utcnow() - interaction.message.created_at).total_seconds()
        key = (guild_id_of(interaction), channel_id_of(interaction), attack_id)
        started = self._prompted.get(key)
        return None if started is None else time.monotonic() - started

    async def asked_at(self, guild_id: int, channel_id: int) -> dict[int, datetime]:
        """When the channel's pending defence was asked, by attack id, as the outbox kept it: a
        typed ``/defend`` after a restart still gives the player their moment (§4.20)."""
        stored = await self.storage.conflicts.get(guild_id, channel_id)
        pending = load_stored(stored).pending if stored is not None else None
        if stored is None or pending is None or pending.awaiting is not Awaiting.DEFENCE:
            return {}
        row = await self.storage.outbox.latest_asking(stored.id, f"defend:{pending.id}")
        return {} if row is None else {pending.id: row.created_at}

    def check_grace(self, waited: float | None) -> None:
        """A Narrator answering a player's defence must first give the player a moment."""
        if waited is None:
            return
        left = self.defend_grace - waited
        if left > 0:
            raise BotError(f"Give the player a moment to choose: you can answer for them in {left:.0f} s.")

    async def idle(self) -> None:
        """Wait until every board refresh and queued delivery has run (tests and benchmarks)."""
        await self.outbox.idle()
        await self.boards.idle()

    def close(self) -> None:
        self.boards.close()
        self.outbox.close()
