"""The question to whoever must declare or act now (docs/rulings.md §4.21).

Short, so it reads on a phone: who, what is asked, and what the buttons do; the typed command
is named for what the buttons do not cover (a Power, Traits, a label).
"""

from bot.render.common import plain
from rules.words import says, verb


def declare_question(name: str, round_number: int, stat: str, many: bool = False) -> str:
    """``many``: an Extras group, which takes plural verbs (docs/rulings.md §8.2)."""
    return (
        f"{says(f'**{plain(name)}**', 'declares', many)} for round {round_number}: attack (pick a target), "
        f"act without attacking, full defence, or no roll, all with {stat}. "
        "`/declare` for a Power, Traits or a label."
    )


def act_question(
    name: str,
    held: int | None,
    sizes: tuple[int, ...],
    target_down: str = "",
    many: bool = False,
    switched: bool = False,
) -> str:
    """``switched``: a new action was taken this round already, so none is offered (one switch
    a round, docs/rulings.md §4.8)."""
    who = says(f"**{plain(name)}**", "acts", many)
    if target_down and switched:
        return (
            f"{who} now, but {plain(target_down)} is out of the fight, and a new action was taken "
            "this round already: only not acting is left."
        )
    if target_down:
        return (
            f"{who} now, but {plain(target_down)} is out of the fight: take a new action "
            "(the buttons, or `/switch`), or not act."
        )
    if not sizes:
        return (
            f"{who} now but {verb('holds', many)} {held or 0} Action "
            f"{'Die' if held == 1 else 'Dice'}: too few for a pool, so only not acting is left."
        )
    dice = "" if held is None else f" with {held} Action {'Die' if held == 1 else 'Dice'}"
    if switched:
        return f"{who} now{dice}: pick a pool (the rest become Defense Dice) or not act."
    return (
        f"{who} now{dice}: pick a pool (the rest become Defense Dice), not act, "
        "or take a new action (`/switch`)."
    )
