"""``/conflict``: the Narrator starts, populates, paces and ends a Conflict in a channel.

The round's own moves (``/declare``, ``/act``, ``/defend`` …) live in
:mod:`bot.cogs.conflict.moves`. Each subcommand here only turns its options into an engine
command; the permission check runs inside the move's transaction against the fresh state
(:mod:`bot.cogs.conflict.service`), the rules live in ``rules.conflict``, the rendering in
``bot.render.conflict``.
"""

import time

from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller, cooldown
from bot.client import Interaction, MistbornClient
from bot.cogs.conflict.delivery import may_post_here, run, send
from bot.cogs.conflict.mover_build import BeginRound
from bot.cogs.conflict.narrator_moves import (
    AddCharacter,
    AdjustMove,
    EndMove,
    JoinOwn,
    NextRoundMove,
    RemoveParticipant,
    ReorderMove,
    SurpriseMove,
)
from bot.cogs.conflict.service import ConflictFlow
from bot.cogs.conflict.threads import drop_thread, fights_in_threads, send_to_thread, thread_for
from bot.errors import BotError, NotAllowed
from bot.inputs.characters import AnyCharacter, active_character
from bot.inputs.choices import ConflictTypeChoice, SideChoice
from bot.inputs.participants import ParticipantName
from bot.render.common import plain
from bot.served import channel_id_of, guild_id_of
from bot.workers.refusals import CANNOT_POST
from rules.character import Character, CharacterKind
from rules.conflict import (
    Join,
    new_conflict,
)
from rules.words import verb
from storage.conflicts import NO_CONFLICT

STATUS_COOLDOWN = 30.0
"""Seconds a channel waits between two ``/conflict status`` (each posts the board anew)."""


@app_commands.guild_only()
def joins_title(character: Character) -> str:
    """ "Vin joins", "Guards join": a group reads as plural (docs/rulings.md §8.2)."""
    return f"{plain(character.name)} {verb('joins', character.size > 1)}"


