"""``/power``: Allomancy and Feruchemy outside a Conflict (docs/rulings.md §9.2–§9.5, §9.8).

A player burns, flares and stops metals, drinks vials, carries vials and metalminds, and stores;
the Narrator moves time on (burns pay, stores fill, Pewter heals), stores through a Breather, sets
reserves, makes metal impure, poisons, sets Pewter drag and drives spikes. In a live Conflict a
player's change goes through it (``bot.inputs.sheet_changes``). Each answers with what is in play.
"""

from discord import app_commands
from discord.ext import commands

from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.powers.flow import apply, unchanged
from bot.cogs.powers.sense import sense_allomancy
from bot.cogs.powers.spikes import spike_command
from bot.cogs.powers.table_time import move_table_time
from bot.errors import BotError
from bot.inputs.characters import OwnCharacter
from bot.inputs.choices import EnumChoice, WordChoice
from bot.inputs.powers import (
    SizeChoice,
    VialKind,
    allomantic_metals,
    any_metal,
    burning_metals,
    feruchemical_metals,
    vial_names,
    vial_prop,
)
from bot.inputs.sheet_changes import NAME_TO_CHANGE
from rules.character import Character
from rules.character.allomancy import RESERVE_MAX
from rules.character.checked import validated
from rules.character.feruchemy import MindSize
from rules.character.hemalurgy import Blessing
from rules.character.limits import PROP_NAME_MAX
from rules.character.metals import metal as find_metal
from rules.character.parts import Prop
from rules.powers.burning import set_flare, start_burn, stop_burn
from rules.powers.drinking import (
    add_prop,
    drink,
    poison,
    set_impure,
    set_reserve,
    set_vial_impure,
)
from rules.powers.feruchemy import start_storing, stop_storing, store_in_breather
from rules.powers.hemalurgy import set_blessing
from rules.powers.ledger import Changed
from rules.powers.metal_effects import make_savant
from rules.powers.pewter import set_drag
from rules.powers.time import MINUTES_MAX, move_time

MetalName = app_commands.Range[str, 1, 20]
Label = app_commands.Range[str, 1, PROP_NAME_MAX]
Minutes = app_commands.Range[int, 1, MINUTES_MAX]
Charges = app_commands.Range[int, 0, RESERVE_MAX]
MindCharges = app_commands.Range[int, 0, 500]
Rate = app_commands.Range[int, 1, 10]
WEEKS_MAX = 520
"""Weeks a spike may have waited outside a body: ten years, far past where it reaches 2."""
BreatherChoice = app_commands.Transform[
    str, WordChoice({"short": "short", "long": "long"}, "Breather", {"short": "Short", "long": "Long"})
]
BlessingChoice = app_commands.Transform[Blessing, EnumChoice(Blessing, "Blessing")]


def proper(name: str) -> str:
    return find_metal(name).name


