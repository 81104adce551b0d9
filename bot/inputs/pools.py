"""The pool a roll command describes, from a bare count or from a sheet (docs/rulings.md §1).

A roll from a sheet starts at the named stat's rating (a Standing as lowered by spending, a
metal's as burning, flaring, spikes and impurity make it) and carries the sheet's defeat
penalties and what its Powers add to a roll of that kind, each named (§9: Tin on the senses,
Atium on every roll, what is being stored, a Savant's Nudges); a Standing roll also spends that
Standing, and a tap its charges, which the command saves with the roll (§6, §9.4). A subplot
the roll serves adds its stage's dice, named (§10.2): a Destiny to its own Hero's roll from the
sheet, a Tragedy to the bare dice rolled against its Hero.
"""

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from bot.errors import BotError
from rules.campaign.subplots import engaged_dice, with_subplot
from rules.character import Character, CharacterKind
from rules.character.metals import Task
from rules.character.names import Standing, StatKind
from rules.character.stats import defeat_penalties, find_stat, rating_parts, spend_standing
from rules.character.story import Subplot
from rules.pool import Boon, Pool, build_pool
from rules.powers.feruchemy import TapEffect, TapUse, tap, tap_effect
from rules.powers.ledger import Move
from rules.powers.rolls import power_roll, split
from rules.words import count_of
from storage import StoredCharacter


@dataclass(frozen=True)
class TapRequest:
    """A Feruchemical tap declared on the roll (docs/rulings.md §9.4)."""

    metal: str
    charges: int
    use: TapUse = TapUse.EFFECT

    def data(self) -> dict[str, str | int]:
        """The tap as a Conflict command's dice carry it (``rules.conflict.specs.TapSpec``)."""
        return {"metal": self.metal, "charges": self.charges, "use": self.use.value}


class PoolRequest(NamedTuple):
    """What a roll command asked for, before any sheet is read. A named tuple, immutable and
    hashed as the pool caches' key like a frozen dataclass, for a fraction of the cost to make:
    every roll makes one (issue 40)."""

    dice: int | None
    stat: str | None
    traits: int = 0
    tool: int = 0
    circumstances: int = 0
    modifier: int = 0
    burning_pewter: bool = False
    task: Task | None = None
    tap: TapRequest | None = None
    subplot: Subplot | None = None
    """The subplot the roll serves, the Narrator's call (docs/rulings.md §10.2)."""
    label: str = ""
    """The roll's words, which may name a Focused Emotion (docs/rulings.md §9.7)."""

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


class FormedPool(NamedTuple):
    """A request's pool as formed, with what it says about the roll; a named tuple, as
    :class:`PoolRequest` is: a roll from a sheet makes one each time (issue 40)."""

    pool: Pool
    extra: bool
    title: str
    who: str
    stored: StoredCharacter | None = None
    spends: Standing | None = None
    """A Standing roll lowers that Standing by 1 (docs/rulings.md §6); the caller saves it."""
    tapped: TapEffect | None = None
    """The tap the roll spends, whatever it does (§9.4); the caller saves it."""
    notes: tuple[str, ...] = ()
    """What the Powers did that the pool does not show (Nudges, Outcome, dice lost past 10)."""


def subplot_pool(pool: Pool, character: Character, subplot: Subplot) -> Pool:
    """``pool`` with what ``character``'s ``subplot`` is worth at its stage; refused when it is
    worth nothing, so the roller knows before the dice fall (docs/rulings.md §10.2)."""
    if character.kind is CharacterKind.EXTRA:
        raise BotError("Extras have no Destiny or Tragedy.")
    if not engaged_dice(character, subplot):
        stage = character.story.stage(subplot)
        if (character.destiny if subplot is Subplot.DESTINY else character.tragedy) and stage.worth == 0:
            state = subplot.stage_label(stage)
            raise BotError(f"{character.name}'s {subplot.label} is {state}: it gives no dice now.")
        raise BotError(f"{character.name} has no {subplot.label} written on the sheet.")
    return with_subplot(pool, character, subplot)


