"""A Hero in the making: what the guided builder has gathered so far (docs/rulings.md §6.10).

The builder walks the creation order of :class:`Step`; each step fills one part of a
:class:`HeroDraft` through a pure function here, which refuses what a new Hero cannot have
(a split that is not one of ``rules.character.creation``'s, more Props than Resources).
:func:`still_to_do` says what is missing, and :func:`finish` turns a complete draft into the
:class:`~rules.character.model.Character` to save. A draft is never a character: it is kept
apart until finished, so it never shows in lists or Conflicts.
"""

from collections.abc import Collection, Mapping
from datetime import timedelta
from enum import StrEnum
from typing import Self

from pydantic import BaseModel, ConfigDict, StrictInt, ValidationInfo, field_validator, model_validator

from rules.character import limits as lim
from rules.character.checked import make_character, validated
from rules.character.creation import (
    MISTING_METALS,
    TRAITS_WITHOUT_POWERS,
    PowerTemplate,
    Split,
    attribute_splits,
    check_misting_stunt,
    misting_stunts,
    standing_splits,
    template_implements,
    template_powers,
)
from rules.character.hemalurgy import Blessing
from rules.character.model import Character
from rules.character.names import CharacterKind, canonical_metal
from rules.character.parts import BuildLabels, Power, Prop, Traits
from rules.errors import RulesError

KEPT_FOR = timedelta(days=7)
"""A draft nobody touched for this long is removed (docs/rulings.md §6.10)."""
TRAIT_SLOTS = ("drive", "profession", "specialty", "feature", "personality")
TYPED_FIELDS = 16
TYPED_MAX = 1000
"""A refused form's text kept for it to open with: at most this many fields, this long each."""


class Step(StrEnum):
    """The creation order (docs/rulings.md §6.10): one screen of the builder each."""

    CONCEPT = "concept"
    LABELS = "labels"
    RATINGS = "ratings"
    POWERS = "powers"
    TRAITS = "traits"
    STORY = "story"
    REVIEW = "review"

    @property
    def number(self) -> int:
        return list(Step).index(self) + 1

    @property
    def previous(self) -> "Step":
        return list(Step)[max(0, self.number - 2)]

    @property
    def following(self) -> "Step":
        return list(Step)[min(len(Step) - 1, self.number)]


class PowerChoice(BaseModel):
    """A Power template, with the metal of a Misting and the one Stunt a Misting may start with
    (optional, from the catalogue of its metal, docs/rulings.md §9.7), or a kandra's one
    Blessing (§9.6)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    template: PowerTemplate
    metal: str | None = None
    stunt: str | None = None
    blessing: Blessing | None = None

    @model_validator(mode="after")
    def _metal(self) -> Self:
        if (self.template is PowerTemplate.MISTING) != (self.metal is not None):
            raise lim.problem("A Misting names one metal, and only a Misting does.")
        if (self.template is PowerTemplate.KANDRA) != (self.blessing is not None):
            raise lim.problem("A kandra starts with one Blessing, and only a kandra does.")
        if self.metal is not None and self.metal not in MISTING_METALS:
            raise lim.problem(f"A Misting burns one of {', '.join(MISTING_METALS)}.")
        if self.stunt is not None and (self.metal is None or self.stunt not in misting_stunts(self.metal)):
            raise lim.problem("A Misting starts with one Stunt of its own metal, from the catalogue.")
        return self

    @property
    def label(self) -> str:
        if self.template is PowerTemplate.MISTING:
            return f"{self.metal} Misting"
        if self.blessing is not None:
            return f"Kandra, Blessing of {self.blessing.value.capitalize()}"
        return self.template.label

    @property
    def powers(self) -> tuple[Power, ...]:
        return template_powers(self.template, self.metal, self.stunt)


def power_choice(template: PowerTemplate, metal: str | None = None) -> PowerChoice:
    """A checked :class:`PowerChoice`; the metal as typed in any case. For a kandra ``metal``
    is the Blessing's name instead (the builder's one choice of a template's detail)."""
    if template is PowerTemplate.KANDRA:
        return validated(PowerChoice, {"template": template, "blessing": (metal or "").lower() or None})
    found = canonical_metal(metal) if metal is not None else None
    return validated(PowerChoice, {"template": template, "metal": found or metal})


