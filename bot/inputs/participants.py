"""Participants of this channel's Conflict, named in an option (``who``, ``target``).

The name is only cleaned here: it is resolved against the Conflict inside the move's own
transaction (``bot.moves.named.find_participant``), so it is judged on the state the move applies to,
never on an older copy. Participants are found by the same naming rule as characters.

Names of participants are public (the board shows them); their stats are suggested only to
whoever controls them (docs/rulings.md §6.9, §7.1).
"""

from collections.abc import Mapping

import discord
from discord import app_commands

from bot.access import Caller, caller_of
from bot.client import Interaction, MistbornClient
from bot.errors import BotError, NotAllowed
from bot.inputs.characters import SUGGESTIONS
from bot.moves.named import find_participant
from bot.moves.turns import movers
from bot.render.common import plain
from rules.character import Character
from rules.character.limits import NAME_MAX
from rules.character.stats import rollable_names
from rules.conflict import Conflict, Participant
from rules.naming import name_key, name_matches, sort_key
from rules.words import verb
from storage.conflict_moves import current_conflict
from storage.errors import StorageError

Sheets = Mapping[int, Character]


def controls(caller: Caller, participant: Participant, sheets: Sheets) -> bool:
    """Whether the caller may move ``participant`` (``Caller.controls_participant``)."""
    return caller.controls_participant(participant, sheets.get(participant.id))


def pick(conflict: Conflict, sheets: Sheets, caller: Caller, who: str | None, doing: str) -> Participant:
    """The participant a move is for: the one named, or the caller's own when unnamed: their only
    character standing, or the only one of theirs that can move now (``bot.moves.turns.movers``).

    A defeated character's player is told so (docs/rulings.md §5.8), not sent to join again."""
    if who is not None and who.strip():
        participant = find_participant(conflict, who)
        if not controls(caller, participant, sheets):
            is_ = verb("is", participant.many)
            raise NotAllowed(f"{plain(participant.name)} {is_} not yours, so you cannot {doing} for them.")
        return participant
    standing = [p for p in conflict.participants if controls(caller, p, sheets)]
    mine = [p for p in standing if not p.defeated]
    if caller.narrator:
        mine = [p for p in mine if (s := sheets.get(p.id)) is not None and caller.owns(s)] or mine
    moving = [p for p in mine if p.id in movers(conflict)]
    if len(mine) == 1:
        return mine[0]
    if len(moving) == 1:  # the one of the caller's characters that can move now
        return moving[0]
    if not mine and standing:
        names = ", ".join(plain(p.name) for p in standing[:10])
        raise BotError(
            f"{names} {'is' if len(standing) == 1 else 'are'} defeated: no more turns in this Conflict."
        )
    if not mine:
        raise BotError("You have no character in this Conflict. Join with `/conflict join`.")
    names = ", ".join(plain(p.name) for p in mine[:10])
    raise BotError(f"You speak for several characters here ({names}); say which with `who`.")


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
