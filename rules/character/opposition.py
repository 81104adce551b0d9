"""Quick opposition: Villains and Extras made whole from a template (docs/rulings.md §6.11).

The ratings are our own examples, written to be changed: a Narrator makes a Thug in one
command and adjusts it with ``/edit``, or gives ratings, a concept or a group size with the
command itself, which win over the template's. The Powers follow the published game where it
gives numbers (a Misting's metal at 5, a Keeper's metals at 3, a kandra's Mimicry 5 and one
Blessing, four Iron spikes making a koloss, each a spike of its own as ``/power spike`` drives
one); the rest is marked ours in §6.11.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.character.checked import make_character
from rules.character.creation import PowerTemplate, Split, template_implements
from rules.character.model import Character
from rules.character.names import BASIC_METALS, Attribute, CharacterKind, PowerType, Standing
from rules.character.parts import Power, Prop


class Opposition(StrEnum):
    THUG = "thug"
    GUARDS = "guards"
    OBLIGATOR = "obligator"
    INQUISITOR = "inquisitor"
    COINSHOT = "coinshot"
    LURCHER = "lurcher"
    SOOTHER = "soother"
    TINEYE = "tineye"
    PEWTERARM = "pewterarm"
    RIOTER = "rioter"
    SMOKER = "smoker"
    SEEKER = "seeker"
    KOLOSS = "koloss"
    KANDRA = "kandra"
    STEWARD = "steward"


@dataclass(frozen=True)
class OppositionTemplate:
    """One template: what it is, its ratings, Powers, Props and Traits."""

    label: str
    kind: CharacterKind
    concept: str
    attributes: Split
    standings: Split
    size: int = 1
    powers: tuple[Power, ...] = ()
    props: tuple[Prop, ...] = ()
    traits: Mapping[str, Any] = field(default_factory=dict)
    allomancy: Mapping[str, Any] = field(default_factory=dict)
    """What burns and the reserves held when the template is made (docs/rulings.md §9.2)."""
    hemalurgy: Mapping[str, Any] = field(default_factory=dict)


def _misting(metal: str, rating: int) -> tuple[Power, ...]:
    return (Power(type=PowerType.ALLOMANCY, name=metal, rating=rating),)


def _vial(metal: str) -> Prop:
    """A Misting's vial: 3 charges of its metal (§9.8)."""
    implement = {"kind": "vial", "metals": (metal,), "charges": 3}
    return Prop.model_validate({"name": f"{metal} vial", "implement": implement})


def _metalmind(name: str, metal: str, charges: int) -> Prop:
    """An average metalmind (a Prop's size, §9.8) holding ``charges`` of ``metal``."""
    implement = {"kind": "metalmind", "metal": metal, "size": "average", "charges": charges}
    return Prop.model_validate({"name": name, "implement": implement})


def _held(metal: str, burning: bool = False) -> dict[str, Any]:
    """A Misting who has drunk a vial (3 counted charges), burning it already or not."""
    return {
        "tracked": True,
        "reserves": ({"metal": metal, "charges": 3},),
        "burning": (metal,) if burning else (),
    }


MISTBORN_HELD: dict[str, Any] = {
    "tracked": True,
    "reserves": tuple({"metal": m, "charges": 1} for m in BASIC_METALS),
}
"""A Mistborn who has drunk a Mistborn's vial: 1 counted charge of each basic metal (§9.8)."""
STEWARD_MEMORIES = 50
"""What the steward's Copper bracers hold when made: half an average metalmind (our number)."""


