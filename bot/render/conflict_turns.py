"""The question to whoever must declare or act now (docs/rulings.md §4.21).

Short, so it reads on a phone: who, what is asked, and what the buttons do; the typed command
is named for what the buttons do not cover (a Power, Traits, a label).
"""

from bot.render.common import plain
from rules.powers.pushes import PUSH_VERBS
from rules.words import count_of, says, verb


def declare_question(
    name: str, round_number: int, stat: str, many: bool = False, pushes_with: str = ""
) -> str:
    """``many``: an Extras group, which takes plural verbs (docs/rulings.md §8.2); ``pushes_with``:
    Steel or Iron, burning, so the menus offer a push or pull too (docs/rulings.md §9.3)."""
    who = says(f"**{plain(name)}**", "declares", many)
    if pushes_with:
        return (
            f"{who} for round {round_number}: attack (pick a target), "
            f"{PUSH_VERBS.get(pushes_with, 'push')} a coin at one with {pushes_with}, act without "
            f"attacking, full defence, or no roll, the rest with {stat}. The last menu (or `/declare`) "
            "takes a Power, Traits, a Tool, Burdens, a label or a bigger object."
        )
    return (
        f"{who} for round {round_number}: attack (pick a target), "
        f"act without attacking, full defence, or no roll, all with {stat}. "
        "The last menu (or `/declare`) takes a Power, Traits, a Tool, Burdens or a label."
    )


def act_question(
    name: str,
    held: int | None,
    sizes: tuple[int, ...],
    target_down: str = "",
    many: bool = False,
    beat: bool = False,
    switched: bool = False,
) -> str:
    """``beat``: the extra action of a caught Beat, from the dice left (docs/rulings.md §4.15);
    ``switched``: a new action was taken this round already, so none is offered (one switch a
    round, docs/rulings.md §4.8)."""
    if beat:
        return beat_question(name, held, sizes, target_down, many)
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


def beat_question(name: str, held: int | None, sizes: tuple[int, ...], target_down: str, many: bool) -> str:
    """A Beat's extra action: a pool from the dice left, a new action at no cost, or let it go."""
    who = says(f"**{plain(name)}**", "takes", many) + " the Beat's extra action now"
    if target_down:
        return (
            f"{who}, but {plain(target_down)} is out of the fight: take a new action (the buttons, "
            "or `/switch`; it costs no dice), or let it go (Not act)."
        )
    if not sizes:
        return (
            f"{who} but {verb('holds', many)} {count_of(held or 0, 'die')}: "
            "too few for a pool, so it can only be let go."
        )
    dice = "" if held is None else f" with the {count_of(held, 'die')} left"
    return (
        f"{who}{dice}: pick a pool, take a new action (`/switch`; it costs no dice), or let it go (Not act)."
    )


def throw_question(name: str, pool: int, many: bool = False) -> str:
    """The attacker who rolls at the table, asked once the defence is set (docs/rulings.md §7.2)."""
    who = says(f"**{plain(name)}**", "rolls", many)
    return (
        f"The defence is set: {who} {count_of(pool, 'die')} at the table now. Type the faces (the button, "
        f"or `/act dice:{pool} faces:…`), or let the bot roll them."
    )