class ConflictCog(
    commands.GroupCog,
    group_name="conflict",
    group_description="Run a Conflict in this channel: start it, add fighters, pace the rounds, end it",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        self._reposted: dict[tuple[int, int], float] = {}
        super().__init__()

    # Narrator: setting up and running the Conflict.

    @app_commands.command(name="start", description="Narrator: start a Conflict in this channel")
    @app_commands.describe(
        kind="Physical, social or mental: sets the Resilience attacks wear down",
        stakes="What is at stake",
        auto_rounds="Open each next round by itself once every turn is taken (default: you press Next round)",
    )
    async def start(
        self,
        interaction: Interaction,
        kind: ConflictTypeChoice,
        stakes: app_commands.Range[str, 1, 200],
        auto_rounds: bool = False,
    ) -> None:
        (await caller(interaction)).require_narrator("start a Conflict")
        new_conflict(channel_id_of(interaction), kind, stakes)  # refused here, before a thread is made
        thread_id, note = await thread_for(interaction, stakes)
        try:
            reply = await ConflictFlow(self.bot.conflicts).start(
                interaction, kind, stakes, thread_id=thread_id, auto_rounds=auto_rounds
            )
        except Exception:
            if thread_id is not None:
                await drop_thread(interaction, thread_id)
            raise
        if thread_id is not None:
            await send_to_thread(interaction, reply)
            return
        await send(interaction, reply)
        if note is not None:
            await replies.send(interaction, note, ephemeral=True)

    @app_commands.command(name="add", description="Narrator: add a character, Villain or Extras group")
    @app_commands.describe(
        character="The character to add",
        side="heroes or opposition (default by kind)",
        surprised="Caught by surprise",
    )
    async def add(
        self,
        interaction: Interaction,
        character: AnyCharacter,
        side: SideChoice | None = None,
        surprised: bool = False,
    ) -> None:
        join = Join(character_id=character.id, side=side, surprised=surprised)
        await run(interaction, AddCharacter(join), title=joins_title(character.character))

    @app_commands.command(name="join", description="Join the Conflict with your active character")
    @app_commands.describe(surprised="Caught by surprise")
    async def join(self, interaction: Interaction, surprised: bool = False) -> None:
        try:
            stored = await active_character(interaction)
        except BotError:
            raise BotError(
                "You have no active character here: pick your Hero with `/character use`, then join."
            ) from None
        if stored.character.owner_id != interaction.user.id:
            raise NotAllowed("Join with a character of your own (`/character use`).")
        if stored.character.kind is not CharacterKind.HERO:
            raise NotAllowed("Villains and Extras are added by the Narrator with `/conflict add`.")
        join = Join(character_id=stored.id, surprised=surprised)
        await run(interaction, JoinOwn(join), title=joins_title(stored.character))

    @app_commands.command(name="remove", description="Narrator: take a participant out of the Conflict")
    @app_commands.describe(who="The participant")
    async def remove(self, interaction: Interaction, who: ParticipantName) -> None:
        await run(interaction, RemoveParticipant(who), title="Participant leaves")

    @app_commands.command(
        name="order", description="Narrator: settle Wits ties by listing every fighter in order"
    )
    @app_commands.describe(names="Every participant, first to declare first, comma-separated")
    async def order(self, interaction: Interaction, names: app_commands.Range[str, 1, 1800]) -> None:
        await run(interaction, ReorderMove(names), title="Declaration order")

    @app_commands.command(name="surprise", description="Narrator: mark a participant surprised (or not)")
    @app_commands.describe(who="The participant", surprised="Surprised this round")
    async def surprise(self, interaction: Interaction, who: ParticipantName, surprised: bool = True) -> None:
        await run(interaction, SurpriseMove(who, surprised), title="Surprise")

    @app_commands.command(name="adjust", description="Narrator: add or remove dice from a participant's pile")
    @app_commands.describe(
        who="The participant", dice="Dice to add (negative to remove)", reason="Why, shown to the table"
    )
    async def adjust(
        self,
        interaction: Interaction,
        who: ParticipantName,
        dice: app_commands.Range[int, -20, 20],
        reason: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await run(interaction, AdjustMove(who, dice, reason or ""), title="Dice adjusted")

    @app_commands.command(name="begin", description="Narrator: the cast is in; open round 1 and declare")
    async def begin(self, interaction: Interaction) -> None:
        await run(interaction, BeginRound(), title="Round 1")

    @app_commands.command(
        name="next-round", description="Narrator: end the round and start declaring the next"
    )
    @app_commands.describe(force="End it even though someone has not acted (drops an attack in progress)")
    async def next_round(self, interaction: Interaction, force: bool = False) -> None:
        await run(interaction, NextRoundMove(force), title="Next round")

    @app_commands.command(name="end", description="Narrator: end the Conflict and show the summary")
    async def end(self, interaction: Interaction) -> None:
        await run(interaction, EndMove(), title="The Conflict ends")

    @cooldown()
    @app_commands.command(
        name="status", description="Post the Conflict board again, at the bottom of the channel"
    )
    async def status(self, interaction: Interaction) -> None:
        """The old board is deleted as the new one is posted, and the channel waits
        ``STATUS_COOLDOWN`` seconds between two: the board is one message, not a feed."""
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        if await self.bot.storage.conflicts.get(guild_id, channel_id) is None:
            raise BotError(await fights_in_threads(interaction) or NO_CONFLICT)
        now = time.monotonic()
        left = self._reposted.get((guild_id, channel_id), -STATUS_COOLDOWN) + STATUS_COOLDOWN - now
        if left > 0:
            raise BotError(f"The board was posted just now: look above, or ask again in {left:.0f} s.")
        if not await may_post_here(interaction, guild_id, channel_id):
            raise BotError(CANNOT_POST)
        self._reposted[(guild_id, channel_id)] = now
        await self.bot.conflicts.boards.repost(guild_id, channel_id)
        await replies.send(interaction, "The board is posted below.", ephemeral=True)
