"""``/edit ratings``: the three Attributes or the three Standings, and the build labels, in one
form of menus (docs/rulings.md §6.9, §7.4, §8.5).

A mixin of :class:`bot.cogs.characters.edit.EditCommands`, kept apart so each module stays
short. The command opens a form whose menus start at the sheet's numbers; sending it is one
edit through the same path as every other (``EditBase._edit``: load, check control and the
Conflict's guard, the whole sheet checked by ``revise_character``, save once). The form's
custom id carries the character and the version it showed, so a sheet changed meanwhile is never
overwritten with the older numbers. A refused form answers with the reason and a button that
opens it again with what was picked (carried in the button's custom id), as the Hero builder
keeps a refused form's fields.
"""

import re
from typing import Any

import discord
from discord import app_commands

from bot import replies
from bot.client import Interaction, MistbornClient
from bot.cogs.characters.builder_screens import labels_label
from bot.cogs.characters.common import NAME_TO_CHANGE, load_to_change
from bot.cogs.characters.edit_parts import EditBase
from bot.errors import BotError, answer_error
from bot.forms import SentForm
from bot.inputs.characters import OwnCharacter
from bot.inputs.choices import WordChoice
from bot.render.common import plain
from bot.served import guild_id_of
from rules.character import Attribute, BuildLabels, Character, Emphasis, Standing, revise_character
from rules.errors import RulesError
from storage import StoredCharacter

PARTS: dict[str, tuple[type[Attribute] | type[Standing], int]] = {
    "attributes": (Attribute, 1),
    "standings": (Standing, 2),
}
"""Each part's ratings and its lowest rating (docs/rulings.md §6.1); the highest is 10."""
PICKS = r"(?P<picks>\d{1,2}-\d{1,2}-\d{1,2}):(?P<build>[a-z.]{4,22})"
FORM = r"mab:editform:(?P<character>\d{1,19}):(?P<part>attributes|standings):(?P<version>\d{1,19})"
AGAIN = FORM.replace("editform", "editagain") + ":" + PICKS
FORM_ID = re.compile(FORM)
NO_LABELS = "none"
LABELS = [
    BuildLabels(attributes=a, standings=s, powers=p)
    for a in Emphasis
    for s in Emphasis
    for p in Emphasis
    if len({a, s, p}) == 3
]
NOT_A_CHOICE = "That is not one of the choices."
PartChoice = app_commands.Transform[str, WordChoice({p: p for p in PARTS}, "part of the sheet")]


def labels_value(labels: BuildLabels | None) -> str:
    return (
        NO_LABELS
        if labels is None
        else f"{labels.attributes.value}.{labels.standings.value}.{labels.powers.value}"
    )


def labels_from(value: str) -> BuildLabels | None:
    if value == NO_LABELS:
        return None
    found = next((b for b in LABELS if labels_value(b) == value), None)
    if found is None:
        raise RulesError(NOT_A_CHOICE)
    return found


def ratings_form(stored: StoredCharacter, part: str, picks: tuple[int, ...], build: str) -> discord.ui.Modal:
    """The form: a menu per rating and one for the labels, opening at ``picks`` and ``build``."""
    names, low = PARTS[part]
    title = f"{part.capitalize()} of {stored.name}"
    form = discord.ui.Modal(
        title=title if len(title) <= 45 else part.capitalize(),
        custom_id=f"mab:editform:{stored.id}:{part}:{stored.version}",
        timeout=None,
    )
    for which, picked in zip(names, picks, strict=True):
        menu = discord.ui.Select[discord.ui.Modal](
            custom_id=which.value,
            required=True,
            options=[
                discord.SelectOption(label=str(n), value=str(n), default=n == picked) for n in range(low, 11)
            ],
        )
        form.add_item(discord.ui.Label(text=which.label, component=menu))
    labels = discord.ui.Select[discord.ui.Modal](
        custom_id="build",
        required=True,
        options=[
            discord.SelectOption(label="No labels", value=NO_LABELS, default=build == NO_LABELS),
            *(
                discord.SelectOption(
                    label=labels_label(b),
                    value=labels_value(b),
                    default=labels_value(b) == build,
                )
                for b in LABELS
            ),
        ],
    )
    form.add_item(
        discord.ui.Label(
            text="Strong, average and weak", description="How the sheet was built", component=labels
        )
    )
    form.stop()  # discord.py keeps nothing: every submission reaches the cog's listener
    return form


def current(character: Character, part: str) -> tuple[int, ...]:
    ratings = character.attributes if part == "attributes" else character.standings
    return tuple(getattr(ratings, which.value) for which in PARTS[part][0])