@app_commands.guild_only()
class PowerCommands(
    commands.GroupCog,
    group_name="power",
    group_description="Powers in play: burning metals, vials, metalminds, the Narrator's time",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="burn", description="Start burning a metal (in a Conflict: /burn)")
    @app_commands.describe(
        metal="The metal", flare="Flare it from the start (+1 rating)", name=NAME_TO_CHANGE
    )
    @app_commands.autocomplete(metal=allomantic_metals)
    async def burn(
        self,
        interaction: Interaction,
        metal: MetalName,
        flare: bool = False,
        name: OwnCharacter | None = None,
    ) -> None:
        how = "flares" if flare else "burns"
        await apply(
            interaction,
            name,
            lambda c: start_burn(c, metal, flared=flare),
            lambda c: f"{c.name} {how} {proper(metal)}.",
        )

    @app_commands.command(name="flare", description="Flare a burning metal (+1 rating, ten times the burn)")
    @app_commands.describe(
        metal="A metal being burnt", flared="Flare it (false: let it down)", name=NAME_TO_CHANGE
    )
    @app_commands.autocomplete(metal=burning_metals)
    async def flare(
        self,
        interaction: Interaction,
        metal: MetalName,
        flared: bool = True,
        name: OwnCharacter | None = None,
    ) -> None:
        how = "flares" if flared else "lets down"
        await apply(
            interaction,
            name,
            lambda c: set_flare(c, proper(metal), flared),
            lambda c: f"{c.name} {how} {proper(metal)}.",
        )

    @app_commands.command(name="stop", description="Stop burning a metal")
    @app_commands.describe(metal="A metal being burnt", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(metal=burning_metals)
    async def stop(
        self, interaction: Interaction, metal: MetalName, name: OwnCharacter | None = None
    ) -> None:
        await apply(
            interaction,
            name,
            lambda c: stop_burn(c, metal),
            lambda c: f"{c.name} stops burning {proper(metal)}.",
        )

    @app_commands.command(name="drink", description="Drink a vial your sheet carries (no roll)")
    @app_commands.describe(vial="The vial (or nail, ring, nugget)", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(vial=vial_names)
    async def drink(self, interaction: Interaction, vial: Label, name: OwnCharacter | None = None) -> None:
        await apply(interaction, name, lambda c: drink(c, vial), lambda c: f"{c.name} drinks {vial}.")

    @app_commands.command(name="vial", description="Carry a vial, nail, ring or nugget of metal (a Prop)")
    @app_commands.describe(
        kind="What it is, and so what it holds",
        metal="Its metal (not for a Mistborn's vial)",
        label="Its name on the sheet (default: '<metal> vial')",
        name=NAME_TO_CHANGE,
    )
    @app_commands.autocomplete(metal=any_metal)
    async def vial(
        self,
        interaction: Interaction,
        kind: VialKind,
        metal: MetalName | None = None,
        label: Label | None = None,
        name: OwnCharacter | None = None,
    ) -> None:
        prop = vial_prop(kind, metal, label)
        await apply(
            interaction,
            name,
            unchanged(lambda c: add_prop(c, prop)),
            lambda c: f"{c.name} carries {prop.name}.",
        )

    @app_commands.command(
        name="metalmind", description="Carry a metalmind (a Prop): a Keeper's store of one metal"
    )
    @app_commands.describe(
        metal="Its metal",
        size="Small 25, average 100, large 200, huge 500 charges",
        label="Its name on the sheet (default: '<metal>mind')",
        charges="Narrators: charges already stored (default 0)",
        name=NAME_TO_CHANGE,
    )
    @app_commands.autocomplete(metal=any_metal)
    async def metalmind(
        self,
        interaction: Interaction,
        metal: MetalName,
        size: SizeChoice = MindSize.AVERAGE,
        label: Label | None = None,
        charges: MindCharges = 0,
        name: OwnCharacter | None = None,
    ) -> None:
        if charges:
            (await caller(interaction)).require_narrator("fill a metalmind outright")
        found = proper(metal)
        implement = {"kind": "metalmind", "metal": found, "size": size, "charges": charges}
        prop = validated(Prop, {"name": label or f"{found}mind", "implement": implement})
        await apply(
            interaction,
            name,
            unchanged(lambda c: add_prop(c, prop)),
            lambda c: f"{c.name} carries {prop.name}.",
        )

    @app_commands.command(name="store", description="Store a metal's attribute in a metalmind, by the hour")
    @app_commands.describe(
        metal="The metal",
        rate="Charges an hour (default: the most you can)",
        stop="Stop storing it",
        breather="Narrators: store through a Breather at once instead (10 or 30 hours' worth)",
        name=NAME_TO_CHANGE,
    )
    @app_commands.autocomplete(metal=feruchemical_metals)
    async def store(
        self,
        interaction: Interaction,
        metal: MetalName,
        rate: Rate | None = None,
        stop: bool = False,
        breather: BreatherChoice | None = None,
        name: OwnCharacter | None = None,
    ) -> None:
        def edit(character: Character) -> Changed:
            if stop:
                return Changed(character=stop_storing(character, metal))
            if breather is not None:
                return store_in_breather(character, metal, breather, rate)
            return Changed(character=start_storing(character, metal, rate))

        doing = "stops storing" if stop else f"stores through a {breather} Breather" if breather else "stores"
        gate = "store through a Breather (theirs to call)" if breather else None
        await apply(interaction, name, edit, lambda c: f"{c.name} {doing} {proper(metal)}.", narrator=gate)

    @app_commands.command(name="time", description="Narrators: move time on; burning metals pay, stores fill")
    @app_commands.describe(
        minutes="How long passes (1 minute to a week)",
        name="The character",
        everyone="For the whole table: the channel's Conflict's cast, else the Heroes at the table",
    )
    async def time(
        self,
        interaction: Interaction,
        minutes: Minutes,
        name: OwnCharacter | None = None,
        everyone: bool = False,
    ) -> None:
        if everyone:
            return await move_table_time(interaction, minutes, named=name is not None)
        await apply(
            interaction,
            name,
            lambda c: move_time(c, minutes),
            lambda c: f"{minutes} minutes pass for {c.name}.",
            narrator="move time on",
        )

    @app_commands.command(name="sense", description="Bronze: feel who burns what in the scene (privately)")
    @app_commands.describe(name="The Seeker (default: your active character)")
    async def sense(self, interaction: Interaction, name: OwnCharacter | None = None) -> None:
        await sense_allomancy(interaction, name)

    @app_commands.command(name="reserve", description="Narrators: set a metal's reserve outright (counts it)")
    @app_commands.describe(metal="The metal", charges="Charges held", name="The character")
    @app_commands.autocomplete(metal=any_metal)
    async def reserve(
        self, interaction: Interaction, metal: MetalName, charges: Charges, name: OwnCharacter | None = None
    ) -> None:
        await apply(
            interaction,
            name,
            lambda c: set_reserve(c, metal, charges),
            lambda c: f"{c.name} holds {charges} {proper(metal)}.",
            narrator="set a reserve",
        )

    @app_commands.command(name="impure", description="Narrators: make a reserve or an undrunk vial impure")
    @app_commands.describe(
        metal="The reserve's metal",
        vial="Or a vial not yet drunk",
        impure="Impure (false: pure again)",
        name="The character",
    )
    @app_commands.autocomplete(metal=any_metal, vial=vial_names)
    async def impure(
        self,
        interaction: Interaction,
        metal: MetalName | None = None,
        vial: Label | None = None,
        impure: bool = True,
        name: OwnCharacter | None = None,
    ) -> None:
        if (metal is None) == (vial is None):
            raise BotError("Name either a `metal` (a reserve) or a `vial`.")
        word = "impure" if impure else "pure"
        if vial is not None:
            await apply(
                interaction,
                name,
                unchanged(lambda c: set_vial_impure(c, vial, impure)),
                lambda c: f"{c.name}'s {vial} is {word}.",
                narrator="make metal impure",
            )
            return
        assert metal is not None
        await apply(
            interaction,
            name,
            unchanged(lambda c: set_impure(c, metal, impure)),
            lambda c: f"{c.name}'s {proper(metal)} is {word}.",
            narrator="make metal impure",
        )

    @app_commands.command(
        name="poison", description="Narrators: metal held unburnt 8 hours poisons (1 Health a charge)"
    )
    @app_commands.describe(metal="The metal", name="The character")
    @app_commands.autocomplete(metal=any_metal)
    async def poison(
        self, interaction: Interaction, metal: MetalName, name: OwnCharacter | None = None
    ) -> None:
        await apply(
            interaction,
            name,
            lambda c: poison(c, metal),
            lambda c: f"{c.name} is poisoned by {proper(metal)}.",
            narrator="poison a character",
        )

    @app_commands.command(name="spike", description="Narrators: drive a Hemalurgic spike, or tear one out")
    @app_commands.describe(
        metal="The spike's metal",
        victim="The victim's rating in the stolen Power: the spike holds it less 1 (at least 2)",
        weeks="Weeks the spike spent outside a body: 1 less each (at least 2)",
        rating="Or its rating outright, overriding the victim's",
        stolen="For a Steel, Bronze, Pewter or Brass spike: the metal of the Power it stole",
        remove="Tear out this character's spike of that metal instead (5 Health)",
        name="The character",
    )
    @app_commands.autocomplete(metal=any_metal, stolen=any_metal)
    async def spike(
        self,
        interaction: Interaction,
        metal: MetalName,
        victim: app_commands.Range[int, 1, 10] | None = None,
        weeks: app_commands.Range[int, 0, WEEKS_MAX] = 0,
        rating: app_commands.Range[int, 2, 10] | None = None,
        stolen: MetalName | None = None,
        remove: bool = False,
        name: OwnCharacter | None = None,
    ) -> None:
        await spike_command(interaction, name, metal, (rating, victim, weeks), stolen, remove)

    @app_commands.command(
        name="drag", description="Narrators: Pewter drag after 8 hours' exertion (Physique halved)"
    )
    @app_commands.describe(dragged="Dragged (false: lifted)", name="The character")
    async def drag(
        self, interaction: Interaction, dragged: bool = True, name: OwnCharacter | None = None
    ) -> None:
        word = "is in Pewter drag" if dragged else "is out of Pewter drag"
        await apply(
            interaction,
            name,
            unchanged(lambda c: set_drag(c, dragged)),
            lambda c: f"{c.name} {word}.",
            narrator="set Pewter drag",
        )

    @app_commands.command(name="blessing", description="Narrators: give a kandra a Blessing, or take it away")
    @app_commands.describe(blessing="The Blessing", held="Held (false: taken away)", name="The character")
    async def blessing(
        self,
        interaction: Interaction,
        blessing: BlessingChoice,
        held: bool = True,
        name: OwnCharacter | None = None,
    ) -> None:
        word = "is blessed with" if held else "loses"
        await apply(
            interaction,
            name,
            unchanged(lambda c: set_blessing(c, blessing, held)),
            lambda c: f"{c.name} {word} {blessing.label}.",
            narrator="give Blessings",
        )

    @app_commands.command(name="savant", description="Narrators: make a Misting a Savant of their metal (7+)")
    @app_commands.describe(
        metal="The metal, rated 7 or more", savant="A Savant (false: no longer)", name="The character"
    )
    @app_commands.autocomplete(metal=allomantic_metals)
    async def savant(
        self,
        interaction: Interaction,
        metal: MetalName,
        savant: bool = True,
        name: OwnCharacter | None = None,
    ) -> None:
        word = "is now" if savant else "is no longer"
        await apply(
            interaction,
            name,
            unchanged(lambda c: make_savant(c, proper(metal), savant)),
            lambda c: f"{c.name} {word} a {proper(metal)} Savant.",
            narrator="make Savants",
        )
