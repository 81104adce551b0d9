"""Characters named in an option: found by the one naming rule, offered as the user types.

A typed name finds a character the way ``rules.naming.find_named`` says: the exact name (in any
case, spacing or width) if there is one, else every name that contains what was typed,
ignoring accents (``menard`` finds "Ménard d'Arc"). One match is the character; several are a
question back to the user. Names always come from this server only.

A player finds and is offered only the sheets they may read (docs/rulings.md §7.1): Heroes and
revealed Villains and Extras. The Narrator's secret ones are neither suggested nor found by a
part of their name; typed in full, the player is told it is the Narrator's. A name that finds
nothing gets the closest readable name back ("Did you mean Vin?", ``rules.naming``, §8.4).
"""

import discord
from discord import app_commands

from bot.access import caller_of, keep_caller, owner_controls
from bot.client import Interaction, MistbornClient
from bot.errors import BotError
from bot.render.common import clip, plain
from bot.secrecy import is_secret
from bot.served import guild_id_of, served_guild_id
from rules.character.limits import NAME_MAX
from rules.naming import did_you_mean
from storage import StoredCharacter
from storage.active import AtTable

SUGGESTIONS = 25
"""Discord shows at most 25 autocomplete choices."""
NO_ACTIVE = "You have no active character here. Pick one with `/character use`, or name one."
SHEETS_ELSEWHERE = (
    "Sheets live in a server with the bot: use `dice:` to roll here, or roll from a sheet in a "
    "channel of your game's server."
)
"""Where the bot serves no server (a DM, a server it is not in) no sheet is read."""


def shown(typed: str) -> str:
    """What a user typed, repeated back inert and short (a raw payload can carry 6000 characters)."""
    return plain(clip(" ".join(typed.split()), NAME_MAX))


async def find_character(interaction: Interaction, typed: str) -> StoredCharacter:
    """The character of this server that ``typed`` names (among those the caller may read), or
    a clear refusal."""
    if served_guild_id(interaction) is None:
        raise BotError(SHEETS_ELSEWHERE)
    guild_id = guild_id_of(interaction)
    storage = interaction.client.storage
    exact = await storage.characters.named(guild_id, typed)
    if exact is not None and not is_secret(exact.character.kind, exact.revealed):
        return exact  # what find would pick alone, for anyone: no search, no second read
    caller = await caller_of(interaction, storage)
    if exact is not None and caller.can_read(exact.character, exact.revealed):
        return exact
    public_only = not caller.reads_secret_sheets
    found = await storage.characters.find(guild_id, typed, limit=6, public_only=public_only)
    if len(found) == 1:
        return await storage.characters.get(guild_id, found[0].id)
    if not found:
        if exact is not None:
            caller.require_read(exact.character, exact.revealed)
        readable = await storage.characters.known_names(guild_id, public_only=public_only)
        hint = did_you_mean(typed, readable, shown=plain)
        raise BotError(
            f"There is no character named {shown(typed)} in this server; "
            f"`/character list` shows the sheets here.{hint}"
        )
    names = ", ".join(plain(c.name) for c in found[:5])
    more = ", …" if len(found) > 5 else ""
    raise BotError(
        f"Several characters match {shown(typed)}: {names}{more}. Which one? Type more of the name."
    )


async def active_character(interaction: Interaction) -> StoredCharacter:
    """The caller's active character in this server (``/character use``)."""
    active = await interaction.client.storage.active.get(guild_id_of(interaction), interaction.user.id)
    if active is None:
        raise BotError(NO_ACTIVE)
    return active


async def at_table(interaction: Interaction, channel_id: int | None) -> AtTable:
    """The caller's active sheet (None if they chose none) and the Circumstances of
    ``channel_id``, read in ONE query with the server's settings, which decide who is asking
    (``bot.access.keep_caller``): a stat roll needs all three. Who is asking is judged only
    when it can matter: the owner of a Hero controls and reads it whoever they are
    (``bot.access.owner_controls``, docs/rulings.md §6.9, §7.1), so their own Hero's roll,
    the common one, judges no roles and parses no settings."""
    storage = interaction.client.storage
    found = await storage.active.at_table(guild_id_of(interaction), interaction.user.id, channel_id)
    sheet = found.sheet
    if sheet is None or not owner_controls(interaction.user.id, sheet.character):
        keep_caller(interaction, found.settings)
    return found


async def named_or_active(interaction: Interaction, given: StoredCharacter | None) -> StoredCharacter:
    """The character an option named, or the caller's active one when the option was left out."""
    return given if given is not None else await active_character(interaction)


async def character_names(
    interaction: Interaction, current: str, *, own: bool = False
) -> list[app_commands.Choice[str]]:
    """Suggestions: names of this server containing what was typed (accents ignored), among the
    sheets the caller may read; ``own``: only those they control."""
    guild_id = served_guild_id(interaction)
    if guild_id is None:
        return []
    storage = interaction.client.storage
    caller = await caller_of(interaction, storage)
    owner_id = caller.user_id if own and not caller.narrator else None
    found = await storage.characters.search(
        guild_id,
        current[:NAME_MAX],
        owner_id=owner_id,
        limit=SUGGESTIONS,
        public_only=not caller.reads_secret_sheets,
    )
    mine = [c for c in found if not own or caller.controls(c)]
    return [app_commands.Choice(name=c.name, value=c.name) for c in mine]


class CharacterTransformer(app_commands.Transformer[MistbornClient]):
    """A character of this server, by name; ``own`` suggests only those the caller controls
    (Narrators: all). Players never find the Narrator's secret sheets.

    The suggestion scope is a convenience: what the caller may do with the character is checked
    by the command (``Caller.require_control``, ``Caller.require_read``).
    """

    def __init__(self, *, own: bool = False) -> None:
        self.own = own

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return NAME_MAX

    async def transform(self, interaction: Interaction, value: str) -> StoredCharacter:
        return await find_character(interaction, value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        return await character_names(interaction, str(value), own=self.own)


AnyCharacter = app_commands.Transform[StoredCharacter, CharacterTransformer()]
"""Any character of this server (reading, or a Narrator's pick)."""
OwnCharacter = app_commands.Transform[StoredCharacter, CharacterTransformer(own=True)]
"""A character the caller would change: their own are suggested (a Narrator sees all)."""
NewName = app_commands.Range[str, 1, NAME_MAX]
"""A name for a new or renamed character; the sheet's own rules check it (``rules.character``)."""
