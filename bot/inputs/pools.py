"""The pool a roll command describes, from a bare count or from a sheet (docs/rulings.md §1).

A roll from a sheet starts at the named stat's rating (a Standing as lowered by spending,
Physique with Pewter's boost while it burns) and carries the sheet's defeat penalties; a Standing
roll also spends that Standing, which the command saves with the roll (docs/rulings.md §6).
"""

from dataclasses import dataclass

from bot.errors import BotError
from rules.character.names import Standing, StatKind
from rules.character.stats import defeat_penalties, find_stat, rating_for
from rules.pool import Pool, build_pool
from rules.words import count_of
from storage import StoredCharacter


@dataclass(frozen=True)
class PoolRequest:
    """What a roll command asked for, before any sheet is read."""

    dice: int | None
    stat: str | None
    traits: int = 0
    tool: int = 0
    circumstances: int = 0
    modifier: int = 0
    burning_pewter: bool = False

    @property
    def from_sheet(self) -> bool:
        """True when the roll reads a sheet; refuses a request that names neither or both."""
        if self.stat is None and self.dice is None:
            raise BotError(
                "Say what to roll: `dice` for a number of dice, or `stat` for a rating on a sheet."
            )
        if self.stat is not None and self.dice is not None:
            raise BotError("Give either `dice` or `stat`, not both.")
        return self.stat is not None


@dataclass(frozen=True)
class FormedPool:
    pool: Pool
    extra: bool
    title: str
    who: str
    stored: StoredCharacter | None = None
    spends: Standing | None = None
    """A Standing roll lowers that Standing by 1 (docs/rulings.md §6); the caller saves it."""


def form_pool(request: PoolRequest, stored: StoredCharacter | None) -> FormedPool:
    """Form the pool: from ``request.dice``, or from ``stored``'s sheet when a stat was named."""
    modifiers = [("Modifier", request.modifier)] if request.modifier else []

    def form(rating: int, label: str, extra_modifiers: list[tuple[str, int]]) -> Pool:
        return build_pool(
            rating,
            rating_label=label,
            traits_for=max(0, request.traits),
            traits_against=max(0, -request.traits),
            tool=request.tool,
            circumstances=request.circumstances,
            modifiers=[*extra_modifiers, *modifiers],
        )

    if not request.from_sheet or request.stat is None:
        assert request.dice is not None
        label = count_of(request.dice, "die")
        return FormedPool(pool=form(request.dice, "Dice", []), extra=False, title=label, who=label)
    if stored is None:
        raise BotError("Say whose sheet to roll from.")
    character = stored.character
    ref = find_stat(character, request.stat)
    rating = rating_for(character, request.stat, request.burning_pewter)
    pool = form(rating, ref.label, defeat_penalties(character, request.stat, request.burning_pewter))
    spends = ref.standing if ref.kind is StatKind.STANDING else None
    return FormedPool(
        pool=pool,
        extra=character.is_extra,
        title=f"{character.name}: {ref.label}",
        who=character.name,
        stored=stored,
        spends=spends,
    )


def roll_title(formed: FormedPool, label: str | None) -> str:
    """The roll's title: the label as typed, after the character's name when it is a sheet's
    roll ("Vin: Spot the Inquisitor"), so a labelled roll still says whose it is."""
    if not label:
        return formed.title
    return f"{formed.who}: {label}" if formed.stored is not None else label
