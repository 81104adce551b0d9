"""Who may act, and on what: the :class:`Caller` behind one interaction and its rules
(docs/architecture.md, "Access").

* A **Narrator** is any member with Manage Server, plus members holding one of the server's
  Narrator roles (``/setup narrator-add``), judged at the moment they ask (docs/rulings.md §6.8).
* **Control** follows the role, not the history (§6.9): a Hero is controlled by its owner and by
  the Narrators; anything else (a Villain, an Extras group) only by whoever is a Narrator now,
  never by the member recorded as its creator.
* **Reading** (§7.1): a Narrator reads every sheet and every secret roll, a player the sheets
  ``bot.secrecy`` does not hide and their own secret rolls.
* **Honest dice** (§7.2): the bot rolls. Faces typed from dice rolled at the table are taken
  from the one who rolls them (the controller of that character), and from a player only where
  the server turned table dice on; a Narrator may always type them. An unopposed ``challenge``
  against another character is the Narrator's call.

Where an interaction comes from is ``bot.served``; what players may see of a secret sheet or a
Conflict, ``bot.secrecy``; where they read what was said, ``bot.reach``.

Every command asks once who is calling and then asks the :class:`Caller` — never the
interaction again — so a permission is judged the same way in commands, buttons, menus,
autocomplete and inside a Conflict's transaction. :func:`caller_of` reads the server's settings
and :func:`keep_caller` takes settings already read (with the sheet, in one query); both keep the
answer on the interaction (``Interaction.extras``), so the second asking reads nothing. The
:class:`Caller`'s rules are pure functions of plain data; reading a sheet anyone may read asks
nobody (:func:`require_read_of`), nor does rolling one's own Hero (:func:`owner_controls`).
"""

from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.errors import NotAllowed
from bot.secrecy import is_secret
from bot.served import guild_id_of
from bot.text import inert
from rules.burdens import Severity
from rules.character import Burden, Character, CharacterKind
from rules.conflict import Participant
from rules.words import is_group, verb
from storage import GuildSettings, Storage

CALLER_KEY = "mistborn.caller"
"""Where :func:`caller_of` keeps the answer on ``Interaction.extras``: asked once per interaction."""


class Sheetlike(Protocol):
    """What the rules of control and secrecy read of a character (a sheet or a summary)."""

    @property
    def kind(self) -> CharacterKind: ...
    @property
    def owner_id(self) -> int: ...


class RollLike(Protocol):
    """What the secrecy rule reads of a logged roll."""

    @property
    def user_id(self) -> int: ...
    @property
    def secret(self) -> bool: ...


def narrator_by_rule(manage_guild: bool, role_ids: Collection[int], settings: GuildSettings) -> bool:
    """The Narrator rule itself, on plain data: Manage Server, or one of the Narrator roles."""
    return manage_guild or any(role_id in role_ids for role_id in settings.narrator_role_ids)


NARRATORS_ONLY = (
    "Circumstances are the Narrator's call: they set them for the scene (`/scene circumstances`) "
    "or on their request. Leave `circumstances` out; your roll carries the scene's."
)


