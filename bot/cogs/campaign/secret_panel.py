"""Revealing a Secret from the Narrator's private ``/secret list`` (docs/rulings.md §10.3).

The list carries a menu of the Secrets not yet told to the table. Picking one turns that private
message into its second step: a menu of whom to tell (the table, or a Hero of the server not told
it yet) and a **Reveal** button naming the choice. The button goes through the very flow of
``/secret reveal`` (``bot.cogs.campaign.secret_reveal``): the same checks, card, journal entry,
Secrets known and award offer.

Everything a step needs is in its custom_ids (the Secret's id, the Hero's), so the panel works
after a restart; each click loads the Secret and the Hero again, so a choice made stale since
(the Secret deleted or told, the Hero deleted or told) is refused plainly. Only a Narrator may
use it: anyone else is refused privately before anything is loaded, and no step ever shows a
Secret's words (only its title and kind, to the Narrator).
"""

import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.clicks import NOT_OFFERED, picked_id
from bot.client import Interaction
from bot.cogs.campaign.secret_reveal import reveal_secret
from bot.errors import BotError
from bot.render.common import plain
from bot.served import guild_id_of
from rules.character import CharacterKind
from storage import StoredCharacter
from storage.character_rows import CharacterSummary
from storage.errors import NotFoundError
from storage.secrets import StoredSecret

PICK = r"mab:tellsel"
WHOM = r"mab:tellto:(?P<secret>\d{1,18})"
GO = r"mab:tellgo:(?P<secret>\d{1,18}):(?P<hero>\d{1,18})"
MENU = 25
"""Options a Discord menu holds."""
TABLE = 0
"""The value that means the whole table (a character's id is never 0)."""
DOING = "reveal a Secret"
GONE = "That Secret is no longer kept here (it may have been deleted); `/secret list` shows them."
TOLD_TABLE = "The table was told **{title}** already: everyone reads it. `/secret list` shows the rest."
HERO_GONE = "That Hero is no longer in this server; choose again."


def pick_menu(
    secrets: Sequence[StoredSecret], told: Mapping[int, frozenset[int | None]]
) -> discord.ui.View | None:
    """The list's menu: the Secrets not yet told to the table (the first :data:`MENU`), or None."""
    open_ = [s for s in secrets if None not in told.get(s.id, frozenset())][:MENU]
    if not open_:
        return None
    options = [
        discord.SelectOption(
            label=s.title[:100],
            value=str(s.id),
            description=f"{s.secret.kind.label}, " + heroes_told(len(told.get(s.id, ()))),
        )
        for s in open_
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id=PICK, placeholder="Reveal a Secret…", options=options))
    view.stop()
    return view


def heroes_told(count: int) -> str:
    return "not revealed yet" if count == 0 else f"told to {count} Hero" + ("" if count == 1 else "es")


def untold_heroes(heroes: Sequence[CharacterSummary], told: frozenset[int | None]) -> list[CharacterSummary]:
    return [h for h in heroes if h.kind is CharacterKind.HERO and h.id not in told]


def whom_step(
    stored: StoredSecret, told: frozenset[int | None], heroes: Sequence[CharacterSummary], chosen: int
) -> tuple[str, discord.ui.View]:
    """The second step: whom to tell ``stored`` (the table, or a Hero not told it) and the button
    that reveals it to ``chosen`` (:data:`TABLE`, or one of those Heroes' ids)."""
    untold = untold_heroes(heroes, told)
    room = MENU - 1 if None not in told else MENU
    options = [discord.SelectOption(label="The whole table", value=str(TABLE))] if None not in told else []
    options += [discord.SelectOption(label=h.name[:100], value=str(h.id)) for h in untold[:room]]
    lines = [f"Reveal **{plain(stored.title)}** ({stored.secret.kind.label}) to whom?"]
    if len(untold) > room:
        lines.append(f"-# The menu holds {room} Heroes; `/secret reveal hero:` names any other.")
    if not any(o.value == str(chosen) for o in options):
        chosen = int(options[0].value)  # a Hero past the menu's room: the first one offered
    for option in options:
        option.default = option.value == str(chosen)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id=f"mab:tellto:{stored.id}", options=options))
    name = next(o.label for o in options if o.default)
    label = "Reveal to the table" if chosen == TABLE else f"Reveal to {name}"[:80]
    view.add_item(
        discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary, custom_id=f"mab:tellgo:{stored.id}:{chosen}"
        )
    )
    view.stop()
    return "\n".join(lines), view


