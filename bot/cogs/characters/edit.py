"""``/edit``: change any part of a sheet, one subcommand per part.

Each edit is checked as a whole sheet by ``revise_character`` (so a Standing lowered below
what is spent, or a Destiny on an Extra, is refused with the rules' own words) and saved once.
The reply is private: what changed, and for Heroes the Hero-build check's advice, which never
blocks an edit (Heroes outgrow the creation numbers through play). The parts a Conflict reads
(Attributes, Standings, Powers, Props, group size, kind) are guarded while the character is in a
live Conflict: a player's change is refused, a Narrator's goes through (docs/rulings.md §7.4).
"""

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.characters.common import NAME_TO_CHANGE, NOT_A_BOT
from bot.cogs.characters.edit_form import RatingsForm
from bot.cogs.characters.edit_parts import ItemName, PartEdits
from bot.errors import BotError
from bot.inputs.characters import OwnCharacter
from bot.inputs.choices import AttributeChoice, EmphasisChoice, KindChoice, StandingChoice, WordChoice
from bot.inputs.sheet_parts import extra_trait_choices, find_text
from bot.render.common import plain
from rules.character import Character, CharacterKind, revise_character
from rules.naming import name_key

TRAIT_SLOTS = ("drive", "profession", "specialty", "feature", "personality")
TEXT_FIELDS = ("concept", "destiny", "tragedy", "notes")
TraitSlot = app_commands.Transform[str, WordChoice({s: s for s in TRAIT_SLOTS}, "Trait")]
TextField = app_commands.Transform[str, WordChoice({f: f for f in TEXT_FIELDS}, "text field")]


