"""Who may do what and see what: the one place the bot decides it (docs/architecture.md, "Access").

* A **Narrator** is any member with Manage Server, plus members holding one of the server's
  Narrator roles (``/setup narrator-add``), judged at the moment they ask (docs/rulings.md §6.8).
* **Control** follows the role, not the history (§6.9): a Hero is controlled by its owner and by
  the Narrators; anything else (a Villain, an Extras group) only by whoever is a Narrator now,
  never by the member recorded as its creator.
* **Secrecy** (§7.1): Villains and Extras are the Narrator's. Anyone in the server reads a Hero;
  a Villain or Extra is read by Narrators, or by anyone once a Narrator revealed it. Players see
  the others only as a name and a plain state (:func:`plain_state`). A secret roll (``/gmroll``)
  is seen by Narrators and by the member who rolled it.
* **Honest dice** (§7.2): the bot rolls. Faces typed from dice rolled at the table are taken
  from the one who rolls them (the controller of that character), and from a player only where
  the server turned table dice on; a Narrator may always type them. An unopposed ``challenge``
  against another character is the Narrator's call.

Every command asks once who is calling (:func:`caller_of`, kept on the interaction; or
:func:`caller_from` when the settings came with the sheet in one read) and then asks the
:class:`Caller` — never the interaction again — so a permission is judged the same way in
commands, buttons, menus, autocomplete and inside a Conflict's transaction. Reading a sheet
anyone may read asks nobody (:func:`require_read_of`). Everything here but :func:`caller_of`
and :func:`require_read_of` is a pure function of plain data.
"""

from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

import discord

from bot.errors import DM_REFUSAL, BotError, NotAllowed
from bot.render.visibility import Visibility
from bot.text import inert
from rules.burdens import Severity
from rules.character import Burden, Character, CharacterKind, Resilience, resilience_current, resilience_max
from rules.conflict import Conflict, Participant
from rules.words import is_group, verb
from storage import GuildSettings, Storage

CALLER_KEY = "mistborn.caller"
"""Where :func:`caller_of` keeps the answer on ``Interaction.extras``: asked once per interaction."""


class PlainState(StrEnum):
    """What players see of a character whose sheet is secret (docs/rulings.md §7.1)."""

    UNHURT = "unhurt"
    WOUNDED = "wounded"
    GRAVELY_WOUNDED = "gravely wounded"
    DEFEATED = "defeated"


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


def served_guild_id(interaction: discord.Interaction[discord.Client]) -> int | None:
    """The server the bot serves this interaction in, or None: a direct message, a group DM, or
    a server the bot is not in, where a member used a command of the app they installed for
    themselves (docs/architecture.md, "Dice anywhere"). Discord says a server installed the app
    for the interaction (``authorizing_integration_owners``), or the bot holds the server."""
    guild_id = interaction.guild_id
    if guild_id is None:
        return None
    if interaction.is_guild_integration() or interaction.client.get_guild(guild_id) is not None:
        return guild_id
    return None


def guild_id_of(interaction: discord.Interaction[discord.Client]) -> int:
    """The server the interaction came from; refused anywhere the bot serves no server."""
    guild_id = served_guild_id(interaction)
    if guild_id is None:
        raise NotAllowed(DM_REFUSAL)
    return guild_id


def usable_anywhere(command: object) -> bool:
    """Whether a command also works where the bot serves no server: those a member may install
    for themselves (``allowed_installs(users=True)``: ``/roll``, ``/read``, ``/odds``)."""
    root = getattr(command, "root_parent", None) or command
    installs = getattr(root, "allowed_installs", None)
    return bool(installs is not None and installs.user)


def channel_id_of(interaction: discord.Interaction[discord.Client]) -> int:
    """The channel the interaction came from (Conflicts and boards live in one)."""
    if interaction.channel_id is None:
        raise BotError("This works in a server channel: run it in one of its text channels.")
    return interaction.channel_id