async def open_secret(interaction: Interaction, secret_id: int) -> StoredSecret:
    """Check the caller is a Narrator (before anything is loaded), then the chosen Secret, still
    kept; a panel whose Secret was deleted is closed as it is refused."""
    (await caller(interaction)).require_narrator(DOING)
    try:
        stored = await interaction.client.storage.secrets.get(guild_id_of(interaction), secret_id)
    except NotFoundError:
        await replies.edit(interaction, content=GONE, view=None)
        raise BotError(GONE) from None
    return stored


async def show_whom(interaction: Interaction, stored: StoredSecret, chosen: int) -> None:
    """Draw the second step for ``chosen``, refused plainly when that choice is stale: the table
    or the Hero told it since, the Hero deleted."""
    storage, guild_id = interaction.client.storage, guild_id_of(interaction)
    told = frozenset(r.character_id for r in await storage.secrets.reveals(guild_id, stored.id))
    if chosen == TABLE and None in told:
        raise BotError(TOLD_TABLE.format(title=plain(stored.title)))
    heroes = await storage.characters.summaries(guild_id)
    if chosen != TABLE:
        hero = next((h for h in heroes if h.id == chosen), None)
        if hero is None:
            raise BotError(HERO_GONE)
        if chosen in told:
            raise BotError(f"{plain(hero.name)} was told **{plain(stored.title)}** already; choose again.")
        if hero.kind is not CharacterKind.HERO:
            raise BotError(NOT_OFFERED)
    content, view = whom_step(stored, told, heroes, chosen)
    await replies.edit(interaction, content=content, view=view)


async def pick(interaction: Interaction, secret_id: int) -> None:
    """The list's menu: the chosen Secret's second step, the table chosen at first."""
    stored = await open_secret(interaction, secret_id)
    await show_whom(interaction, stored, TABLE)


async def aim(interaction: Interaction, secret_id: int, chosen: int) -> None:
    """The whom menu: the same step, its button now naming the choice."""
    stored = await open_secret(interaction, secret_id)
    await show_whom(interaction, stored, chosen)


async def hero_of(interaction: Interaction, hero_id: int) -> StoredCharacter:
    try:
        return await interaction.client.storage.characters.get(guild_id_of(interaction), hero_id)
    except NotFoundError:
        raise BotError(HERO_GONE) from None


async def go(interaction: Interaction, secret_id: int, hero_id: int) -> None:
    """The Reveal button: parse (the ids) → check a Narrator → load → ``/secret reveal``'s flow."""
    stored = await open_secret(interaction, secret_id)
    hero = await hero_of(interaction, hero_id) if hero_id != TABLE else None
    await reveal_secret(interaction, stored, hero, panel=True)


class PickSecret(discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK):
    """The menu on the Narrator's ``/secret list``."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Select(custom_id=PICK))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "PickSecret":
        return cls()

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await pick(interaction, picked_id(interaction))


class ChooseWhom(discord.ui.DynamicItem[discord.ui.Select[Any]], template=WHOM):
    """Whom to tell: the table, or a Hero."""

    def __init__(self, secret: int) -> None:
        super().__init__(discord.ui.Select(custom_id=f"mab:tellto:{secret}"))
        self.secret = secret

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ChooseWhom":
        return cls(int(match["secret"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await aim(interaction, self.secret, picked_id(interaction))


class RevealSecret(discord.ui.DynamicItem[discord.ui.Button[Any]], template=GO):
    """Reveal: the Secret to the Hero (or the table) the step names."""

    def __init__(self, secret: int, hero: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"mab:tellgo:{secret}:{hero}"))
        self.secret, self.hero = secret, hero

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "RevealSecret":
        return cls(int(match["secret"]), int(match["hero"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await go(interaction, self.secret, self.hero)


PANEL_ITEMS = (PickSecret, ChooseWhom, RevealSecret)
