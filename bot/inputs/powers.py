"""Options of the Powers in play (docs/rulings.md §9): the metals a sheet burns or stores, its
vials and metalminds, and the fixed choices (a vial's form, a metalmind's size, what a tap buys).

Suggestions read the sheet of the ``name`` (or ``character``) option, else the caller's active
one (``bot.inputs.sheet_parts.sheet_in_option``)."""

from discord import app_commands

from bot.client import Interaction
from bot.errors import BotError
from bot.inputs.characters import SUGGESTIONS
from bot.inputs.choices import EnumChoice, WordChoice
from bot.inputs.sheet_parts import find_power, matching, sheet_in_option
from rules.character import BASIC_METALS, METALS, Character, PowerType
from rules.character.allomancy import Vial, VialForm
from rules.character.feruchemy import Metalmind, MindSize
from rules.character.metals import metal as metal_named
from rules.character.parts import Prop
from rules.character.power_stats import sheet_powers
from rules.character.stunts import CATALOGUE, Stunt, stunts_for
from rules.naming import name_matches
from rules.powers.drinking import make_vial
from rules.powers.feruchemy import TapUse

Choice = app_commands.Choice
SHEET_OPTIONS = ("name", "character")

VIAL_KINDS = {
    "misting": "A Misting's vial: 3 charges of one metal",
    "mistborn": "A Mistborn's vial: 1 charge of each basic metal",
    "nail": "A nail: 2 charges",
    "ring": "A ring: 2 charges",
    "nugget": "A nugget: 4 charges",
}
VialKind = app_commands.Transform[str, WordChoice({k: k for k in VIAL_KINDS}, "vial", VIAL_KINDS)]
SizeChoice = app_commands.Transform[MindSize, EnumChoice(MindSize, "metalmind size")]
TapUseChoice = app_commands.Transform[
    TapUse,
    WordChoice(
        {u.value: u for u in TapUse},
        "tap",
        {
            "effect": "The metal's effect (dice, mostly)",
            "nudges": "A Nudge for every 5 charges",
            "outcome": "+1 Outcome for every 10 charges",
            "wits": "Zinc or Bronze, on /declare: +1 Wits a charge in next round's declaring order",
        },
    ),
]


TapMetal = app_commands.Range[str, 1, 20]
"""The metal of a metalmind to tap, on a roll or a Conflict action (docs/rulings.md §9.4)."""
TapCharges = app_commands.Range[int, 1, 100]
"""Charges tapped at once (the sheet's 10 × rating is the rule's check)."""
TAP_DESCRIPTIONS = {
    "tap": "Feruchemy: tap this metal's metalmind for the roll (declared before it)",
    "tap_charges": "Charges to tap (at most 10 × the rating; spent even on a failure)",
    "tap_for": "What it buys (default: the metal's effect; a Nudge per 5, +1 Outcome per 10, or wits)",
}
"""One wording for a tap's options, on ``/roll`` and on a Conflict's ``/declare`` and ``/switch``."""


def metals_of(character: Character, kind: PowerType) -> list[str]:
    """The metals ``character`` has as Powers of ``kind`` (a spike's included), in table order."""
    held = {p.name for p in sheet_powers(character) if p.type is kind}
    return [m for m in METALS if m in held]


async def allomantic_metals(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, *SHEET_OPTIONS)
    return matching(metals_of(sheet, PowerType.ALLOMANCY), current) if sheet else []


async def burning_metals(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, *SHEET_OPTIONS)
    return matching(sheet.allomancy.burning, current) if sheet else []


async def feruchemical_metals(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, *SHEET_OPTIONS)
    return matching(metals_of(sheet, PowerType.FERUCHEMY), current) if sheet else []


async def any_metal(interaction: Interaction, current: str) -> list[Choice[str]]:
    return matching(METALS, current)


async def vial_names(interaction: Interaction, current: str) -> list[Choice[str]]:
    """The vials on the sheet not yet drunk."""
    sheet = await sheet_in_option(interaction, *SHEET_OPTIONS)
    if sheet is None:
        return []
    fresh = [p.name for p in sheet.props if isinstance(p.implement, Vial) and not p.implement.used]
    return matching(fresh, current)


async def metalmind_metals(interaction: Interaction, current: str) -> list[Choice[str]]:
    """The metals of the sheet's metalminds."""
    sheet = await sheet_in_option(interaction, *SHEET_OPTIONS)
    if sheet is None:
        return []
    return matching((p.implement.metal for p in sheet.props if isinstance(p.implement, Metalmind)), current)


async def catalogue_stunts(interaction: Interaction, current: str) -> list[Choice[str]]:
    """The catalogue's Stunts of the chosen Power's metal (every one when none is chosen yet),
    "Name — what it does"; whatever is typed that is not in it stays a free Stunt (§9.7)."""
    sheet = await sheet_in_option(interaction, *SHEET_OPTIONS)
    typed = getattr(interaction.namespace, "power", None)
    listed: tuple[Stunt, ...] = CATALOGUE
    if sheet is not None and isinstance(typed, str) and typed.strip():
        try:
            power = sheet.powers[find_power(sheet, typed)]
        except BotError:
            power = None
        if power is not None:
            listed = stunts_for(power.name) if power.type is PowerType.ALLOMANCY else ()
    found = [s for s in listed if name_matches(current, s.name)]
    return [Choice(name=f"{s.name} — {s.does}"[:100], value=s.name) for s in found[:SUGGESTIONS]]


FORMS = {"misting": VialForm.VIAL, "mistborn": VialForm.VIAL, "nail": VialForm.NAIL}
FORMS |= {"ring": VialForm.RING, "nugget": VialForm.NUGGET}


def vial_prop(kind: str, metal: str | None, label: str | None) -> Prop:
    """The Prop ``/power vial`` adds: a Mistborn's holds every basic metal, the rest one."""
    if kind == "mistborn":
        return make_vial(label or "Mistborn vial", VialForm.VIAL, BASIC_METALS)
    if metal is None:
        raise BotError(f"Say which metal the {kind} holds (`metal:`).")
    found = metal_named(metal).name
    shown = "vial" if kind == "misting" else kind
    return make_vial(label or f"{found} {shown}", FORMS[kind], (found,))
