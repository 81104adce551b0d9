"""The board's words (issue 39): a declaration aimed at a fighter who left names them, never
"someone"; its rows are cut between a list's items and keep their " · "."""

from bot.render.conflict_status import PUBLIC_FOOTER
from bot.render.rows import INDENT, one_line
from testbed.bot_env import DUEL, BotEnv, board_message, refused, text_displays
from testbed.cards import card_text


async def settled_board(env: BotEnv) -> str:
    await env.bot.conflicts.idle()
    await env.bot.conflicts.boards.idle()
    return card_text(await board_message(env))


async def test_a_target_who_left_is_named_by_the_name_they_had(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            *DUEL[:5],
            ("narrator", "/character create name:Guard template:thug"),
            ("narrator", "/conflict add character:Guard side:opposition"),
            *DUEL[5:7],
            ("narrator", "/declare who:Guard action:full-defence stat:Physique"),
            DUEL[7],
        ]
    )
    gone = await env.slash("/conflict remove who:Thug", user="narrator")
    assert not refused(gone), gone.content
    assert "**Vin** acts now, but Thug is out of the fight" in gone.text, gone.text
    board = await settled_board(env)
    assert "someone" not in board, board
    assert "attack → **Thug** (left)" in board, board


LONG = "Straff Venture, Lord of the Northern Dominance"


async def test_the_boards_rows_are_cut_between_items_and_keep_their_separators(bot_env: BotEnv) -> None:
    """A phone's rows (docs/rulings.md §8.7) are cut only between a list's items, each row
    ending with the " · " (or arrow) it was cut at; never inside a name or a sentence."""
    env = bot_env
    await env.play([(user, line.replace("Thug", f'"{LONG}"')) for user, line in DUEL])
    await env.bot.conflicts.idle()
    await env.bot.conflicts.boards.idle()
    texts = text_displays(await board_message(env))
    said = "\n".join(texts)
    assert said.count(f"**{LONG}**") == 4, said  # the order, Next, Vin's aim, its own row
    [next_line] = [row for row in said.split("\n") if row.startswith("Next:")]
    assert next_line.endswith("— `/act` (or `/switch`, or `/pass`)"), said
    assert f"**{LONG}** · waiting ·\n{INDENT}physical attack → **Vin** (Health)" in said, said
    footer = [row.removeprefix("-# ") for row in said.split("\n") if row.startswith("-# ")]
    assert footer[0].endswith("DD Defense Dice ·"), footer
    assert one_line("\n".join(footer)) == PUBLIC_FOOTER