@app_commands.guild_only()
class EditCommands(
    RatingsForm,
    PartEdits,
    commands.GroupCog,
    group_name="edit",
    group_description="Change any part of a sheet: ratings, Traits, Powers, Props, texts, kind, owner",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="attribute", description="Set Physique, Charm or Wits")
    @app_commands.describe(attribute="Which Attribute", value="The new rating, 1–10", name=NAME_TO_CHANGE)
    async def attribute(
        self,
        interaction: Interaction,
        attribute: AttributeChoice,
        value: app_commands.Range[int, 1, 10],
        name: OwnCharacter | None = None,
    ) -> None:
        which = attribute

        def edit(c: Character) -> Character:
            return revise_character(c, attributes={**c.attributes.model_dump(), which.value: value})

        await self._edit(
            interaction,
            name,
            edit,
            f"{which.label} is now {value}.",
            ["attributes", "resiliences"],
            in_play=True,
        )

    @app_commands.command(name="standing", description="Set Resources, Influence or Spirit")
    @app_commands.describe(standing="Which Standing", value="The new rating, 2–10", name=NAME_TO_CHANGE)
    async def standing(
        self,
        interaction: Interaction,
        standing: StandingChoice,
        value: app_commands.Range[int, 2, 10],
        name: OwnCharacter | None = None,
    ) -> None:
        which = standing

        def edit(c: Character) -> Character:
            return revise_character(c, standings={**c.standings.model_dump(), which.value: value})

        await self._edit(
            interaction,
            name,
            edit,
            f"{which.label} is now {value}.",
            ["standings", "resiliences"],
            in_play=True,
        )

    @app_commands.command(
        name="trait", description="Set or clear Drive, Profession, Specialty, Feature or Personality"
    )
    @app_commands.describe(slot="Which Trait", text="The Trait (omit to clear it)", name=NAME_TO_CHANGE)
    async def trait(
        self,
        interaction: Interaction,
        slot: TraitSlot,
        text: app_commands.Range[str, 1, 60] | None = None,
        name: OwnCharacter | None = None,
    ) -> None:
        def edit(c: Character) -> Character:
            return revise_character(c, traits={**c.traits.model_dump(), slot: text or ""})

        summary = f"**{slot.capitalize()}:** {plain(text)}" if text else f"{slot.capitalize()} cleared."
        await self._edit(interaction, name, edit, summary)

    @app_commands.command(name="trait-add", description="Add an extra Trait")
    @app_commands.describe(text="The Trait", name=NAME_TO_CHANGE)
    async def trait_add(
        self,
        interaction: Interaction,
        text: app_commands.Range[str, 1, 60],
        name: OwnCharacter | None = None,
    ) -> None:
        def edit(c: Character) -> Character:
            if any(name_key(t) == name_key(text) for t in c.traits.extras):
                raise BotError(f"{plain(c.name)} already has that Trait; add a different one.")
            extras = (*c.traits.extras, text)
            return revise_character(c, traits={**c.traits.model_dump(), "extras": extras})

        await self._edit(interaction, name, edit, f"Added the Trait {plain(text)}.")

    @app_commands.command(name="trait-remove", description="Remove an extra Trait")
    @app_commands.describe(text="The extra Trait to remove", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(text=extra_trait_choices)
    async def trait_remove(
        self, interaction: Interaction, text: ItemName, name: OwnCharacter | None = None
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
    async def text(
        self,
        interaction: Interaction,
        field: TextField,
        value: app_commands.Range[str, 1, 600] | None = None,
        name: OwnCharacter | None = None,
    ) -> None:
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
    async def build(
        self,
        interaction: Interaction,
        attributes: EmphasisChoice | None = None,
        standings: EmphasisChoice | None = None,
        powers: EmphasisChoice | None = None,
        name: OwnCharacter | None = None,
    ) -> None:
        given = [attributes, standings, powers]
        if any(g is None for g in given) and any(g is not None for g in given):
            raise BotError(
                "Give all three labels (one strong, one average, one weak), or none to clear them."
            )
        labels = None
        if attributes and standings and powers:
            labels = {"attributes": attributes.value, "standings": standings.value, "powers": powers.value}
        summary = "Build labels set." if labels else "Build labels cleared."
        await self._edit(interaction, name, lambda c: revise_character(c, build=labels), summary)

    @app_commands.command(name="size", description="Extras: the group's size and how many are down")
    @app_commands.describe(
        size="Members in the group, 1–100", down="Members defeated so far", name=NAME_TO_CHANGE
    )
    async def size(
        self,
        interaction: Interaction,
        size: app_commands.Range[int, 1, 100],
        down: app_commands.Range[int, 0, 100] | None = None,
        name: OwnCharacter | None = None,
    ) -> None:
        def edit(c: Character) -> Character:
            if not c.is_extra:
                raise BotError(
                    f"Only Extras come in groups; {plain(c.name)} is a {c.kind.label}. "
                    "Make them an Extra first with `/edit kind`."
                )
            return revise_character(
                c, size=size, members_down=min(c.members_down, size) if down is None else down
            )

        def summary(c: Character) -> str:
            return f"Group of {c.size}, {c.members_left} standing."

        await self._edit(interaction, name, edit, summary, ["resiliences"], in_play=True)

    @app_commands.command(name="kind", description="Narrators: make a character a Hero, Villain or Extra")
    @app_commands.describe(kind="The new kind", name="The character to change (default: your active one)")
    async def kind(
        self, interaction: Interaction, kind: KindChoice, name: OwnCharacter | None = None
    ) -> None:
        (await caller(interaction)).require_narrator("change what kind of character someone is")
        chosen = kind

        def edit(c: Character) -> Character:
            group = {} if chosen is CharacterKind.EXTRA else {"size": 1, "members_down": 0}
            return revise_character(c, kind=chosen, **group)

        await self._edit(interaction, name, edit, f"Now a {chosen.label}.", in_play=True)

    @app_commands.command(name="owner", description="Narrators: give a character to another member")
    @app_commands.describe(owner="The new owner", name="The character to give (default: your active one)")
    async def owner(
        self, interaction: Interaction, owner: discord.Member, name: OwnCharacter | None = None
    ) -> None:
        (await caller(interaction)).require_narrator("give a character to another member")
        if owner.bot:
            raise BotError(NOT_A_BOT)
        await self._edit(
            interaction,
            name,
            lambda c: revise_character(c, owner_id=owner.id),
            f"Now belongs to {owner.mention}.",
        )
