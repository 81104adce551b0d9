"""``/conflict``: the Narrator starts, populates, paces and ends a Conflict in a channel.

The round's own moves (``/declare``, ``/act``, ``/defend`` …) live in
:mod:`bot.cogs.conflict.actions`, a cog this one adds and removes with itself. Each subcommand
only parses its options into an engine command (the permission check runs inside the same
transaction, see :mod:`bot.cogs.conflict.flow`); the rules live in ``rules.conflict``, the
rendering in ``bot.render.conflict``.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, TypeAlias

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import require_narrator
from bot.cogs.conflict.access import Caller, find_participant
from bot.cogs.conflict.actions import ConflictActions
from bot.cogs.conflict.buttons import DefendButton, NudgeButton
from bot.cogs.conflict.complete import participant_choices
from bot.cogs.conflict.flow import ConflictFlow
from bot.errors import NotAllowed
from bot.sheets import character_choices, load_character
from rules.character import Character, CharacterKind
from rules.conflict import (
    AdjustDice,
    Command,
    Conflict,
    End,
    Join,
    Leave,
    NextRound,
    Reorder,
    SetSurprised,
)
from storage.conflict_runner import start_conflict

if TYPE_CHECKING:
    from bot.app import MistbornBot

Interaction: TypeAlias = "discord.Interaction[MistbornBot]"
Sheets = Mapping[int, Character]
Net = Literal[-1, 0, 1]
Who = app_commands.Range[str, 1, 64]


@app_commands.guild_only()
class ConflictCog(
    commands.GroupCog, group_name="conflict", group_description="Run a Conflict in this channel"
):
    def __init__(self, bot: "MistbornBot") -> None:
        self.bot = bot
        self.flow = ConflictFlow(bot)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DefendButton, NudgeButton)
        await self.bot.add_cog(ConflictActions(self.bot, self.flow))

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DefendButton, NudgeButton)
        await self.bot.remove_cog(ConflictActions.__cog_name__)
        self.flow.boards.close()

    # Narrator: setting up and running the Conflict.

    @app_commands.command(name="start", description="Narrator: start a Conflict in this channel")
    @app_commands.describe(
        kind="Physical, social or mental: sets the Resilience attacks wear down", stakes="What is at stake"
    )
    async def start(
        self,
        interaction: Interaction,
        kind: Literal["physical", "social", "mental"],
        stakes: app_commands.Range[str, 1, 200],
    ) -> None:
        await require_narrator(interaction, "start a Conflict")
        guild_id, channel_id = self.flow.channel_of(interaction)
        applied = await start_conflict(self.bot.storage, guild_id, channel_id, kind, stakes)
        await self.flow.reply(interaction, applied, title="A Conflict begins")

    @app_commands.command(name="add", description="Narrator: add a character, Villain or Extras group")
    @app_commands.describe(
        character="The character to add",
        side="heroes or opposition (default by kind)",
        surprised="Caught by surprise",
    )
    @app_commands.autocomplete(character=character_choices)
    async def add(
        self,
        interaction: Interaction,
        character: Who,
        side: Literal["heroes", "opposition"] | None = None,
        surprised: bool = False,
    ) -> None:
        await require_narrator(interaction, "add characters to a Conflict")
        stored = await load_character(interaction, character)
        await self.flow.run(
            interaction,
            lambda *_: Join(character_id=stored.id, side=side, surprised=surprised),
            title=f"{stored.name} joins",
        )

    @app_commands.command(name="join", description="Join the Conflict with your active character")
    @app_commands.describe(surprised="Caught by surprise")
    async def join(self, interaction: Interaction, surprised: bool = False) -> None:
        stored = await load_character(interaction, None)
        if stored.character.owner_id != interaction.user.id:
            raise NotAllowed("Join with a character of your own (`/character use`).")
        if stored.character.kind is not CharacterKind.HERO:
            raise NotAllowed("Villains and Extras are added by the Narrator with `/conflict add`.")
        command = Join(character_id=stored.id, surprised=surprised)
        await self.flow.run(interaction, lambda *_: command, title=f"{stored.name} joins")

    @app_commands.command(name="remove", description="Narrator: take a participant out of the Conflict")
    @app_commands.describe(who="The participant")
    @app_commands.autocomplete(who=participant_choices)
    async def remove(self, interaction: Interaction, who: Who) -> None:
        await require_narrator(interaction, "remove participants")
        await self.flow.run(
            interaction,
            lambda s, *_: Leave(participant=find_participant(s, who).id),
            title="Participant leaves",
        )

    @app_commands.command(
        name="order", description="Narrator: settle Wits ties by listing every fighter in order"
    )
    @app_commands.describe(names="Every participant, first to declare first, comma-separated")
    async def order(self, interaction: Interaction, names: app_commands.Range[str, 1, 1800]) -> None:
        await require_narrator(interaction, "reorder the Conflict")

        def build(state: Conflict, sheets: Sheets, caller: Caller) -> Command:
            ids = tuple(find_participant(state, n).id for n in names.split(",") if n.strip())
            return Reorder(order=ids)

        await self.flow.run(interaction, build, title="Declaration order")

    @app_commands.command(name="surprise", description="Narrator: mark a participant surprised (or not)")
    @app_commands.describe(who="The participant", surprised="Surprised this round")
    @app_commands.autocomplete(who=participant_choices)
    async def surprise(self, interaction: Interaction, who: Who, surprised: bool = True) -> None:
        await require_narrator(interaction, "change surprise")
        await self.flow.run(
            interaction,
            lambda s, *_: SetSurprised(participant=find_participant(s, who).id, surprised=surprised),
            title="Surprise",
        )

    @app_commands.command(name="adjust", description="Narrator: add or remove dice from a participant's pile")
    @app_commands.describe(
        who="The participant", dice="Dice to add (negative to remove)", reason="Why, shown to the table"
    )
    @app_commands.autocomplete(who=participant_choices)
    async def adjust(
        self,
        interaction: Interaction,
        who: Who,
        dice: app_commands.Range[int, -20, 20],
        reason: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await require_narrator(interaction, "adjust dice")
        await self.flow.run(
            interaction,
            lambda s, *_: AdjustDice(
                participant=find_participant(s, who).id, delta=dice, reason=reason or ""
            ),
            title="Dice adjusted",
        )

    @app_commands.command(
        name="next-round", description="Narrator: end the round and start declaring the next"
    )
    @app_commands.describe(force="End it even though someone has not acted (drops an attack in progress)")
    async def next_round(self, interaction: Interaction, force: bool = False) -> None:
        await require_narrator(interaction, "start the next round")
        await self.flow.run(interaction, lambda *_: NextRound(force=force), title="Next round")

    @app_commands.command(name="end", description="Narrator: end the Conflict and show the summary")
    async def end(self, interaction: Interaction) -> None:
        await require_narrator(interaction, "end the Conflict")
        await self.flow.run(interaction, lambda *_: End(), title="The Conflict ends")

    @app_commands.command(
        name="status", description="Post the Conflict board again, at the bottom of the channel"
    )
    async def status(self, interaction: Interaction) -> None:
        guild_id, channel_id = self.flow.channel_of(interaction)
        await self.bot.storage.boards.clear(guild_id, channel_id)
        self.flow.boards.refresh(guild_id, channel_id)
        await interaction.response.send_message("The board is posted below.", ephemeral=True)