TEMPLATES: dict[Opposition, OppositionTemplate] = {
    Opposition.THUG: OppositionTemplate(
        label="Thug",
        kind=CharacterKind.EXTRA,
        concept="Hired muscle from the docks",
        attributes=(4, 2, 2),
        standings=(2, 2, 2),
        props=(Prop(name="Cudgel", weapon=1),),
        traits={"extras": ("Brawler",)},
    ),
    Opposition.GUARDS: OppositionTemplate(
        label="Guard group",
        kind=CharacterKind.EXTRA,
        concept="A watch of house guards",
        attributes=(3, 2, 3),
        standings=(3, 3, 2),
        size=4,
        props=(Prop(name="Spear", weapon=2), Prop(name="Leather jerkin", armour=1)),
        traits={"extras": ("Drilled", "Loyal to the house")},
    ),
    Opposition.OBLIGATOR: OppositionTemplate(
        label="Obligator",
        kind=CharacterKind.VILLAIN,
        concept="Obligator of the Steel Ministry",
        attributes=(2, 4, 5),
        standings=(5, 6, 4),
        powers=(Power(type=PowerType.ALLOMANCY, name="Bronze", rating=4),),
        props=(_vial("Bronze"),),
        allomancy=_held("Bronze"),
        traits={
            "drive": "Keep the Lord Ruler's order",
            "profession": "Obligator",
            "specialty": "Contracts and witnessing",
            "personality": "Coldly proper",
        },
    ),
    Opposition.INQUISITOR: OppositionTemplate(
        label="Steel Inquisitor",
        kind=CharacterKind.VILLAIN,
        concept="Steel Inquisitor, hunter of skaa Mistings",
        attributes=(6, 3, 5),
        standings=(6, 7, 6),
        powers=tuple(Power(type=PowerType.ALLOMANCY, name=metal, rating=6) for metal in BASIC_METALS),
        props=(Prop(name="Obsidian axe", weapon=3), *template_implements(PowerTemplate.MISTBORN)),
        allomancy=MISTBORN_HELD,
        hemalurgy={"spikes": ({"metal": "Steel", "power": "Steel", "rating": 5},)},
        traits={
            "drive": "Purge the Mistings",
            "profession": "Steel Inquisitor",
            "feature": "Spikes through the eyes",
            "personality": "Patient and cruel",
        },
    ),
    Opposition.COINSHOT: OppositionTemplate(
        label="Coinshot",
        kind=CharacterKind.EXTRA,
        concept="A noble house's Coinshot",
        attributes=(3, 2, 3),
        standings=(3, 3, 2),
        powers=_misting("Steel", 5),
        props=(Prop(name="Pouch of coins", weapon=1), _vial("Steel")),
        traits={"extras": ("Lands on rooftops",)},
        allomancy=_held("Steel"),
    ),
    Opposition.LURCHER: OppositionTemplate(
        label="Lurcher",
        kind=CharacterKind.EXTRA,
        concept="A Lurcher who pulls the weapons from their hands",
        attributes=(3, 2, 3),
        standings=(3, 2, 3),
        powers=_misting("Iron", 5),
        props=(Prop(name="Iron-tipped rope", weapon=1), _vial("Iron")),
        traits={"extras": ("Steady anchor",)},
        allomancy=_held("Iron"),
    ),
    Opposition.SOOTHER: OppositionTemplate(
        label="Soother",
        kind=CharacterKind.VILLAIN,
        concept="A Ministry Soother who calms crowds",
        attributes=(2, 5, 4),
        standings=(4, 5, 4),
        powers=_misting("Brass", 5),
        props=(_vial("Brass"),),
        traits={
            "drive": "Keep the crowd quiet",
            "profession": "Soother",
            "specialty": "Dampening anger",
            "personality": "Soft-spoken",
        },
        allomancy=_held("Brass"),
    ),
    Opposition.TINEYE: OppositionTemplate(
        label="Tineye",
        kind=CharacterKind.EXTRA,
        concept="A Tineye lookout who hears every step",
        attributes=(2, 2, 5),
        standings=(2, 3, 3),
        powers=_misting("Tin", 5),
        props=(_vial("Tin"),),
        traits={"extras": ("Sharp ears",)},
        allomancy=_held("Tin", burning=True),
    ),
    Opposition.PEWTERARM: OppositionTemplate(
        label="Thug who burns Pewter",
        kind=CharacterKind.EXTRA,
        concept="A Pewterarm enforcer",
        attributes=(4, 2, 2),
        standings=(2, 2, 2),
        powers=_misting("Pewter", 4),
        props=(Prop(name="Cudgel", weapon=1), _vial("Pewter")),
        traits={"extras": ("Brawler",)},
        allomancy=_held("Pewter", burning=True),
    ),
}