_TEXTS = {
    "name": ("The name", lim.NAME_MAX, True),
    "concept": ("The concept", lim.CONCEPT_MAX, False),
    "destiny": ("The Destiny", lim.DESTINY_MAX, False),
    "tragedy": ("The Tragedy", lim.TRAGEDY_MAX, False),
}


class HeroDraft(BaseModel):
    """Everything chosen so far, and the step the builder shows. Each part is checked as the
    sheet would check it, and the splits against the labels, so a stored draft always reads."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    owner_id: StrictInt
    step: Step = Step.CONCEPT
    concept: str = ""
    labels: BuildLabels | None = None
    attributes: tuple[StrictInt, StrictInt, StrictInt] | None = None
    standings: tuple[StrictInt, StrictInt, StrictInt] | None = None
    powers: PowerChoice | None = None
    traits: Traits = Traits()
    destiny: str = ""
    tragedy: str = ""
    props: tuple[Prop, ...] = ()
    typed: dict[str, str] = {}
    """What the player typed in a form the rules refused, by field, so that the form opens again
    with it (docs/rulings.md §6.10); a form accepted drops its own fields."""

    @field_validator("typed")
    @classmethod
    def _typed(cls, value: dict[str, str]) -> dict[str, str]:
        if len(value) > TYPED_FIELDS or any(len(k) > 20 or len(v) > TYPED_MAX for k, v in value.items()):
            raise lim.problem("A form keeps at most a few fields of typed text.")
        return value

    @field_validator(*_TEXTS)
    @classmethod
    def _text(cls, value: str, info: ValidationInfo) -> str:
        what, limit, required = _TEXTS[str(info.field_name)]
        return lim.clean_text(value, what, limit, required=required)

    @model_validator(mode="after")
    def _splits(self) -> Self:
        if not 0 <= self.owner_id <= lim.OWNER_ID_MAX:
            raise lim.problem("The owner must be a Discord user id.")
        if self.attributes is not None and (
            self.labels is None or self.attributes not in attribute_splits(self.labels.attributes)
        ):
            raise lim.problem("Those Attributes are not a split of the Attributes' label.")
        if self.standings is not None and (
            self.labels is None or self.standings not in standing_splits(self.labels.standings)
        ):
            raise lim.problem("Those Standings are not a split of the Standings' label.")
        if len(self.props) > lim.PROPS_MAX:
            raise lim.problem(f"A sheet holds at most {lim.PROPS_MAX} Props.")
        return self

    @property
    def without_powers(self) -> bool:
        return self.powers is not None and self.powers.template is PowerTemplate.NONE

    @property
    def props_allowed(self) -> int:
        """A new Hero has no more Props than Resources (§6.3); before the split, the sheet's cap."""
        return self.standings[0] if self.standings is not None else lim.PROPS_MAX


def new_draft(name: str, owner_id: int) -> HeroDraft:
    """The empty draft of a Hero called ``name``, at the first step."""
    return validated(HeroDraft, {"name": name, "owner_id": owner_id})


def _revised(draft: HeroDraft, **changes: object) -> HeroDraft:
    data = draft.model_dump()
    data.update(changes)
    return validated(HeroDraft, data)


def typed_kept(draft: HeroDraft, values: Mapping[str, str]) -> HeroDraft:
    """The draft keeping ``values``, typed in a form the rules refused, for the form to open
    with again (each clipped to what a form field holds)."""
    typed = {**draft.typed, **{k[:20]: v[:TYPED_MAX] for k, v in values.items()}}
    return _revised(draft, typed=dict(list(typed.items())[-TYPED_FIELDS:]))