@dataclass(frozen=True)
class Caller:
    """The member behind one interaction: whether they are a Narrator in that server, and
    whether they hold Manage Server (which alone may change the server's setup)."""

    guild_id: int
    user_id: int
    narrator: bool
    manages_server: bool = False

    # -- control ---------------------------------------------------------------------------

    def controls(self, character: Sheetlike) -> bool:
        """Who may change, roll for or move ``character``: a Hero's owner or a Narrator; for
        anything else a Narrator now, whoever made it (docs/rulings.md §6.9)."""
        if character.kind is CharacterKind.HERO:
            return self.narrator or owner_controls(self.user_id, character)
        return self.narrator

    def controls_participant(self, participant: Participant, sheet: Sheetlike | None) -> bool:
        """Who may move ``participant`` in a Conflict: its sheet's controller (a Narrator when
        the sheet is gone)."""
        return self.controls(sheet) if sheet is not None else self.narrator

    def owns(self, character: Sheetlike) -> bool:
        """The recorded owner (whose pings and active character it is); not a permission."""
        return character.owner_id == self.user_id

    # -- secrecy ---------------------------------------------------------------------------

    def can_read(self, character: Sheetlike, revealed: bool) -> bool:
        """Whether the caller may read the sheet: a Hero, a revealed one, or any for a Narrator."""
        return self.narrator or not is_secret(character.kind, revealed)

    @property
    def reads_secret_sheets(self) -> bool:
        """Listing and name lookup include secret sheets (the SQL form of :meth:`can_read`)."""
        return self.narrator

    def can_see_roll(self, roll: RollLike) -> bool:
        """A secret roll is seen by Narrators and by the member who rolled it."""
        return not roll.secret or self.narrator or roll.user_id == self.user_id

    @property
    def roll_viewer(self) -> int | None:
        """The SQL form of :meth:`can_see_roll`: whose secret rolls the caller may see (None:
        everyone's, for a Narrator)."""
        return None if self.narrator else self.user_id

    # -- honest dice -----------------------------------------------------------------------

    def may_type_faces(self, roller: Sheetlike | None, table_dice: bool) -> bool:
        """Typed faces for ``roller``'s dice: a Narrator always; a player only for a character
        they control, and only where the server allows table dice (§7.2)."""
        if self.narrator:
            return True
        return table_dice and roller is not None and self.controls(roller)

    def require_faces(self, roller: Sheetlike | None, name: str, table_dice: bool, option: str) -> None:
        """Refuse typed faces the caller may not give, saying why and what to do instead."""
        if self.may_type_faces(roller, table_dice):
            return
        if roller is None or not self.controls(roller):
            raise NotAllowed(
                f"Only the one who rolls {inert(name)}'s dice may type them: leave `{option}` out "
                "and the bot rolls."
            )
        raise NotAllowed(
            f"Typed dice are for dice rolled at a physical table, which this server has not turned "
            f"on (`/setup table-dice`): leave `{option}` out and the bot rolls."
        )

    def require_own_circumstances(self, given: int | None) -> None:
        """Circumstances are the Narrator's call (docs/rulings.md §1.6): a player's own are
        refused, whatever their value, in a roll and in a Conflict's move alike."""
        if given is not None and not self.narrator:
            raise NotAllowed(NARRATORS_ONLY)

    def require_challenge(self) -> None:
        """An unopposed (``challenge``) action against another character is the Narrator's call."""
        self.require_narrator("call an action against another character unopposed (`challenge`)")

    # -- recovery --------------------------------------------------------------------------

    def require_recovery(self, what: str) -> None:
        """Recovery is the Narrator's call (docs/rulings.md §5.12): a player's own healing,
        Breather or recovered Standing is refused with where it comes from instead."""
        if not self.narrator:
            raise NotAllowed(
                "Recovery is the Narrator's call: they call a Breather for your Hero (`/scene breather`) "
                f"and you take it from its button, or they recover {what} for you."
            )

    def require_easing(self, burden: Burden) -> None:
        """Easing or removing a Burden is recovery too (§5.10–§5.12), so it is the Narrator's;
        adding or worsening one stays open to whoever controls the sheet, as taking damage does."""
        if self.narrator:
            return
        how = (
            "a Mortal one eases only through an Advancement or strong magic, as they judge"
            if burden.severity is Severity.MORTAL
            else "ask them, or they ease one in a Long Breather they call (`/scene breather kind:long`)"
        )
        raise NotAllowed(f"Only a Narrator can ease or remove the Burden {inert(burden.name)}: {how}.")

    # -- refusals --------------------------------------------------------------------------

    def require_narrator(self, doing: str) -> None:
        """Refuse with a message that says what needed a Narrator."""
        if not self.narrator:
            raise NotAllowed(
                f"Only a Narrator can {doing}. Ask one, or a server admin for the Narrator role."
            )

    def require_manager(self, doing: str) -> None:
        """Refuse unless the caller holds Manage Server (the server's own setup)."""
        if not self.manages_server:
            raise NotAllowed(
                f"Only a member with the Manage Server permission can {doing}. Ask a server admin."
            )

    def require_control(self, character: Character, doing: str) -> None:
        """Refuse unless the caller controls ``character`` (:meth:`controls`)."""
        if self.controls(character):
            return
        name = inert(character.name)
        if character.kind is CharacterKind.HERO:
            raise NotAllowed(f"{name} is not yours, so you cannot {doing}. Only its owner or a Narrator can.")
        is_ = verb("is", is_group(character.size))
        raise NotAllowed(f"{name} {is_} the Narrator's, so you cannot {doing}. Only a Narrator can.")

    def require_read(self, character: Character, revealed: bool) -> None:
        """Refuse to show a secret sheet to anyone but a Narrator."""
        if not self.can_read(character, revealed):
            is_ = verb("is", is_group(character.size))
            raise NotAllowed(
                f"{inert(character.name)} {is_} one of the Narrator's characters: only a Narrator can "
                "read its sheet."
            )


def owner_controls(user_id: int, character: Sheetlike) -> bool:
    """``user_id`` owns the Hero ``character``, so controls it whoever they are in the server
    (docs/rulings.md §6.9): :meth:`Caller.controls` holds without judging their roles, so a roll
    of one's own Hero asks nobody (``bot.cogs.dice.rolling.pool_for``)."""
    return character.kind is CharacterKind.HERO and character.owner_id == user_id


def member_role_ids(interaction: discord.Interaction[discord.Client]) -> frozenset[int]:
    member = interaction.user
    return frozenset(role.id for role in member.roles) if isinstance(member, discord.Member) else frozenset()


async def caller_of(interaction: discord.Interaction[discord.Client], storage: Storage) -> Caller:
    """Who is asking, read once per interaction (one settings read, none with Manage Server).

    The roles come from the interaction itself, so a member who lost the Narrator role is a
    player from their next interaction on.
    """
    known = interaction.extras.get(CALLER_KEY)
    if isinstance(known, Caller):
        return known
    guild_id = guild_id_of(interaction)
    manage = interaction.permissions.manage_guild
    return keep_caller(interaction, GuildSettings() if manage else await storage.settings.get(guild_id))


async def require_read_of(
    interaction: discord.Interaction[discord.Client], storage: Storage, character: Character, revealed: bool
) -> None:
    """:meth:`Caller.require_read`, asking who is calling only when it matters: anyone reads a
    sheet that is not secret, so a Hero's needs no settings read (§7.1)."""
    if is_secret(character.kind, revealed):
        (await caller_of(interaction, storage)).require_read(character, revealed)


def keep_caller(interaction: discord.Interaction[discord.Client], settings: GuildSettings) -> Caller:
    """Who is asking, judged from ``settings`` the interaction has already read (with what else
    it needed, in one query), and kept on the interaction (``extras``) as :func:`caller_of`
    keeps it: the first judgement of an interaction is the one every later asking gets."""
    known = interaction.extras.get(CALLER_KEY)
    if isinstance(known, Caller):
        return known
    manage = interaction.permissions.manage_guild
    narrator = narrator_by_rule(manage, member_role_ids(interaction), settings)
    found = Caller(
        guild_id=guild_id_of(interaction),
        user_id=interaction.user.id,
        narrator=narrator,
        manages_server=manage,
    )
    interaction.extras[CALLER_KEY] = found
    return found