MISTING_RATING = 5
"""A Misting's one metal (docs/rulings.md §6)."""
MISTINGS: tuple[tuple[Opposition, str, str, str, Split], ...] = (
    (Opposition.COINSHOT, "Coinshot", "Steel", "A Coinshot enforcer who Pushes coins", (3, 2, 4)),
    (Opposition.LURCHER, "Lurcher", "Iron", "A Lurcher who Pulls weapons from hands", (3, 2, 4)),
    (Opposition.TINEYE, "Tineye", "Tin", "A Tineye sentry with senses like a hound's", (2, 2, 5)),
    (Opposition.PEWTERARM, "Pewterarm", "Pewter", "A Pewterarm bruiser of a noble house", (4, 2, 3)),
    (Opposition.SOOTHER, "Soother", "Brass", "A Soother who dampens a crowd's anger", (2, 5, 3)),
    (Opposition.RIOTER, "Rioter", "Zinc", "A Rioter who inflames a room", (2, 5, 3)),
    (Opposition.SMOKER, "Smoker", "Copper", "A Smoker hiding a crew's Allomancy", (2, 3, 4)),
    (Opposition.SEEKER, "Seeker", "Bronze", "A Seeker of the Steel Ministry", (2, 3, 5)),
)
"""The eight Mistings of the basic metals (docs/rulings.md §7.3): those not drawn above in full
are each a Villain whose one metal is at :data:`MISTING_RATING`, with a vial drunk; the other
ratings are our own."""
for _kind, _label, _metal, _concept, _attributes in MISTINGS:
    TEMPLATES.setdefault(
        _kind,
        OppositionTemplate(
            label=_label,
            kind=CharacterKind.VILLAIN,
            concept=_concept,
            attributes=_attributes,
            standings=(3, 3, 3),
            powers=_misting(_metal, MISTING_RATING),
            props=(_vial(_metal),),
            traits={"profession": _label},
            allomancy=_held(_metal),
        ),
    )
KOLOSS_SPIKES = 4
"""Four Iron spikes make a koloss (§9.5): +5 dice on strength, and 4 Charm and 4 Spirit taken
where the stats are read, so the sheet's 5 and 6 read as Charm 1 and Spirit 2."""
TEMPLATES[Opposition.KOLOSS] = OppositionTemplate(
    label="Koloss group",
    kind=CharacterKind.EXTRA,
    concept="Koloss: blue-skinned giants made by four Iron spikes",
    attributes=(7, 1 + KOLOSS_SPIKES, 1),
    standings=(2, 2, 2 + KOLOSS_SPIKES),
    size=3,
    props=(Prop(name="Koloss sword", weapon=3),),
    hemalurgy={"spikes": tuple({"metal": "Iron"} for _ in range(KOLOSS_SPIKES))},
    traits={"extras": ("Bloodlust", "Skin that splits as they grow")},
)
TEMPLATES[Opposition.KANDRA] = OppositionTemplate(
    label="Kandra",
    kind=CharacterKind.VILLAIN,
    concept="A kandra wearing a stolen body",
    attributes=(3, 4, 4),
    standings=(3, 4, 5),
    powers=(Power(type=PowerType.KANDRA, name="Mimicry", rating=5),),
    props=(Prop(name="Bones of a courtier"),),
    hemalurgy={"blessings": ("potency",)},
    traits={"drive": "Serve the Contract", "feature": "Translucent muscle beneath the skin"},
)
TEMPLATES[Opposition.STEWARD] = OppositionTemplate(
    label="Terris steward",
    kind=CharacterKind.VILLAIN,
    concept="A Terris steward who keeps a noble house's memory",
    attributes=(2, 4, 5),
    standings=(4, 5, 4),
    powers=tuple(Power(type=PowerType.FERUCHEMY, name=metal, rating=3) for metal in BASIC_METALS),
    props=(_metalmind("Copper bracers", "Copper", STEWARD_MEMORIES),),
    traits={"profession": "Steward", "personality": "Unfailingly courteous", "extras": ("Terris",)},
)


def opposition_character(
    template: Opposition,
    *,
    name: str,
    owner_id: int,
    concept: str | None = None,
    size: int | None = None,
    ratings: Mapping[Attribute | Standing, int] | None = None,
) -> Character:
    """A Villain or Extra from ``template``; ``concept``, ``size`` and ``ratings`` replace the
    template's. A size on a Villain is refused by the sheet's own rule (only Extras are groups)."""
    made = TEMPLATES[template]
    chosen = dict(ratings or {})
    attributes = {a.value: chosen.get(a, value) for a, value in zip(Attribute, made.attributes, strict=True)}
    standings = {s.value: chosen.get(s, value) for s, value in zip(Standing, made.standings, strict=True)}
    return make_character(
        name=name,
        kind=made.kind,
        owner_id=owner_id,
        concept=made.concept if concept is None else concept,
        size=made.size if size is None else size,
        attributes=attributes,
        standings=standings,
        powers=[p.model_dump() for p in made.powers],
        props=[p.model_dump() for p in made.props],
        traits=dict(made.traits),
        allomancy=dict(made.allomancy),
        hemalurgy=dict(made.hemalurgy),
    )
