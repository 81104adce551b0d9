"""``/edit`` for the listed parts of a sheet: Powers, Stunts and Props.

A mixin of :class:`bot.cogs.characters.edit.EditCommands` (``CogMeta`` collects commands from
every class in the MRO), kept apart so each module stays short. :class:`EditBase` holds the
one path every edit takes: load, check control, pure change, save once, confirm privately.
"""

import re
from collections.abc import Callable, Sequence

from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.client import Interaction
from bot.cogs.characters.common import NAME_TO_CHANGE, change, with_power
from bot.inputs.characters import OwnCharacter
from bot.inputs.choices import PowerTypeChoice
from bot.inputs.powers import catalogue_stunts
from bot.inputs.sheet_parts import (
    find_power,
    find_text,
    metal_choices,
    power_choices,
    prop_choices,
    stunt_choices,
)
from bot.render.common import plain
from bot.render.sheet import change_embed
from rules.character import Character, PowerType, check_hero_build, revise_character
from rules.character.parts import rating_refusal
from rules.character.stunts import check_stunt
from rules.errors import RulesError
from storage import StoredCharacter

Summary = str | Callable[[Character], str]
ItemName = app_commands.Range[str, 1, 64]


def _kinds(advice: Sequence[str]) -> set[str]:
    """The build check's sentences with their numbers left out: "add up to 10" and "add up to
    12" are the same advice, "Physique runs from 2 to 6" is another."""
    return {re.sub(r"\d+", "#", line) for line in advice}


class EditBase(commands.Cog):
    async def _edit(
        self,
        interaction: Interaction,
        name: StoredCharacter | None,
        edit: Callable[[Character], Character],
        summary: Summary,
        sections: Sequence[str] = (),
        *,
        in_play: bool = False,
    ) -> None:
        """``in_play``: the part is one a Conflict reads (docs/rulings.md §7.4).

        The build check's advice is shown when this edit brought a new kind of problem (a
        sentence other than the ones before, numbers aside), and a word when the sheet matches
        a new Hero's build again; not after every edit, or a Hero who has outgrown the creation
        numbers would hear the same advice forever (docs/rulings.md §8.5).
        """
        before: list[Sequence[str]] = []

        def checked_edit(character: Character) -> Character:
            before.append(check_hero_build(character))
            return edit(character)

        saved = (await change(interaction, name, "edit their sheet", checked_edit, in_play=in_play)).character
        text = summary(saved) if callable(summary) else summary
        advice = check_hero_build(saved)
        had = before[0] if before else []
        if had and not advice:
            text += "\nIt matches a new Hero's build again."
        news = _kinds(advice) - _kinds(had)
        embed = change_embed(saved, text, sections=sections, warnings=advice if news else ())
        await replies.send(interaction, embed=embed, ephemeral=True)


RATING_HELP = "Its rating: Allomancy and kandra 2–10, Feruchemy and others 1–10"


def _check_rating(kind: PowerType, name: str, rating: int) -> None:
    """Allomancy and Mimicry start at 2 (docs/rulings.md §9.1): refused privately, like any edit."""
    if (why := rating_refusal(kind, name, rating)) is not None:
        raise RulesError(why)


