"""Characters: the sheet, and the rules that read and change it (docs/rulings.md §5, §6).

Everything is pure: each helper takes a frozen :class:`Character` and returns a new one (or a
result holding one). Bad input raises :class:`~rules.errors.RulesError` only.
"""

from rules.character.build_check import check_hero_build
from rules.character.burden_track import (
    add_burden,
    find_burden,
    remove_burden,
    set_burden_severity,
    step_down_burden,
    step_up_burden,
)
from rules.character.checked import make_character, revise_character
from rules.character.damage import DamageResult, apply_damage, wound_severity
from rules.character.model import Attributes, Character, Harm, Spent, Standings
from rules.character.names import (
    BASIC_METALS,
    METALS,
    Attribute,
    CharacterKind,
    DefeatCondition,
    Emphasis,
    PowerType,
    Resilience,
    Standing,
    StatKind,
)
from rules.character.parts import BuildLabels, Burden, Power, Prop, Traits
from rules.character.recovery import (
    BreatherKind,
    RecoveryResult,
    breather,
    daily_recovery,
    heal,
    long_breather,
    short_breather,
)
from rules.character.stats import (
    defeat_penalties,
    defeated_resiliences,
    effective_physique,
    find_stat,
    pewter_bonus,
    pewter_rating,
    rating_for,
    recover_standing,
    resilience_current,
    resilience_lost,
    resilience_max,
    rollable_names,
    spend_standing,
    standing_available,
    stat_kind,
)
from rules.character.text_budget import section_lengths, sheet_sections, user_text_length
from rules.character.transfer import SCHEMA_VERSION, export_character, import_character

__all__ = [
    "BASIC_METALS",
    "METALS",
    "SCHEMA_VERSION",
    "Attribute",
    "Attributes",
    "BreatherKind",
    "BuildLabels",
    "Burden",
    "Character",
    "CharacterKind",
    "DamageResult",
    "DefeatCondition",
    "Emphasis",
    "Harm",
    "Power",
    "PowerType",
    "Prop",
    "RecoveryResult",
    "Resilience",
    "Spent",
    "Standing",
    "Standings",
    "StatKind",
    "Traits",
    "add_burden",
    "apply_damage",
    "breather",
    "check_hero_build",
    "daily_recovery",
    "defeat_penalties",
    "defeated_resiliences",
    "effective_physique",
    "export_character",
    "find_burden",
    "find_stat",
    "heal",
    "import_character",
    "long_breather",
    "make_character",
    "pewter_bonus",
    "pewter_rating",
    "rating_for",
    "recover_standing",
    "remove_burden",
    "resilience_current",
    "resilience_lost",
    "resilience_max",
    "revise_character",
    "rollable_names",
    "section_lengths",
    "set_burden_severity",
    "sheet_sections",
    "short_breather",
    "spend_standing",
    "standing_available",
    "stat_kind",
    "step_down_burden",
    "step_up_burden",
    "user_text_length",
    "wound_severity",
]
