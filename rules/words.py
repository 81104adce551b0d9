"""How a count reads: "1 die", "2 dice", "1 Action Die", "3 Nudges", "1 roll".

Every message that puts a number before a noun goes through :func:`count_of`, so no reply says
"1 dice" or "Rolls: 1 rolls"; the few nouns whose plural is not an added "s" are listed here.
"""

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


VERBS = {"is": "are", "has": "have", "does": "do", "was": "were"}


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
