"""Adding, easing and worsening a sheet's Burdens by name (docs/rulings.md §5).

Names compare by ``rules.naming``: a typed name picks the Burden of that name, else the one
Burden whose name contains it. Severity steps run Serious → Grave → Mortal; stepping a
Serious Burden down removes it.
"""

from collections.abc import Sequence

from rules.burdens import Severity
from rules.character import limits as lim
from rules.character.checked import validated
from rules.character.lookup import one_of, pick
from rules.character.model import Character
from rules.character.names import parse_severity
from rules.character.parts import Burden
from rules.errors import RulesError
from rules.naming import name_key

STEPS = (Severity.SERIOUS, Severity.GRAVE, Severity.MORTAL)

# What a sheet without Burdens answers, in the words of what was asked of it ({name}: the sheet's).
FOR_A_ROLL = "{name} has no Burdens: leave Burdens out, or add one first with /burden add."
TO_STEP = "{name} has no Burdens to worsen or ease: give one with /burden add first."
TO_REMOVE = "{name} has no Burdens, so there is none to remove."
TO_CHANGE = "{name} has no Burdens to change: give one with /burden add first."
TO_EASE = "{name} has no Burdens for a Breather to ease: leave the burden option out."


def _index(character: Character, name: str, none: str) -> int:
    burdens = character.burdens
    found = pick(str(name), range(len(burdens)), lambda i: burdens[i].name)
    if len(found) == 1:
        return found[0]
    if not burdens:
        raise RulesError(none.format(name=character.name))
    if found:
        options = one_of([burdens[i].name for i in found])
        shown = lim.quoted(str(name))
        raise RulesError(f"{character.name} has more than one Burden matching {shown}; say {options}.")
    listed = ", ".join(b.name for b in burdens)
    raise RulesError(f"{character.name} has no Burden called {lim.quoted(str(name))}. Burdens: {listed}.")


def find_burden(character: Character, name: str, none: str) -> Burden:
    """The Burden called ``name``; :class:`RulesError` listing the Burdens when there is none,
    and saying ``none`` (:data:`FOR_A_ROLL`, :data:`TO_STEP`…) when the sheet has no Burdens."""
    return character.burdens[_index(character, name, none)]


def unused_name(burdens: Sequence[Burden], base: str) -> str:
    """``base``, or ``base 2``, ``base 3``… whichever none of ``burdens`` (a sheet's, with any
    added by the same hit) has yet."""
    taken = {name_key(b.name) for b in burdens}
    name, n = base, 1
    while name_key(name) in taken:
        n += 1
        name = f"{base} {n}"
    return name


def _replace(character: Character, index: int, burden: Burden | None) -> Character:
    burdens = list(character.burdens)
    if burden is None:
        del burdens[index]
    else:
        burdens[index] = burden
    return character.model_copy(update={"burdens": tuple(burdens)})


def add_burden(character: Character, name: str, severity: Severity | str) -> Character:
    """A new Burden on the sheet; refused if the name is taken or the sheet is full."""
    burden = validated(Burden, {"name": name, "severity": parse_severity(severity)})
    if any(name_key(b.name) == name_key(burden.name) for b in character.burdens):
        raise RulesError(
            f"{character.name} already has a Burden called {lim.quoted(burden.name)}: "
            "worsen it with /burden step, or give the new one another name."
        )
    if len(character.burdens) >= lim.BURDENS_MAX:
        raise RulesError(f"{character.name} already has {lim.BURDENS_MAX} Burdens; remove or ease one first.")
    return character.model_copy(update={"burdens": (*character.burdens, burden)})


def remove_burden(character: Character, name: str) -> Character:
    """The sheet without the named Burden."""
    return _replace(character, _index(character, name, TO_REMOVE), None)


def set_burden_severity(character: Character, name: str, severity: Severity | str) -> Character:
    """The named Burden at a new severity, keeping its place in the list."""
    index = _index(character, name, TO_CHANGE)
    burden = character.burdens[index].model_copy(update={"severity": parse_severity(severity)})
    return _replace(character, index, burden)


def step_up_burden(character: Character, name: str) -> Character:
    """Worsen the named Burden one step; a Mortal Burden cannot get worse."""
    index = _index(character, name, TO_STEP)
    burden = character.burdens[index]
    if burden.severity is Severity.MORTAL:
        raise RulesError(f"{burden.name} is already Mortal, the worst a Burden gets.")
    worse = STEPS[STEPS.index(burden.severity) + 1]
    return _replace(character, index, burden.model_copy(update={"severity": worse}))


def step_down_burden(character: Character, name: str) -> Character:
    """Ease the named Burden one step; a Serious Burden is then gone.

    This is the Narrator's tool and eases Mortal Burdens too (Advancements, strong magic);
    a Long Breather uses ``ease_burden``, which refuses them.
    """
    index = _index(character, name, TO_STEP)
    burden = character.burdens[index]
    if burden.severity is Severity.SERIOUS:
        return _replace(character, index, None)
    milder = STEPS[STEPS.index(burden.severity) - 1]
    return _replace(character, index, burden.model_copy(update={"severity": milder}))
