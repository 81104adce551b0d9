"""Participants of this channel's Conflict, named in an option (``who``, ``target``).

The name is only cleaned here: it is resolved against the Conflict inside the move's own
transaction (``bot.cogs.conflict.named.find_participant``), so it is judged on the state the move applies to,
never on an older copy. Participants are found by the same naming rule as characters.

Names of participants are public (the board shows them); their stats are suggested only to
whoever controls them (docs/rulings.md §6.9, §7.1).
"""

from collections.abc import Mapping

import discord
from discord import app_commands

from bot.access import caller_of
from bot.client import Interaction, MistbornClient
from bot.inputs.characters import SUGGESTIONS
from rules.character import Character
from rules.character.limits import NAME_MAX
from rules.character.stats import rollable_names
from rules.conflict import Conflict
from rules.naming import name_key, name_matches, sort_key
from storage.conflict_moves import current_conflict
from storage.errors import StorageError

Sheets = Mapping[int, Character]


async def _conflict_here(interaction: Interaction) -> Conflict | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    return await current_conflict(interaction.client.storage, interaction.guild_id, interaction.channel_id)


class ParticipantTransformer(app_commands.Transformer[MistbornClient]):
    """A participant's name, suggested from this channel's Conflict."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return NAME_MAX

    async def transform(self, interaction: Interaction, value: str) -> str:
        return " ".join(str(value).split())

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        conflict = await _conflict_here(interaction)
        if conflict is None:
            return []
        names = sorted(
            (p.name for p in conflict.participants if name_matches(str(value), p.name)), key=sort_key
        )
        return [app_commands.Choice(name=n, value=n) for n in names[:SUGGESTIONS]]


ParticipantName = app_commands.Transform[str, ParticipantTransformer]


async def _speaking_for(interaction: Interaction) -> Character | None:
    """The sheet of ``who`` (or of the caller's own participant) when the caller controls it."""
    conflict = await _conflict_here(interaction)
    if conflict is None or interaction.guild_id is None:
        return None
    storage = interaction.client.storage
    caller = await caller_of(interaction, storage)
    who = getattr(interaction.namespace, "who", None)
    key = name_key(who) if isinstance(who, str) and who.strip() else None
    for participant in conflict.participants:
        if key is not None and name_key(participant.name) != key:
            continue
        try:
            stored = await storage.characters.get(interaction.guild_id, participant.id)
        except StorageError:
            continue
        if not caller.controls(stored.character) or (key is None and not caller.owns(stored.character)):
            continue
        return stored.character
    return None


def _choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    found = [n for n in names if name_matches(current, n)]
    return [app_commands.Choice(name=n, value=n) for n in found[:SUGGESTIONS]]


async def participant_stats(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Stats and Powers of ``who`` (or of the caller's own participant), for ``stat`` options."""
    sheet = await _speaking_for(interaction)
    return _choices(list(rollable_names(sheet)), current) if sheet is not None else []


async def participant_props(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Props of ``who`` (or of the caller's own participant), for the ``weapon`` option: a
    weapon for a physical attack, any Prop a social or mental one names (docs/rulings.md §5.1)."""
    sheet = await _speaking_for(interaction)
    return _choices([p.name for p in sheet.props], current) if sheet is not None else []