def table_channel_of(interaction: discord.Interaction[discord.Client]) -> int:
    """The table an interaction belongs to, for the session's journal: a thread's parent channel
    (a Conflict in its own thread is still that channel's night), else the channel itself."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return channel.parent_id
    return channel_id_of(interaction)


def narrator_by_rule(manage_guild: bool, role_ids: Collection[int], settings: GuildSettings) -> bool:
    """The Narrator rule itself, on plain data: Manage Server, or one of the Narrator roles."""
    return manage_guild or any(role_id in role_ids for role_id in settings.narrator_role_ids)


def is_secret(kind: CharacterKind, revealed: bool) -> bool:
    """A sheet only Narrators read: a Villain or Extra the Narrator has not revealed (§7.1)."""
    return kind is not CharacterKind.HERO and not revealed


def plain_state(character: Character, *, burning_pewter: bool = False) -> PlainState:
    """Unhurt, wounded, gravely wounded or defeated, by the thresholds of docs/rulings.md §7.1.

    * defeated: a Resilience at 0 (§5.8), or every member of an Extras group down;
    * gravely wounded: a Resilience at half its maximum or less, half or more of a group down,
      or a Grave or Mortal Burden held;
    * wounded: a Resilience below its maximum, a member of a group down, or any Burden held;
    * unhurt: none of these.
    """
    grave = any(b.severity in (Severity.GRAVE, Severity.MORTAL) for b in character.burdens)
    if character.is_extra:
        left, size = character.members_left, character.size
        if left == 0:
            return PlainState.DEFEATED
        if grave or left * 2 <= size:
            return PlainState.GRAVELY_WOUNDED
        return PlainState.WOUNDED if left < size or character.burdens else PlainState.UNHURT
    now = {r: resilience_current(character, r, burning_pewter) for r in Resilience}
    top = {r: resilience_max(character, r, burning_pewter) for r in Resilience}
    if any(value == 0 for value in now.values()):
        return PlainState.DEFEATED
    if grave or any(now[r] * 2 <= top[r] for r in Resilience):
        return PlainState.GRAVELY_WOUNDED
    if character.burdens or any(now[r] < top[r] for r in Resilience):
        return PlainState.WOUNDED
    return PlainState.UNHURT


def participant_state(participant: Participant, sheet: Character | None) -> PlainState:
    """A participant's plain state: defeated in the Conflict stays defeated (§7.4), whatever the
    sheet says since; an Extras group counts the members the Conflict has left standing."""
    if participant.defeated or (participant.is_extra and participant.members_left == 0):
        return PlainState.DEFEATED
    if sheet is None:
        return PlainState.UNHURT
    if participant.is_extra:
        sheet = sheet.model_copy(update={"members_down": participant.size - participant.members_left})
    return plain_state(sheet, burning_pewter=participant.burning_pewter)


_SEEN: "deque[tuple[Conflict, dict[int, Character], frozenset[int], Visibility]]" = deque(maxlen=8)
"""The last few visibilities worked out, with what they were worked out from (held, so an id
is never reused while it is here)."""


def visibility_of(
    conflict: Conflict, sheets: Mapping[int, Character], revealed: Collection[int]
) -> Visibility:
    """What the whole table may see of ``conflict``: everyone's numbers but the secret sheets',
    which show as plain states. Someone who left shows their numbers only if ``sheets`` holds
    their sheet and it is not secret.

    One move asks this of the same state several times (its reply, its journal entries, its
    board and the board's buttons); the models are frozen, so the same objects give the same
    answer and it is worked out once."""
    shown_to = frozenset(revealed)
    for seen, seen_sheets, seen_revealed, view in _SEEN:
        if seen is conflict and seen_revealed == shown_to and _same_sheets(seen_sheets, sheets):
            return view
    view = _visibility(conflict, sheets, shown_to)
    _SEEN.append((conflict, dict(sheets), shown_to, view))
    return view


def _same_sheets(seen: Mapping[int, Character], sheets: Mapping[int, Character]) -> bool:
    return len(seen) == len(sheets) and all(sheets.get(cid) is sheet for cid, sheet in seen.items())


def _visibility(conflict: Conflict, sheets: Mapping[int, Character], revealed: frozenset[int]) -> Visibility:
    shown = {p.id for p in conflict.participants if not is_secret(p.kind, p.id in revealed)}
    shown |= {
        cid
        for cid, sheet in sheets.items()
        if conflict.find(cid) is None and not is_secret(sheet.kind, cid in revealed)
    }
    states = {
        p.id: participant_state(p, sheets.get(p.id)).value for p in conflict.participants if p.id not in shown
    }
    return Visibility(shown=frozenset(shown), states=states)


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
            return self.narrator or character.owner_id == self.user_id
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
    return caller_from(interaction, GuildSettings() if manage else await storage.settings.get(guild_id))


async def require_read_of(
    interaction: discord.Interaction[discord.Client], storage: Storage, character: Character, revealed: bool
) -> None:
    """:meth:`Caller.require_read`, asking who is calling only when it matters: anyone reads a
    sheet that is not secret, so a Hero's needs no settings read (§7.1)."""
    if is_secret(character.kind, revealed):
        (await caller_of(interaction, storage)).require_read(character, revealed)


def caller_from(interaction: discord.Interaction[discord.Client], settings: GuildSettings) -> Caller:
    """Who is asking, judged from ``settings`` the interaction has already read (with what else
    it needed, in one query), and kept on the interaction as :func:`caller_of` keeps it."""
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
