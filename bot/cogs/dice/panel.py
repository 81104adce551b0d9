"""The roll panel (docs/rulings.md §6.14): a card with a button per saved roll and per Attribute
of one character, so a routine roll is one tap.

Each button is a ``DynamicItem`` whose custom id carries what the click needs (the character,
and the saved roll or the Attribute), so a panel posted before a restart still rolls. A click
takes ``/roll``'s own path (``bot.cogs.dice.rolling``): the sheet and the saved roll loaded as
they are now, the caller checked to control the sheet, the pool formed, rolled, logged and
answered once, with the channel's Circumstances. A hidden character's panel rolls in secret, as
``/gmroll`` does, and is itself shown only to its Narrator (or posted in the GM channel, which
only Narrators read), since its buttons would tell the table what the character can do.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.client import Interaction
from bot.cogs.dice.rolling import throw_saved
from bot.errors import BotError
from bot.hidden import is_hidden
from bot.render.cards import Layout, button_rows, card_view
from bot.render.common import clip
from bot.render.saved_rolls import panel_card
from bot.served import guild_id_of
from rules.character import Attribute
from rules.saved_roll import SavedRoll
from storage import NotFoundError, StoredCharacter
from storage.saved_rolls import StoredRoll

GONE = "That character is no longer here; `/rolls panel` posts a panel for one who is."
DELETED = "That saved roll was deleted; `/rolls panel` posts a fresh panel with the rolls kept now."
ATTRIBUTES = "|".join(a.value for a in Attribute)
SAVED = "mab:sr:{character}:{roll}"
ATTRIBUTE = "mab:sa:{character}:{attribute}"


def saved_button(character: int, roll: int, label: str) -> discord.ui.Button[Layout]:
    custom_id = SAVED.format(character=character, roll=roll)
    return discord.ui.Button(custom_id=custom_id, label=clip(label, 80), style=discord.ButtonStyle.primary)


def attribute_button(character: int, attribute: Attribute) -> discord.ui.Button[Layout]:
    custom_id = ATTRIBUTE.format(character=character, attribute=attribute.value)
    return discord.ui.Button(custom_id=custom_id, label=attribute.label)


class SavedRollButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mab:sr:(?P<character>\d+):(?P<roll>\d+)",
):
    """A saved roll on the panel: rolls it."""

    def __init__(self, character: int, roll: int) -> None:
        super().__init__(saved_button(character, roll, "Roll"))
        self.character, self.roll = character, roll

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "SavedRollButton":
        return cls(int(match["character"]), int(match["roll"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await roll_from_panel(interaction, self.character, self.roll, None)


class AttributeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"mab:sa:(?P<character>\d+):(?P<attribute>{ATTRIBUTES})",
):
    """An Attribute on the panel: rolls it as it is, as ``/roll stat:`` does."""

    def __init__(self, character: int, attribute: Attribute) -> None:
        super().__init__(attribute_button(character, attribute))
        self.character, self.attribute = character, attribute

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "AttributeButton":
        return cls(int(match["character"]), Attribute(match["attribute"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await roll_from_panel(interaction, self.character, None, self.attribute)


BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (SavedRollButton, AttributeButton)


async def roll_from_panel(
    interaction: Interaction, character_id: int, roll_id: int | None, attribute: Attribute | None
) -> None:
    """Load the sheet and the saved roll as they are now, and roll it (``throw_saved``)."""
    storage = interaction.client.storage
    guild_id = guild_id_of(interaction)
    try:
        stored = await storage.characters.get(guild_id, character_id)
    except NotFoundError as error:
        raise BotError(GONE) from error
    if roll_id is not None:
        found = await storage.saved_rolls.get(guild_id, roll_id)
        if found is None or found.character_id != character_id:
            raise BotError(DELETED)
        saved, label = found.roll, found.roll.title
    else:
        assert attribute is not None
        saved, label = SavedRoll(name=attribute.label, stat=attribute.label), None
    await throw_saved(interaction, stored, saved, label=label, secret=is_hidden(stored))


def panel_view(stored: StoredCharacter, rolls: list[StoredRoll]) -> Layout:
    """The panel's message: the card, a button per saved roll, then one per Attribute."""
    buttons = [saved_button(stored.id, r.id, r.roll.name) for r in rolls]
    buttons += [attribute_button(stored.id, a) for a in Attribute]
    card = panel_card(stored.character.name, rolls, button_rows(buttons), secret=is_hidden(stored))
    return card_view(card)


async def post_panel(interaction: Interaction, stored: StoredCharacter) -> None:
    """Post the panel where it was asked for; a hidden character's privately, unless asked in
    the GM channel (docs/rulings.md §7.1)."""
    storage = interaction.client.storage
    guild_id = guild_id_of(interaction)
    rolls = await storage.saved_rolls.of(guild_id, stored.id)
    private = False
    if is_hidden(stored):
        gm = (await storage.settings.get(guild_id)).gm_channel_id
        private = gm is None or gm != interaction.channel_id
    await replies.send(interaction, view=panel_view(stored, rolls), ephemeral=private)
