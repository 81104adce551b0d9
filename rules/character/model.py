"""The character sheet as frozen data (docs/rulings.md §6).

Everything here checks itself when built: ratings in their ranges, text within the caps of
``rules.character.limits``, and the rules that tie parts together (Extras have no Destiny or
Tragedy, a Standing cannot be spent below 1, Burden names are unique). Hero-creation totals
are deliberately not checked here: a sheet grows past them with Advancements, so they live in
the optional ``check_hero_build``.

Build from a player's input with ``make_character`` / ``revise_character`` (in
``rules.character.checked``), which turn any validation failure into one
:class:`~rules.errors.RulesError`.
"""

from typing import Any, ClassVar, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict, StrictInt, ValidationInfo, field_validator, model_validator

from rules.character import limits as lim
from rules.character.advancement import Advancements
from rules.character.allomancy import Allomancy
from rules.character.feruchemy import Feruchemy
from rules.character.hemalurgy import Hemalurgy
from rules.character.names import Attribute, CharacterKind, Named, PowerType, Resilience, Standing
from rules.character.parts import BuildLabels, Burden, Power, Prop, Traits
from rules.character.story import Story
from rules.naming import name_key

_FROZEN = ConfigDict(frozen=True, extra="forbid")


K = TypeVar("K", bound=Named)


class StatBlock(BaseModel, Generic[K]):
    """Three ratings named by the members of one enum, each held within its bounds.

    The fields carry the enum's values as names (``physique``, ``charm``, ``wits``), so the
    stored JSON is just the three numbers. A subclass names its enum in ``KEYS``, its bounds in
    ``LOW`` and ``HIGH``, and in ``WHAT`` how a player's message names one of them.
    """

    model_config = _FROZEN

    KEYS: ClassVar[type[Named]]
    LOW: ClassVar[int]
    HIGH: ClassVar[int]
    WHAT: ClassVar[str] = "{}"
    """A format string for the error message; ``{}`` is the rating's label."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse a block whose fields are not its enum's values, in order: ``get`` and the
        stored JSON both rely on the two agreeing."""
        super().__pydantic_init_subclass__(**kwargs)
        if "KEYS" in cls.__dict__ and list(cls.model_fields) != [key.value for key in cls.KEYS]:
            raise TypeError(f"{cls.__name__}'s fields must be {[key.value for key in cls.KEYS]}.")

    def get(self, key: K) -> int:
        """The rating for one member of the block's enum (a ``StrEnum`` member is its field's
        name as it stands, so no ``.value``: a Python-level property read on every rating)."""
        value: int = getattr(self, key)
        return value

    def with_value(self, key: K, value: int) -> Self:
        """A copy with one rating changed; like ``model_copy``, it does not check the bounds."""
        return self.model_copy(update={str(key): value})

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        for key in self.KEYS:
            lim.check_range(self.WHAT.format(key.label), getattr(self, key.value), self.LOW, self.HIGH)
        return self


class Attributes(StatBlock[Attribute]):
    """Physique, Charm and Wits: 1–10 for anyone (a Hero's 2–6 is a build check)."""

    KEYS = Attribute
    LOW = lim.ATTRIBUTE_MIN
    HIGH = lim.ATTRIBUTE_MAX

    physique: StrictInt = 2
    charm: StrictInt = 2
    wits: StrictInt = 2


class Standings(StatBlock[Standing]):
    """Resources, Influence and Spirit as written on the sheet: 2–10."""

    KEYS = Standing
    LOW = lim.STANDING_MIN
    HIGH = lim.STANDING_MAX

    resources: StrictInt = 2
    influence: StrictInt = 2
    spirit: StrictInt = 2


class Spent(StatBlock[Standing]):
    """How far each Standing is lowered by rolls until it is recovered (docs/rulings.md §6)."""

    KEYS = Standing
    LOW = 0
    HIGH = lim.STANDING_MAX - 1
    WHAT = "{} spent"

    resources: StrictInt = 0
    influence: StrictInt = 0
    spirit: StrictInt = 0


class Harm(StatBlock[Resilience]):
    """Damage taken on each Resilience, kept apart from the maximum (docs/rulings.md §5).

    The remaining value is the maximum less this, never below 0; see ``rules.character.stats``.
    """

    KEYS = Resilience
    LOW = 0
    HIGH = lim.DAMAGE_MAX
    WHAT = "{} damage"

    health: StrictInt = 0
    reputation: StrictInt = 0
    willpower: StrictInt = 0


_TEXT_FIELDS = {
    "name": ("The name", lim.NAME_MAX, True, False),
    "concept": ("The concept", lim.CONCEPT_MAX, False, False),
    "destiny": ("The Destiny", lim.DESTINY_MAX, False, False),
    "tragedy": ("The Tragedy", lim.TRAGEDY_MAX, False, False),
    "notes": ("The notes", lim.NOTES_MAX, False, True),
}