def form_pool(request: PoolRequest, stored: StoredCharacter | None) -> FormedPool:
    """Form the pool: from ``request.dice``, or from ``stored``'s sheet when a stat was named
    (with ``request.dice``, ``stored`` is only the Hero a Tragedy's dice are rolled against)."""
    if not request.from_sheet or request.stat is None:
        if request.subplot is None:
            return _bare_dice(request)
        return _from_dice(request, stored)
    if stored is None:
        raise BotError("Say whose sheet to roll from.")
    formed = _from_sheet(_Sheet(stored.character), request)
    return FormedPool(
        formed.pool,
        formed.extra,
        formed.title,
        formed.who,
        stored,
        formed.spends,
        formed.tapped,
        formed.notes,
    )


@dataclass(frozen=True, eq=False, slots=True)
class _Sheet:
    """A parsed sheet as a cache key: this very object, not an equal one. A stored sheet is
    parsed once per saved version (``storage.character_rows.parse_sheet``) and never changes,
    so what a roll of it forms is the same until the sheet is saved again; comparing whole
    sheets would cost what the cache saves. The cache holds the sheet, so its id is not reused
    while the entry lives."""

    character: Character

    def __hash__(self) -> int:
        return id(self.character)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Sheet) and other.character is self.character


def _form(
    request: PoolRequest,
    rating: int,
    label: str,
    extra_modifiers: list[tuple[str, int]],
    boons: tuple[Boon, ...] = (),
) -> Pool:
    """``request``'s pool on a rating: its Traits, Tool, Circumstances and modifier with
    ``extra_modifiers`` (the sheet's, the Powers') and the Powers' ``boons``."""
    modifiers = [("Modifier", request.modifier)] if request.modifier else []
    return build_pool(
        rating,
        rating_label=label,
        traits_for=max(0, request.traits),
        traits_against=max(0, -request.traits),
        tool=request.tool,
        circumstances=request.circumstances,
        modifiers=[*extra_modifiers, *modifiers],
        boons=boons,
    )


def _from_dice(request: PoolRequest, stored: StoredCharacter | None) -> FormedPool:
    assert request.dice is not None
    if request.tap is not None or request.task is not None:
        raise BotError("A tap or a task reads a sheet: roll a `stat` instead of `dice`.")
    label = count_of(request.dice, "die")
    pool = _form(request, request.dice, "Dice", [])
    if request.subplot is Subplot.DESTINY:
        raise BotError("A Destiny helps its own Hero's roll: roll a `stat` from their sheet.")
    if request.subplot is Subplot.TRAGEDY:
        if stored is None:
            raise BotError("Name the Hero whose Tragedy helps this roll with `character`.")
        pool = subplot_pool(pool, stored.character, Subplot.TRAGEDY)
    return FormedPool(pool=pool, extra=False, title=label, who=label)


@lru_cache(maxsize=256)
def _bare_dice(request: PoolRequest) -> FormedPool:
    """A bare count's pool, which no sheet changes: the same for the same request (a refusal is
    not kept)."""
    return _from_dice(request, None)