class PartEdits(EditBase):
    @app_commands.command(name="power-add", description="Add a Power: a metal for Allomancy or Feruchemy")
    @app_commands.describe(
        power_type="Allomancy, Feruchemy, Hemalurgy, kandra or another Power",
        power="The metal (Allomancy, Feruchemy) or the Power's name",
        rating=RATING_HELP,
        name=NAME_TO_CHANGE,
    )
    @app_commands.rename(power_type="type")
    @app_commands.autocomplete(power=metal_choices)
    async def power_add(
        self,
        interaction: Interaction,
        power_type: PowerTypeChoice,
        power: app_commands.Range[str, 1, 24],
        rating: app_commands.Range[int, 1, 10],
        name: OwnCharacter | None = None,
    ) -> None:
        new = {"type": power_type.value, "name": power, "rating": rating}

        def edit(c: Character) -> Character:
            changed = revise_character(c, powers=(*c.powers, new))
            _check_rating(changed.powers[-1].type, changed.powers[-1].name, rating)
            return changed

        def summary(c: Character) -> str:
            return f"Added {plain(c.powers[-1].full_label)} {rating}."

        await self._edit(interaction, name, edit, summary, in_play=True)

    @app_commands.command(name="power-remove", description="Remove a Power and its Stunts")
    @app_commands.describe(power="The Power to remove", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(power=power_choices)
    async def power_remove(
        self, interaction: Interaction, power: ItemName, name: OwnCharacter | None = None
    ) -> None:
        def edit(c: Character) -> Character:
            index = find_power(c, power)
            return revise_character(c, powers=c.powers[:index] + c.powers[index + 1 :])

        await self._edit(interaction, name, edit, f"Removed {plain(power)}.", in_play=True)

    @app_commands.command(name="power-rating", description="Change a Power's rating")
    @app_commands.describe(power="The Power", rating=RATING_HELP, name=NAME_TO_CHANGE)
    @app_commands.autocomplete(power=power_choices)
    async def power_rating(
        self,
        interaction: Interaction,
        power: ItemName,
        rating: app_commands.Range[int, 1, 10],
        name: OwnCharacter | None = None,
    ) -> None:
        def edit(c: Character) -> Character:
            index = find_power(c, power)
            _check_rating(c.powers[index].type, c.powers[index].name, rating)
            changed = c.powers[index].model_copy(update={"rating": rating})
            return revise_character(c, powers=with_power(c, index, changed))

        await self._edit(interaction, name, edit, f"{plain(power)} is now {rating}.", in_play=True)

    @app_commands.command(name="stunt-add", description="Add a Stunt to a Power")
    @app_commands.describe(
        power="The Power", stunt="A Stunt of its metal, or your own words", name=NAME_TO_CHANGE
    )
    @app_commands.autocomplete(power=power_choices, stunt=catalogue_stunts)
    async def stunt_add(
        self,
        interaction: Interaction,
        power: ItemName,
        stunt: app_commands.Range[str, 1, 48],
        name: OwnCharacter | None = None,
    ) -> None:
        def edit(c: Character) -> Character:
            index = find_power(c, power)
            found = c.powers[index]
            check_stunt(found, stunt)
            changed = found.model_copy(update={"stunts": (*found.stunts, stunt)})
            return revise_character(c, powers=with_power(c, index, changed))

        await self._edit(interaction, name, edit, f"Added the Stunt {plain(stunt)} to {plain(power)}.")

    @app_commands.command(name="stunt-remove", description="Remove a Stunt from a Power")
    @app_commands.describe(power="The Power", stunt="The Stunt to remove", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(power=power_choices, stunt=stunt_choices)
    async def stunt_remove(
        self, interaction: Interaction, power: ItemName, stunt: ItemName, name: OwnCharacter | None = None
    ) -> None:
        def edit(c: Character) -> Character:
            index = find_power(c, power)
            found = c.powers[index]
            at = find_text(found.stunts, stunt, "Stunt", found.full_label)
            changed = found.model_copy(update={"stunts": found.stunts[:at] + found.stunts[at + 1 :]})
            return revise_character(c, powers=with_power(c, index, changed))

        await self._edit(interaction, name, edit, f"Removed the Stunt {plain(stunt)}.")

    @app_commands.command(name="prop-add", description="Add a Prop: gear, a weapon or armour")
    @app_commands.describe(
        prop="The Prop's name",
        weapon="Weapon damage bonus, 0–4",
        armour="Armour: 1 light, 2 mail, 3 plate",
        name=NAME_TO_CHANGE,
    )
    async def prop_add(
        self,
        interaction: Interaction,
        prop: app_commands.Range[str, 1, 48],
        weapon: app_commands.Range[int, 0, 4] | None = None,
        armour: app_commands.Range[int, 0, 3] | None = None,
        name: OwnCharacter | None = None,
    ) -> None:
        new = {"name": prop, "weapon": weapon, "armour": armour}

        def edit(c: Character) -> Character:
            return revise_character(c, props=(*c.props, new))

        await self._edit(interaction, name, edit, f"Added the Prop {plain(prop)}.", in_play=True)

    @app_commands.command(name="prop-remove", description="Remove a Prop")
    @app_commands.describe(prop="The Prop to remove", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(prop=prop_choices)
    async def prop_remove(
        self, interaction: Interaction, prop: ItemName, name: OwnCharacter | None = None
    ) -> None:
        def edit(c: Character) -> Character:
            index = find_text(tuple(p.name for p in c.props), prop, "Prop", c.name)
            return revise_character(c, props=c.props[:index] + c.props[index + 1 :])

        await self._edit(interaction, name, edit, f"Removed the Prop {plain(prop)}.", in_play=True)
