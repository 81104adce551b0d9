"""A Roll20 Power row's ``charges`` onto our sheet (docs/rulings.md §6.12, §9.2, §9.8): an
Allomantic metal's become its reserve (counted from then on), a Feruchemical metal's a metalmind
holding them, the smallest that fits; anything else is listed back with the reason.
"""

from rules.character import limits as lim
from rules.character.allomancy import RESERVE_MAX, Allomancy, Reserve
from rules.character.feruchemy import Metalmind, MindSize
from rules.character.names import PowerType
from rules.character.parts import Power, Prop

MIND_MAX = MindSize.HUGE.capacity


def charges_refusal(power: Power, charges: int | None) -> str | None:
    """Why a row's charges cannot be kept (None: they can)."""
    if power.type not in (PowerType.ALLOMANCY, PowerType.FERUCHEMY):
        return f"only a metal's Allomancy or Feruchemy holds charges, not {power.type.label}"
    top = RESERVE_MAX if power.type is PowerType.ALLOMANCY else MIND_MAX
    if charges is None or not 0 <= charges <= top:
        return f"not a number of charges from 0 to {top}"
    return None


def mind_for(charges: int) -> MindSize:
    """The smallest metalmind that holds ``charges``."""
    return next(size for size in MindSize if size.capacity >= charges)


def kept_charges(held: list[tuple[Power, int]], props: list[Prop]) -> tuple[Allomancy, list[Prop], list[str]]:
    """The counted reserves and the metalminds the rows' charges make (added to ``props``, up
    to the sheet's Props), and what found no room."""
    reserves = [Reserve(metal=p.name, charges=n) for p, n in held if p.type is PowerType.ALLOMANCY]
    allomancy = Allomancy(tracked=bool(reserves), reserves=tuple(r for r in reserves if r.charges))
    minds = list(props)
    left: list[str] = []
    for power, charges in held:
        if power.type is not PowerType.FERUCHEMY or not charges:
            continue
        if len(minds) >= lim.PROPS_MAX:
            left.append(f"Charges of {power.name}: a sheet holds at most {lim.PROPS_MAX} Props")
            continue
        mind = Metalmind(metal=power.name, size=mind_for(charges), charges=charges)
        minds.append(Prop(name=f"{power.name}mind", implement=mind))
    return allomancy, minds, left
