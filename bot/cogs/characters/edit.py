"""``/edit``: change any part of a sheet, one subcommand per part.

Each edit is checked as a whole sheet by ``revise_character`` (so a Standing lowered below
what is spent, or a Destiny on an Extra, is refused with the rules' own words) and saved once.
The reply is private: what changed, and for Heroes the Hero-build check's advice, which never
blocks an edit (Heroes outgrow the creation numbers through play).
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import require_narrator
from bot.cogs.characters.common import (
    NAME_TO_CHANGE,
    CharacterName,
    Interaction,
    ItemName,
    choices_of,
    extra_trait_choices,
    find_text,
    pick,
)
from bot.cogs.characters.edit_parts import PartEdits
from bot.errors import BotError
from bot.render.common import plain
from bot.sheets import own_character_choices
from rules.character import (
    Attribute,
    Character,
    CharacterKind,
    Emphasis,
    Standing,
    revise_character,
)
from rules.character.limits import name_key

if TYPE_CHECKING:
    from bot.app import MistbornBot

Choice = app_commands.Choice
TRAIT_SLOTS = ("drive", "profession", "specialty", "feature", "personality")
TEXT_FIELDS = ("concept", "destiny", "tragedy", "notes")


def labelled(values: Sequence[str]) -> list[Choice[str]]:
    return [Choice(name=v.capitalize(), value=v) for v in values]


@app_commands.guild_only()
class EditCommands(
    PartEdits, commands.GroupCog, group_name="edit", group_description="Change any part of a sheet"
):
    def __init__(self, bot: "MistbornBot") -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="attribute", description="Set Physique, Charm or Wits")
    @app_commands.describe(attribute="Which Attribute", value="The new rating, 1–10", name=NAME_TO_CHANGE)
    @app_commands.choices(attribute=choices_of(Attribute))
    @app_commands.autocomplete(name=own_character_choices)
    async def attribute(
        self,
        interaction: Interaction,
        attribute: str,
        value: app_commands.Range[int, 1, 10],
        name: CharacterName | None = None,
    ) -> None:
        which = pick(Attribute, attribute, "Attribute")

        def edit(c: Character) -> Character:
            return revise_character(c, attributes={**c.attributes.model_dump(), which.value: value})

        await self._edit(
            interaction, name, edit, f"{which.label} is now {value}.", ["attributes", "resiliences"]
        )

    @app_commands.command(name="standing", description="Set Resources, Influence or Spirit")
    @app_commands.describe(standing="Which Standing", value="The new rating, 2–10", name=NAME_TO_CHANGE)
    @app_commands.choices(standing=choices_of(Standing))
    @app_commands.autocomplete(name=own_character_choices)
    async def standing(
        self,
        interaction: Interaction,
        standing: str,
        value: app_commands.Range[int, 2, 10],
        name: CharacterName | None = None,
    ) -> None:
        which = pick(Standing, standing, "Standing")

        def edit(c: Character) -> Character:
            return revise_character(c, standings={**c.standings.model_dump(), which.value: value})

        await self._edit(
            interaction, name, edit, f"{which.label} is now {value}.", ["standings", "resiliences"]
        )

    @app_commands.command(
        name="trait", description="Set or clear Drive, Profession, Specialty, Feature or Personality"
    )
    @app_commands.describe(slot="Which Trait", text="The Trait (omit to clear it)", name=NAME_TO_CHANGE)
    @app_commands.choices(slot=labelled(TRAIT_SLOTS))
    @app_commands.autocomplete(name=own_character_choices)
    async def trait(
        self,
        interaction: Interaction,
        slot: str,
        text: app_commands.Range[str, 1, 60] | None = None,
        name: CharacterName | None = None,
    ) -> None:
        if slot not in TRAIT_SLOTS:
            raise BotError(f"'{slot[:20]}' is not a Trait; choose one of {', '.join(TRAIT_SLOTS)}.")

        def edit(c: Character) -> Character:
            return revise_character(c, traits={**c.traits.model_dump(), slot: text or ""})

        summary = f"**{slot.capitalize()}:** {plain(text)}" if text else f"{slot.capitalize()} cleared."
        await self._edit(interaction, name, edit, summary)

    @app_commands.command(name="trait-add", description="Add an extra Trait")
    @app_commands.describe(text="The Trait", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(name=own_character_choices)
    async def trait_add(
        self,
        interaction: Interaction,
        text: app_commands.Range[str, 1, 60],
        name: CharacterName | None = None,
    ) -> None:
        def edit(c: Character) -> Character:
            if any(name_key(t) == name_key(text) for t in c.traits.extras):
                raise BotError(f"{c.name} already has that Trait.")
            extras = (*c.traits.extras, text)
            return revise_character(c, traits={**c.traits.model_dump(), "extras": extras})

        await self._edit(interaction, name, edit, f"Added the Trait {plain(text)}.")

    @app_commands.command(name="trait-remove", description="Remove an extra Trait")
    @app_commands.describe(text="The extra Trait to remove", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(text=extra_trait_choices, name=own_character_choices)
    async def trait_remove(
        self, interaction: Interaction, text: ItemName, name: CharacterName | None = None
    ) -> None:
        def edit(c: Character) -> Character:
            index = find_text(c.traits.extras, text, "extra Trait", c.name)
            extras = c.traits.extras[:index] + c.traits.extras[index + 1 :]
            return revise_character(c, traits={**c.traits.model_dump(), "extras": extras})

        await self._edit(interaction, name, edit, f"Removed the Trait {plain(text)}.")

    @app_commands.command(name="text", description="Set or clear the concept, Destiny, Tragedy or notes")
    @app_commands.describe(
        field="Which text",
        value="The new text (omit to clear; in notes, \\n starts a new line)",
        name=NAME_TO_CHANGE,
    )
    @app_commands.choices(field=labelled(TEXT_FIELDS))
    @app_commands.autocomplete(name=own_character_choices)
    async def text(
        self,
        interaction: Interaction,
        field: str,
        value: app_commands.Range[str, 1, 600] | None = None,
        name: CharacterName | None = None,
    ) -> None:
        if field not in TEXT_FIELDS:
            raise BotError(f"'{field[:20]}' is not a text field; choose one of {', '.join(TEXT_FIELDS)}.")
        written = (value or "").replace("\\n", "\n") if field == "notes" else value or ""
        summary = (
            f"**{field.capitalize()}:** {plain(written)}" if written else f"{field.capitalize()} cleared."
        )
        await self._edit(interaction, name, lambda c: revise_character(c, **{field: written}), summary)

    @app_commands.command(name="build", description="Label Attributes, Standings, Powers strong/average/weak")
    @app_commands.describe(
        attributes="How the Attributes were built",
        standings="How the Standings were built",
        powers="How the Powers were built",
        name=NAME_TO_CHANGE,
    )
    @app_commands.choices(
        attributes=choices_of(Emphasis), standings=choices_of(Emphasis), powers=choices_of(Emphasis)
    )
    @app_commands.autocomplete(name=own_character_choices)
    async def build(
        self,
        interaction: Interaction,
        attributes: str | None = None,
        standings: str | None = None,
        powers: str | None = None,
        name: CharacterName | None = None,
    ) -> None:
        given = [attributes, standings, powers]
        if any(g is None for g in given) and any(g is not None for g in given):
            raise BotError(
                "Give all three labels (one strong, one average, one weak), or none to clear them."
            )
        labels = None
        if attributes and standings and powers:
            labels = {"attributes": attributes, "standings": standings, "powers": powers}
        summary = "Build labels set." if labels else "Build labels cleared."
        await self._edit(interaction, name, lambda c: revise_character(c, build=labels), summary)

    @app_commands.command(name="size", description="Extras: the group's size and how many are down")
    @app_commands.describe(
        size="Members in the group, 1–100", down="Members defeated so far", name=NAME_TO_CHANGE
    )
    @app_commands.autocomplete(name=own_character_choices)
    async def size(
        self,
        interaction: Interaction,
        size: app_commands.Range[int, 1, 100],
        down: app_commands.Range[int, 0, 100] | None = None,
        name: CharacterName | None = None,
    ) -> None:
        def edit(c: Character) -> Character:
            if not c.is_extra:
                raise BotError(f"Only Extras come in groups; {c.name} is a {c.kind.label}.")
            return revise_character(
                c, size=size, members_down=min(c.members_down, size) if down is None else down
            )

        def summary(c: Character) -> str:
            return f"Group of {c.size}, {c.members_left} standing."

        await self._edit(interaction, name, edit, summary, ["resiliences"])

    @app_commands.command(name="kind", description="Narrators: make a character a Hero, Villain or Extra")
    @app_commands.describe(kind="The new kind", name="The character to change (default: your active one)")
    @app_commands.choices(kind=choices_of(CharacterKind))
    @app_commands.autocomplete(name=own_character_choices)
    async def kind(self, interaction: Interaction, kind: str, name: CharacterName | None = None) -> None:
        await require_narrator(interaction, "change what kind of character someone is")
        chosen = pick(CharacterKind, kind, "kind of character")

        def edit(c: Character) -> Character:
            group = {} if chosen is CharacterKind.EXTRA else {"size": 1, "members_down": 0}
            return revise_character(c, kind=chosen, **group)

        await self._edit(interaction, name, edit, f"Now a {chosen.label}.")

    @app_commands.command(name="owner", description="Narrators: give a character to another member")
    @app_commands.describe(owner="The new owner", name="The character to give (default: your active one)")
    @app_commands.autocomplete(name=own_character_choices)
    async def owner(
        self, interaction: Interaction, owner: discord.Member, name: CharacterName | None = None
    ) -> None:
        await require_narrator(interaction, "give a character to another member")
        if owner.bot:
            raise BotError("A character belongs to a person, not a bot.")
        await self._edit(
            interaction,
            name,
            lambda c: revise_character(c, owner_id=owner.id),
            f"Now belongs to {owner.mention}.",
        )
