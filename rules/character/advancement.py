"""A Hero's Advancements ledger (docs/rulings.md §10.1): what was earned, spent and lost, and
whether a spend is open now.

The ledger is a part of the sheet (``Character.advancements``), so it goes wherever the sheet
goes (the card, the web view, an export) and is saved in the very write that changes it. What
each change was for is the journal's (``bot.campaign``): an award's reasons, a spend's
purchase.

* At most :data:`HOLD_MAX` are held; an award past it keeps what fits and loses the rest, and
  the ledger counts what was lost, so the Narrator can be told.
* Spending needs an open spend: a Long Breather opens one (or the Narrator's leave), and a
  spend closes it, so a Hero makes one improvement per Breather.
* ``held == earned - spent - lost`` always; a Narrator's correction takes back from what was
  earned.
"""

from typing import Self

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, model_validator

from rules.character import limits as lim
from rules.errors import RulesError
from rules.words import count_of

HOLD_MAX = 20
"""The most Advancements a Hero holds; an award past it is lost (docs/rulings.md §10.1)."""
TOTAL_MAX = 100_000
"""A bound on the running totals, so a stored number is always an ordinary integer."""
AWARD_MAX = 100
"""The most one award gives (any number is allowed; past :data:`HOLD_MAX` it is lost)."""


class Advancements(BaseModel):
    """One Hero's ledger: held now, and the running totals it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    held: StrictInt = 0
    earned: StrictInt = 0
    spent: StrictInt = 0
    lost: StrictInt = 0
    spend_open: StrictBool = False
    """A Long Breather (or the Narrator's leave) opened a spend not yet made."""

    @model_validator(mode="after")
    def _balanced(self) -> Self:
        lim.check_range("Advancements held", self.held, 0, HOLD_MAX)
        for what, value in (("earned", self.earned), ("spent", self.spent), ("lost", self.lost)):
            lim.check_range(f"Advancements {what}", value, 0, TOTAL_MAX)
        if self.held != self.earned - self.spent - self.lost:
            raise lim.problem(
                f"The Advancements ledger does not add up: {self.earned} earned, {self.spent} spent "
                f"and {self.lost} lost leave {self.earned - self.spent - self.lost}, not {self.held}."
            )
        return self

    @property
    def empty(self) -> bool:
        return self == Advancements()


class Awarded(BaseModel):
    """An award applied: the ledger after it, what was gained and what was lost over the cap."""

    model_config = ConfigDict(frozen=True)

    ledger: Advancements
    gained: int
    lost: int


def award(ledger: Advancements, amount: int) -> Awarded:
    """``amount`` more Advancements: held up to :data:`HOLD_MAX`, the rest lost."""
    if not 1 <= amount <= AWARD_MAX:
        raise RulesError(f"An award is 1 to {AWARD_MAX} Advancements; {amount} is not.")
    if ledger.earned + amount > TOTAL_MAX:
        raise RulesError(f"This ledger has counted {TOTAL_MAX:,} Advancements, the most it keeps.")
    gained = min(amount, HOLD_MAX - ledger.held)
    lost = amount - gained
    after = ledger.model_copy(
        update={"held": ledger.held + gained, "earned": ledger.earned + amount, "lost": ledger.lost + lost}
    )
    return Awarded(ledger=after, gained=gained, lost=lost)


def take_back(ledger: Advancements, amount: int) -> Advancements:
    """The Narrator's correction: ``amount`` fewer held (and earned), never below none held."""
    if not 1 <= amount <= AWARD_MAX:
        raise RulesError(f"A correction takes back 1 to {AWARD_MAX} Advancements; {amount} is not.")
    if amount > ledger.held:
        raise RulesError(f"Only {count_of(ledger.held, 'Advancement')} held: none more can be taken back.")
    return ledger.model_copy(update={"held": ledger.held - amount, "earned": ledger.earned - amount})


def open_spend(ledger: Advancements) -> Advancements:
    """A Long Breather, or the Narrator's leave: one spend may be made (not two, however many
    Breathers pass before it is used)."""
    return ledger.model_copy(update={"spend_open": True})


def spend(ledger: Advancements, cost: int, *, name: str) -> Advancements:
    """``cost`` Advancements spent on one improvement; refused without an open spend or enough
    held. ``name``: the Hero's, for the refusal."""
    if not ledger.spend_open:
        raise RulesError(
            f"{name} has no spend open: Advancements are spent in a Long Breather (one improvement "
            "each), or with the Narrator's leave (`/advancement allow`)."
        )
    if cost > ledger.held:
        raise RulesError(f"That costs {cost}; {name} holds {count_of(ledger.held, 'Advancement')}.")
    return ledger.model_copy(
        update={"held": ledger.held - cost, "spent": ledger.spent + cost, "spend_open": False}
    )


def ledger_line(ledger: Advancements) -> str:
    """ "7 held of 20 (12 earned, 5 spent)", with what was lost and whether a spend is open."""
    parts = [f"{ledger.earned} earned", f"{ledger.spent} spent"]
    if ledger.lost:
        parts.append(f"{ledger.lost} lost over {HOLD_MAX}")
    line = f"{ledger.held} held of {HOLD_MAX} ({', '.join(parts)})"
    return line + (" · a spend is open" if ledger.spend_open else "")
