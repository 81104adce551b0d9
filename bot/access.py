"""Who may do what: the one place the bot decides it (docs/architecture.md, "Access").

* A **Narrator** is any member with Manage Server, plus members holding one of the server's
  Narrator roles (``/setup narrator-add``). Manage Server always counts, so a server can never
  lock itself out of its own Conflicts.
* A member **controls** a character when they own it or are a Narrator: only they may change
  its sheet, roll for it or move it in a Conflict.

Every command asks once, at its start, who is calling (:func:`caller_of`), and then asks the
:class:`Caller` — never the interaction again — so a permission is judged the same way in
commands, buttons, menus and inside a Conflict's transaction.
"""

from collections.abc import Collection
from dataclasses import dataclass

import discord

from bot.errors import BotError, NotAllowed
from rules.character import Character
from storage import GuildSettings, Storage

DM_REFUSAL = "This command works in a server, not in direct messages."


def guild_id_of(interaction: discord.Interaction[discord.Client]) -> int:
    """The server the interaction came from; refused in direct messages."""
    if interaction.guild_id is None:
        raise NotAllowed(DM_REFUSAL)
    return interaction.guild_id


def channel_id_of(interaction: discord.Interaction[discord.Client]) -> int:
    """The channel the interaction came from (Conflicts and boards live in one)."""
    if interaction.channel_id is None:
        raise BotError("This works in a server channel.")
    return interaction.channel_id


def narrator_by_rule(manage_guild: bool, role_ids: Collection[int], settings: GuildSettings) -> bool:
    """The Narrator rule itself, on plain data: Manage Server, or one of the Narrator roles."""
    return manage_guild or any(role_id in role_ids for role_id in settings.narrator_role_ids)


@dataclass(frozen=True)
class Caller:
    """The member behind one interaction, and whether they are a Narrator in that server."""

    guild_id: int
    user_id: int
    narrator: bool

    def controls(self, character: Character) -> bool:
        """Owner or Narrator: who may change, roll for or move ``character``."""
        return self.narrator or character.owner_id == self.user_id

    def owns(self, character: Character) -> bool:
        return character.owner_id == self.user_id

    def require_narrator(self, doing: str) -> None:
        """Refuse with a message that says what needed a Narrator."""
        if not self.narrator:
            raise NotAllowed(
                f"Only a Narrator can {doing}. Ask one, or a server admin for the Narrator role."
            )

    def require_control(self, character: Character, doing: str) -> None:
        """Refuse unless the caller owns ``character`` or is a Narrator."""
        if not self.controls(character):
            raise NotAllowed(
                f"{character.name} is not yours, so you cannot {doing}. Only its owner or a Narrator can."
            )


def member_role_ids(interaction: discord.Interaction[discord.Client]) -> frozenset[int]:
    member = interaction.user
    return frozenset(role.id for role in member.roles) if isinstance(member, discord.Member) else frozenset()


async def caller_of(interaction: discord.Interaction[discord.Client], storage: Storage) -> Caller:
    """Who is asking, read once per interaction (one settings read, none with Manage Server)."""
    guild_id = guild_id_of(interaction)
    manage = interaction.permissions.manage_guild
    settings = GuildSettings() if manage else await storage.settings.get(guild_id)
    narrator = narrator_by_rule(manage, member_role_ids(interaction), settings)
    return Caller(guild_id=guild_id, user_id=interaction.user.id, narrator=narrator)
