"""The question to whoever must declare or act now (docs/rulings.md §4.21).

Short, so it reads on a phone: who, what is asked, and what the buttons do; the typed command
is named for what the buttons do not cover (a Power, Traits, a label).
"""

from bot.render.common import plain


def declare_question(name: str, round_number: int, stat: str) -> str:
    return (
        f"**{plain(name)}** declares for round {round_number}: attack (pick a target), act without "
        f"attacking, full defence, or no roll, all with {stat}. `/declare` for a Power, Traits or a label."
    )


def act_question(name: str, held: int | None, sizes: tuple[int, ...], target_down: str = "") -> str:
    who = f"**{plain(name)}**"
    if target_down:
        return (
            f"{who} acts now, but {plain(target_down)} is out of the fight: take a new action "
            "(the buttons, or `/switch`), or not act."
        )
    if not sizes:
        return (
            f"{who} acts now but holds {held or 0} Action "
            f"{'Die' if held == 1 else 'Dice'}: too few for a pool, so only not acting is left."
        )
    dice = "" if held is None else f" with {held} Action {'Die' if held == 1 else 'Dice'}"
    return (
        f"{who} acts now{dice}: pick a pool (the rest become Defense Dice), not act, "
        "or take a new action (`/switch`)."
    )