@lru_cache(maxsize=1024)
def _from_sheet(sheet: _Sheet, request: PoolRequest) -> FormedPool:
    """The pool a roll of ``request.stat`` forms from ``sheet`` (without the stored row, which
    :func:`form_pool` adds): pure, so kept per sheet and request (a refusal is not kept)."""
    assert request.stat is not None
    character = sheet.character
    ref = find_stat(character, request.stat)
    rated = rating_parts(character, request.stat, request.burning_pewter)
    named = [piece for label, dice in rated.parts for piece in split(label, dice)]
    penalties = [*named, *defeat_penalties(character, request.stat, request.burning_pewter)]
    rating = max(0, rated.base)
    plain_pool = _form(request, rating, ref.label, penalties)
    asked = request.tap
    if asked is not None and asked.use is TapUse.WITS:
        raise BotError("Tapping for Wits moves you in a Conflict's declaring order: tap it on /declare.")
    tapped = tap_effect(character, asked.metal, asked.charges, asked.use) if asked else None
    powers = power_roll(character, ref, request.task, tapped, before=plain_pool.total, label=request.label)
    pool = plain_pool  # most rolls: no Power adds to it, and the pool is formed once
    if powers.modifiers or powers.boons:
        pool = _form(request, rating, ref.label, [*penalties, *powers.modifiers], powers.boons)
    if request.subplot is Subplot.TRAGEDY:
        raise BotError(
            "A Tragedy gives its dice to those against its Hero: roll their `dice` with `character` "
            "naming the Hero."
        )
    if request.subplot is Subplot.DESTINY:
        pool = subplot_pool(pool, character, Subplot.DESTINY)
    boons = [_boon_text(b) for b in powers.boons]
    spends = ref.standing if ref.kind is StatKind.STANDING else None
    return FormedPool(
        pool=pool,
        extra=character.is_extra,
        title=f"{character.name}: {ref.label}",
        who=character.name,
        spends=spends,
        tapped=tapped,
        notes=(*boons, *powers.notes),
    )


def _boon_text(boon: Boon) -> str:
    """ "Steel tapped: +2 Outcome on a success"."""
    parts = [f"{count_of(boon.nudges, 'free Nudge')}" if boon.nudges else ""]
    parts.append(f"+{boon.outcome} Outcome" if boon.outcome else "")
    return f"{boon.label}: {' and '.join(p for p in parts if p)} on a success."


def roll_title(formed: FormedPool, label: str | None) -> str:
    """The roll's title: the label as typed, after the character's name when it is a sheet's
    roll ("Vin: Spot the Inquisitor"), so a labelled roll still says whose it is."""
    if not label:
        return formed.title
    return f"{formed.who}: {label}" if formed.stored is not None else label


def spent_by(formed: FormedPool) -> tuple[Character | None, tuple[Move, ...]]:
    """The sheet after the roll spends what it spends (a Standing, a tap's charges; None when
    nothing), and the charges it moved (docs/rulings.md §6, §9.4)."""
    if formed.stored is None or (formed.spends is None and formed.tapped is None):
        return None, ()
    after = formed.stored.character
    if formed.spends is not None:
        after = spend_standing(after, formed.spends)
    if formed.tapped is None:
        return after, ()
    tapped = tap(after, formed.tapped)
    return tapped.character, tapped.moves


def tap_request(metal: str | None, charges: int | None, use: TapUse | None) -> TapRequest | None:
    """The tap a roll declares; its parts given without the metal are refused."""
    if metal is None:
        if charges is not None or use is not None:
            raise BotError("Name the metal to tap (`tap:`) with its charges.")
        return None
    if charges is None:
        raise BotError("Say how many charges to tap (`tap_charges:`).")
    return TapRequest(metal, charges, use or TapUse.EFFECT)


TAP_USES = {use.value: use for use in TapUse}


def typed_tap(text: str) -> TapRequest | None:
    """A tap typed in a form, "Steel 5" or "Steel 20 outcome" (docs/rulings.md §9.4); empty for
    none. The sheet checks the metal and the charges, as for ``tap:``."""
    words = text.replace(",", " ").split()
    if not words:
        return None
    use = TAP_USES.get(words[-1].lower()) if len(words) == 3 else None
    if len(words) not in (2, 3) or not words[1].isdecimal() or (len(words) == 3 and use is None):
        raise BotError(
            "Tap: the metal and the charges, and what it buys if not its effect, e.g. `Steel 20 outcome`."
        )
    return TapRequest(words[0][:20], min(int(words[1]), 1000), use or TapUse.EFFECT)