def picked(values: dict[str, str], part: str) -> tuple[int, ...]:
    """The ratings a submitted form carries, each one the menu offered."""
    names, low = PARTS[part]
    found = []
    for which in names:
        text = values.get(which.value, "")
        if not text.isdecimal() or not low <= int(text) <= 10:
            raise RulesError(NOT_A_CHOICE)
        found.append(int(text))
    return tuple(found)


async def open_again(interaction: Interaction, character_id: int, part: str, version: int, build: str,
                     picks: tuple[int, ...]) -> None:  # fmt: skip
    stored = await interaction.client.storage.characters.get(guild_id_of(interaction), character_id)
    if stored.version != version:
        raise BotError(f"{plain(stored.name)} changed since that form: run `/edit ratings` again.")
    await replies.send_modal(interaction, ratings_form(stored, part, picks, build))


class EditAgain(discord.ui.DynamicItem[discord.ui.Button[Any]], template=AGAIN):
    """The refused form's button: the form again, with what was picked."""

    def __init__(
        self, character_id: int, part: str, version: int, picks: tuple[int, ...], build: str
    ) -> None:
        joined = "-".join(str(p) for p in picks)
        super().__init__(
            discord.ui.Button(
                label="Open the form again",
                style=discord.ButtonStyle.primary,
                custom_id=f"mab:editagain:{character_id}:{part}:{version}:{joined}:{build}",
            )
        )
        self.args = (character_id, part, version, picks, build)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "EditAgain":
        picks = tuple(int(p) for p in match["picks"].split("-"))
        return cls(int(match["character"]), match["part"], int(match["version"]), picks, match["build"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        character_id, part, version, picks, build = self.args
        await open_again(interaction, character_id, part, version, build, picks)


class RatingsForm(EditBase):
    bot: MistbornClient

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(EditAgain)
        self.bot.forms.add(FORM_ID, self.form_sent)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(EditAgain)
        self.bot.forms.remove(FORM_ID)

    @app_commands.command(
        name="ratings", description="Set the three Attributes or Standings and the labels in a form"
    )
    @app_commands.describe(part="Attributes or Standings", name=NAME_TO_CHANGE)
    async def ratings(
        self, interaction: Interaction, part: PartChoice, name: OwnCharacter | None = None
    ) -> None:
        stored = await load_to_change(interaction, name, "edit their sheet", in_play=True)
        form = ratings_form(
            stored, part, current(stored.character, part), labels_value(stored.character.build)
        )
        await replies.send_modal(interaction, form)

    async def form_sent(self, interaction: Interaction, sent: SentForm) -> None:
        """A sent ratings form, saved; refused, it is offered again with what was picked."""
        found = sent.found
        character_id, part, version = int(found["character"]), found["part"], int(found["version"])
        values = sent.values
        try:
            await self._submitted(interaction, character_id, part, version, values)
        except (RulesError, BotError) as error:
            again = self._again(character_id, part, version, values)
            if again is None:
                await answer_error(interaction, error)
                return
            view = discord.ui.View(timeout=None)
            view.add_item(again)
            view.stop()
            text = (
                f"Not saved: {plain(str(error))} Nothing changed; open the form again to fix what you picked."
            )
            await replies.send(interaction, text, view=view, ephemeral=True)

    @staticmethod
    def _again(character_id: int, part: str, version: int, values: dict[str, str]) -> EditAgain | None:
        """The button reopening the form with what was picked; None for picks no menu offered."""
        try:
            picks = picked(values, part)
            labels_from(values.get("build", ""))
        except RulesError:
            return None
        return EditAgain(character_id, part, version, picks, values["build"])

    async def _submitted(
        self, interaction: Interaction, character_id: int, part: str, version: int, values: dict[str, str]
    ) -> None:
        stored = await interaction.client.storage.characters.get(guild_id_of(interaction), character_id)
        if stored.version != version:
            raise BotError(
                f"{plain(stored.name)} changed since this form opened: nothing was saved. "
                "Run `/edit ratings` again to see the sheet as it is now."
            )
        picks, build = picked(values, part), labels_from(values.get("build", ""))
        names = PARTS[part][0]
        ratings = {which.value: value for which, value in zip(names, picks, strict=True)}

        def edit(c: Character) -> Character:
            return revise_character(c, **{part: ratings}, build=None if build is None else build.model_dump())

        summary = " · ".join(f"{which.label} {value}" for which, value in zip(names, picks, strict=True))
        await self._edit(interaction, stored, edit, summary + ".", [part, "resiliences"], in_play=True)