class Character(BaseModel):
    """A Hero, Villain or Extra (group) and their sheet.

    ``owner_id`` is the Discord user id of the player (Heroes) or of the Narrator who made the
    Villain or Extra. ``size`` is the number of members of an Extras group (1 for a lone Extra
    and for everyone else) and ``members_down`` how many of them are defeated, so the group
    shrinks without losing its original size. ``allomancy``, ``feruchemy`` and ``hemalurgy``
    are the Powers in play (docs/rulings.md §9): reserves and what burns, what is stored, spikes
    and Blessings; each is empty on a sheet without them, as on every sheet stored before them.
    """

    model_config = _FROZEN

    name: str
    kind: CharacterKind
    owner_id: StrictInt
    concept: str = ""
    size: StrictInt = 1
    members_down: StrictInt = 0
    attributes: Attributes = Attributes()
    standings: Standings = Standings()
    spent: Spent = Spent()
    damage: Harm = Harm()
    traits: Traits = Traits()
    destiny: str = ""
    tragedy: str = ""
    burdens: tuple[Burden, ...] = ()
    powers: tuple[Power, ...] = ()
    props: tuple[Prop, ...] = ()
    build: BuildLabels | None = None
    notes: str = ""
    allomancy: Allomancy = Allomancy()
    feruchemy: Feruchemy = Feruchemy()
    hemalurgy: Hemalurgy = Hemalurgy()
    advancements: Advancements = Advancements()
    """A Hero's ledger (``rules.character.advancement``, docs/rulings.md §10.1)."""
    story: Story = Story()
    """The subplots' stages and the Secrets known (``rules.character.story``, §10.2, §10.3)."""

    @property
    def is_extra(self) -> bool:
        return self.kind is CharacterKind.EXTRA

    @property
    def members_left(self) -> int:
        """Members of an Extras group still standing (1 or 0 for a lone Extra)."""
        return self.size - self.members_down

    @field_validator(*_TEXT_FIELDS)
    @classmethod
    def _text(cls, value: str, info: ValidationInfo) -> str:
        what, limit, required, multiline = _TEXT_FIELDS[str(info.field_name)]
        return lim.clean_text(value, what, limit, required=required, multiline=multiline)

    @model_validator(mode="after")
    def _check(self) -> Self:
        if not 0 <= self.owner_id <= lim.OWNER_ID_MAX:
            raise lim.problem("The owner must be a Discord user id.")
        self._check_kind()
        for standing in Standing:
            if self.spent.get(standing) > self.standings.get(standing) - 1:
                raise lim.problem(
                    f"{standing.label} {self.standings.get(standing)} cannot have "
                    f"{self.spent.get(standing)} spent: spending always leaves at least 1."
                )
        self._check_lists()
        return self

    def _check_kind(self) -> None:
        if self.is_extra:
            lim.check_range("An Extras group's size", self.size, 1, lim.GROUP_MAX)
            lim.check_range("The defeated members", self.members_down, 0, self.size)
            if self.destiny or self.tragedy or not self.story.subplots_untold:
                raise lim.problem("Extras have no Destiny or Tragedy.")
            if self.damage != Harm():
                raise lim.problem("Extras track defeated members, not damage to Resiliences.")
        elif self.size != 1 or self.members_down != 0:
            raise lim.problem(f"Only Extras come in groups; a {self.kind.label} has size 1.")

    def _check_from_spike(self, power: Power) -> None:
        """A Power listed for a spike holds that spike's rating, and no spike, no Power (§9.5)."""
        if not power.from_spike:
            return
        spikes = [s for s in self.hemalurgy.spikes if s.steals is power.type and s.power == power.name]
        if not spikes:
            raise lim.problem(f"{power.full_label} came from a spike the sheet no longer bears.")
        if power.rating != spikes[0].rating:
            raise lim.problem(
                f"{power.full_label} is a spike's, rated {spikes[0].rating}: a spike's rating never changes."
            )

    def _check_lists(self) -> None:
        if len(self.burdens) > lim.BURDENS_MAX:
            raise lim.problem(f"A sheet holds at most {lim.BURDENS_MAX} Burdens.")
        seen: set[str] = set()
        for burden in self.burdens:
            if name_key(burden.name) in seen:
                raise lim.problem(
                    f"Two Burdens are called {lim.quoted(burden.name)}; give each its own name."
                )
            seen.add(name_key(burden.name))
        if len(self.powers) > lim.POWERS_MAX:
            raise lim.problem(f"A sheet holds at most {lim.POWERS_MAX} Powers.")
        keys: set[tuple[PowerType, str]] = set()
        for power in self.powers:
            if (power.type, name_key(power.name)) in keys:
                raise lim.problem(f"{power.full_label} is listed twice; keep one and set its rating.")
            keys.add((power.type, name_key(power.name)))
        for power in self.powers:
            self._check_from_spike(power)
        if sum(len(p.stunts) for p in self.powers) > lim.STUNTS_MAX:
            raise lim.problem(f"A sheet holds at most {lim.STUNTS_MAX} Stunts in all.")
        if len(self.props) > lim.PROPS_MAX:
            raise lim.problem(f"A sheet holds at most {lim.PROPS_MAX} Props.")