def typed_dropped(draft: HeroDraft, fields: Collection[str]) -> HeroDraft:
    """The draft without the typed text of ``fields`` (their form was accepted)."""
    if not any(field in draft.typed for field in fields):
        return draft
    return _revised(draft, typed={k: v for k, v in draft.typed.items() if k not in fields})


def at_step(draft: HeroDraft, step: Step) -> HeroDraft:
    return draft.model_copy(update={"step": step})


def with_concept(draft: HeroDraft, name: str, concept: str) -> HeroDraft:
    """Step 1: the name and who they are in a few words."""
    if not concept.strip():
        raise RulesError("Say who they are in a few words: the concept cannot be empty.")
    return _revised(draft, name=name, concept=concept)


def with_labels(draft: HeroDraft, labels: BuildLabels) -> HeroDraft:
    """Step 2: strong, average and weak; a split chosen under another label is dropped."""
    keep_attributes = draft.labels is not None and draft.labels.attributes is labels.attributes
    keep_standings = draft.labels is not None and draft.labels.standings is labels.standings
    return _revised(
        draft,
        labels=labels.model_dump(),
        attributes=draft.attributes if keep_attributes else None,
        standings=draft.standings if keep_standings else None,
    )


def with_attributes(draft: HeroDraft, split: Split) -> HeroDraft:
    """Step 3: Physique, Charm and Wits, one of the splits of the Attributes' label."""
    if draft.labels is None or split not in attribute_splits(draft.labels.attributes):
        raise RulesError("Choose the labels first, then one of the Attributes they allow.")
    return _revised(draft, attributes=split)


def with_standings(draft: HeroDraft, split: Split) -> HeroDraft:
    """Step 3: Resources, Influence and Spirit, one of the splits of the Standings' label."""
    if draft.labels is None or split not in standing_splits(draft.labels.standings):
        raise RulesError("Choose the labels first, then one of the Standings they allow.")
    return _revised(draft, standings=split)


def with_powers(draft: HeroDraft, choice: PowerChoice) -> HeroDraft:
    """Step 4: the Power template; a Misting's Stunt stays while the metal does."""
    kept = draft.powers
    if (
        kept is not None
        and choice.stunt is None
        and (kept.template, kept.metal) == (choice.template, choice.metal)
    ):
        choice = kept
    return _revised(draft, powers=choice.model_dump())


def with_stunt(draft: HeroDraft, stunt: str | None) -> HeroDraft:
    """Step 4, for a Misting: the one Stunt they start with (§9.7), or ``None`` for none yet;
    optional, as a Stunt can be bought later."""
    choice = draft.powers
    if choice is None or choice.template is not PowerTemplate.MISTING or choice.metal is None:
        raise RulesError("Only a Misting starts with a Stunt: choose a Misting's Powers first.")
    picked = None if stunt is None else check_misting_stunt(choice.metal, stunt)
    return _revised(draft, powers={**choice.model_dump(), "stunt": picked})


def with_traits(draft: HeroDraft, **named: str) -> HeroDraft:
    """Step 5: Drive, Profession, Specialty, Feature and Personality (keyword per slot)."""
    unknown = set(named) - set(TRAIT_SLOTS)
    if unknown:
        raise RulesError(f"There is no Trait called {', '.join(sorted(unknown))}.")
    return _revised(draft, traits={**draft.traits.model_dump(), **named})


def with_story(
    draft: HeroDraft,
    destiny: str,
    tragedy: str,
    props: tuple[Prop, ...],
    extra_traits: tuple[str, ...] | None = None,
) -> HeroDraft:
    """Step 6: Destiny, Tragedy, Props up to Resources, and for a Hero without Powers the two
    Traits it takes instead (``None`` keeps the extra Traits as they are)."""
    if len(props) > draft.props_allowed:
        raise RulesError(
            f"That is {len(props)} Props; a new Hero has at most {draft.props_allowed}, their Resources."
        )
    extras = draft.traits.extras if extra_traits is None else tuple(t for t in extra_traits if t.strip())
    traits = {**draft.traits.model_dump(), "extras": extras}
    return _revised(
        draft, destiny=destiny, tragedy=tragedy, props=[p.model_dump() for p in props], traits=traits
    )


