"""How a count reads: "1 die", "2 dice", "1 Action Die", "3 Nudges", "1 roll"; and how a
subject agrees with its verb: "Vin rolls", "House guards roll".

Every message that puts a number before a noun goes through :func:`count_of`, so no reply says
"1 dice" or "Rolls: 1 rolls"; the few nouns whose plural is not an added "s" are listed here.
Every message that puts a character before a verb goes through :func:`says` (or :func:`verb`),
with a group of more than one (an Extras group) plural whatever its name (docs/rulings.md §8.2).
"""

from collections.abc import Sequence

IRREGULAR = {"die": "dice", "Die": "Dice", "this": "these"}
"""Last words whose plural is not the word plus "s" (Action Die → Action Dice)."""


def plural_of(word: str) -> str:
    """``word`` for more than one: its last word made plural ("Defense Die" → "Defense Dice")."""
    head, _, last = word.rpartition(" ")
    many = IRREGULAR.get(last, f"{last}s")
    return f"{head} {many}" if head else many


def count_of(count: int, word: str) -> str:
    """ "1 die", "0 dice", "2 Action Dice": ``word`` is given in the singular."""
    return f"{count} {word if count == 1 else plural_of(word)}"


def one(word: str) -> str:
    """ "a Steel spike", "an Iron spike": the article a word takes by its first letter's sound."""
    return f"{'an' if word[:1].lower() in tuple('aeiou') else 'a'} {word}"


VERBS = {"is": "are", "has": "have", "does": "do", "goes": "go", "was": "were"}


def verb(singular: str, many: bool) -> str:
    """A present-tense verb for one subject or many: ("joins", True) → "join", "is" → "are".

    Only the first word changes ("takes the extra action and" → "take the extra action and").
    """
    first, space, rest = singular.partition(" ")
    if not many:
        return singular
    if first in VERBS:
        plural = VERBS[first]
    elif first.endswith(("sses", "shes", "ches", "xes", "zes")):
        plural = first[:-2]
    elif first.endswith("s"):
        plural = first[:-1]
    else:
        plural = first
    return plural + space + rest


def is_group(size: int) -> bool:
    """A character of more than one (an Extras group) reads as plural, whatever its name; a
    lone character as singular, even one named in the plural (docs/rulings.md §8.2)."""
    return size > 1


def says(name: str, singular: str, many: bool = False) -> str:
    """ "Vin rolls", "House guards roll": ``name`` and its verb in agreement."""
    return f"{name} {verb(singular, many)}"


def names_say(names: Sequence[str], singular: str, many: bool = False) -> str:
    """ "Vin and Kell act", "Vin acts": several names (or one group) take the plural."""
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    return says(listed, singular, many or len(names) > 1)