def step_done(draft: HeroDraft, step: Step) -> bool:
    """Whether the part a step fills is complete (the review is never "done": it finishes)."""
    if step is Step.CONCEPT:
        return bool(draft.concept)
    if step is Step.LABELS:
        return draft.labels is not None
    if step is Step.RATINGS:
        return draft.attributes is not None and draft.standings is not None
    if step is Step.POWERS:
        return draft.powers is not None
    if step is Step.TRAITS:
        return all(getattr(draft.traits, slot) for slot in TRAIT_SLOTS)
    if step is Step.STORY:
        extras_needed = TRAITS_WITHOUT_POWERS if draft.without_powers else 0
        story = bool(draft.destiny and draft.tragedy) and len(draft.traits.extras) >= extras_needed
        return story and len(draft.props) <= draft.props_allowed
    return False


def still_to_do(draft: HeroDraft) -> list[str]:
    """What the Hero still lacks, one short phrase each, in the creation order."""
    todo: list[str] = []
    if not draft.concept:
        todo.append("a concept")
    if draft.labels is None:
        todo.append("strong / average / weak labels")
    if draft.attributes is None:
        todo.append("Physique, Charm and Wits")
    if draft.standings is None:
        todo.append("Resources, Influence and Spirit")
    if draft.powers is None:
        todo.append("Powers")
    empty = [slot.capitalize() for slot in TRAIT_SLOTS if not getattr(draft.traits, slot)]
    if empty:
        todo.append("Traits: " + ", ".join(empty))
    todo += [word for word, text in (("a Destiny", draft.destiny), ("a Tragedy", draft.tragedy)) if not text]
    if draft.without_powers and len(draft.traits.extras) < TRAITS_WITHOUT_POWERS:
        todo.append(f"{TRAITS_WITHOUT_POWERS} more Traits (a Hero without Powers)")
    if len(draft.props) > draft.props_allowed:
        todo.append(f"fewer Props: Resources {draft.props_allowed} allows {draft.props_allowed}")
    return todo


def to_character(draft: HeroDraft) -> Character:
    """The sheet the draft would make, with the Hero minimum (2) for ratings not chosen yet."""
    physique, charm, wits = draft.attributes or (2, 2, 2)
    resources, influence, spirit = draft.standings or (2, 2, 2)
    return make_character(
        name=draft.name,
        kind=CharacterKind.HERO,
        owner_id=draft.owner_id,
        concept=draft.concept,
        attributes={"physique": physique, "charm": charm, "wits": wits},
        standings={"resources": resources, "influence": influence, "spirit": spirit},
        traits=draft.traits.model_dump(),
        destiny=draft.destiny,
        tragedy=draft.tragedy,
        powers=[p.model_dump() for p in (draft.powers.powers if draft.powers else ())],
        hemalurgy={"blessings": (draft.powers.blessing,)} if draft.powers and draft.powers.blessing else {},
        props=[p.model_dump() for p in (*draft.props, *_implements(draft))][: lim.PROPS_MAX],
        build=draft.labels.model_dump() if draft.labels else None,
    )


def _implements(draft: HeroDraft) -> tuple[Prop, ...]:
    """The vials or metalminds the draft's Powers start with (docs/rulings.md §9.8)."""
    return template_implements(draft.powers.template, draft.powers.metal) if draft.powers else ()


def finish(draft: HeroDraft) -> Character:
    """The finished Hero; :class:`RulesError` saying what is missing while anything is."""
    todo = still_to_do(draft)
    if todo:
        raise RulesError(f"{draft.name} still needs {'; '.join(todo)}.")
    return to_character(draft)
