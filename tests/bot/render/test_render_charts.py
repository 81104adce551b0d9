"""The odds charts as pictures: they decode, have their size, and show the figures where they should.

No golden bytes: each test decodes the PNG and looks at pixels whose colour follows from the
input (the top of a known bar, the end of a Contest lane, the heat map's cells). Flat fills are
exact (the PNG is full colour); only the anti-aliased type needs a tolerance.
"""

from collections.abc import Callable
from fractions import Fraction
from io import BytesIO
from itertools import pairwise

import pytest
from PIL import Image, ImageDraw

from bot.render import charts
from bot.render.charts import (
    CARD,
    FAILURE,
    FRAME,
    INK,
    PLOT_BOTTOM,
    PLOT_TOP,
    STALEMATE,
    SUCCESS,
    TRACK,
    VIRIDIS,
    WIDTH,
    contest_bar,
    contest_chart,
    contrast,
    draw_contest,
    draw_roll,
    draw_table,
    luminance,
    outcome_bar,
    ramp,
    roll_chart,
    table_cell,
    table_chart,
    text_on,
)
from bot.render.drawings import Drawings
from rules.odds import contest_odds, odds, odds_table
from rules.pool import build_pool

RGB = tuple[int, int, int]
DARK_THEME: RGB = (0x31, 0x33, 0x38)
LIGHT_THEME: RGB = (0xFF, 0xFF, 0xFF)


def decode(data: bytes) -> Image.Image:
    """The PNG as an RGB picture, after checking it is a PNG and fully opaque."""
    image = Image.open(BytesIO(data))
    assert image.format == "PNG"
    image.load()
    assert "transparency" not in image.info and image.mode in ("RGB", "P")
    return image.convert("RGB")


def pixel(image: Image.Image, x: float, y: float) -> RGB:
    r, g, b = image.getpixel((round(x), round(y)))  # type: ignore[misc]
    return int(r), int(g), int(b)


def near(found: RGB, expected: RGB, tolerance: int = 0) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, expected, strict=True))


def column_height(image: Image.Image, x: int, colour: RGB) -> int:
    """How many pixels of ``colour`` stand on the plot's baseline at ``x``."""
    height, y = 0, PLOT_BOTTOM - 1
    while y >= 0 and near(pixel(image, x, y), colour):
        height, y = height + 1, y - 1
    return height


def test_roll_chart_decodes_at_its_size_with_the_bar_tops_in_their_colours() -> None:
    """5 dice against Difficulty 3: failure 46.5% (Outcome -3), success Outcomes 0, +1, +2."""
    chances = odds(5, 3)
    assert chances.outcomes.keys() == {-3, 0, 1, 2}
    image = decode(roll_chart(chances).png())
    assert image.size == (WIDTH, 500) and WIDTH >= 600
    tallest = float(max(chances.outcomes.values()))
    for outcome, chance in chances.outcomes.items():
        left, top, right, _ = outcome_bar(outcome, float(chance), tallest)
        centre = (left + right) // 2
        colour = FAILURE if outcome == -3 else SUCCESS
        assert near(pixel(image, centre, top + 1), colour), outcome
        assert near(pixel(image, centre, top - 2), CARD), f"{outcome}: something above the bar's top"
    failure_top = outcome_bar(-3, float(chances.outcomes[-3]), tallest)[1]
    assert failure_top == PLOT_TOP, "the tallest bar fills the plot"


def test_roll_chart_bar_heights_follow_the_chances() -> None:
    chances = odds(5, 3)
    image = decode(roll_chart(chances).png())
    tallest = float(max(chances.outcomes.values()))
    plot = PLOT_BOTTOM - PLOT_TOP
    for outcome, chance in chances.outcomes.items():
        left, _, right, _ = outcome_bar(outcome, float(chance), tallest)
        colour = FAILURE if outcome == -3 else SUCCESS
        measured = column_height(image, (left + right) // 2, colour)
        assert abs(measured - plot * float(chance) / tallest) <= 1, outcome
    empty = outcome_bar(3, 0.0, tallest)
    assert near(pixel(image, (empty[0] + empty[2]) / 2, PLOT_BOTTOM - 10), CARD), "+3 cannot happen"


def test_an_undersized_pool_colours_only_its_one_failure_outcome() -> None:
    """0 dice roll 2 with the Outcome 2 worse: failure is -3, successes -2…+2 (docs/rulings.md §2.5)."""
    chances = odds(build_pool(0), 1)
    image = decode(roll_chart(chances).png())
    tallest = float(max(chances.outcomes.values()))
    colours = {}
    for outcome, chance in chances.outcomes.items():
        left, top, right, _ = outcome_bar(outcome, float(chance), tallest)
        colours[outcome] = pixel(image, (left + right) / 2, top + 1)
    assert near(colours.pop(-3), FAILURE)
    assert sorted(colours) == [-2, -1, 0, 1, 2] and all(near(c, SUCCESS) for c in colours.values())


def test_table_chart_is_a_heat_map_whose_colour_rises_with_the_chance() -> None:
    table = odds_table()
    image = decode(table_chart(table).png())
    assert image.width == WIDTH and image.height >= 600
    samples: list[tuple[Fraction, RGB]] = []
    for row, chances in enumerate(table.values()):
        for column, chance in enumerate(chances.values()):
            left, top, right, bottom = table_cell(row, column)
            corner = pixel(image, left + 3, top + 3)  # clear of the printed percentage
            assert corner == ramp(float(chance)), (row, column)
            inside = [pixel(image, x, (top + bottom) // 2) for x in range(left, right)]
            assert any(near(p, text_on(corner), 24) for p in inside), f"no percentage in {(row, column)}"
            samples.append((chance, corner))
    samples.sort()
    lightness = [luminance(colour) for _, colour in samples]
    assert all(a < b for a, b in pairwise(lightness)), "a higher chance is further along the ramp"
    assert luminance(samples[-1][1]) - luminance(samples[0][1]) > 0.5, "the ramp spans dark to light"


def test_the_ramp_is_viridis_end_to_end_and_rises_in_lightness() -> None:
    assert ramp(0.0) == VIRIDIS[0] and ramp(1.0) == VIRIDIS[-1] and ramp(0.5) == VIRIDIS[4]
    steps = [luminance(ramp(i / 100)) for i in range(101)]
    assert all(a < b for a, b in pairwise(steps))


def test_contest_chart_lanes_end_where_the_chances_say() -> None:
    chances = contest_odds(6, 4, difficulty=2)
    image = decode(contest_chart(chances, acting=6, opposing=4, difficulty=2).png())
    assert image.size == (WIDTH, 430)
    lanes = (
        (float(chances.win), SUCCESS),
        (float(chances.stalemate), STALEMATE),
        (float(chances.lose), FAILURE),
    )
    for lane, (chance, colour) in enumerate(lanes):
        left, top, right, bottom = contest_bar(lane, chance)
        middle = (top + bottom) / 2
        assert near(pixel(image, right - 1, middle), colour), lane
        assert near(pixel(image, right + 2, middle), TRACK), lane
        length = sum(near(pixel(image, x, middle), colour) for x in range(left, WIDTH))
        assert abs(length - (charts.LANE_RIGHT - charts.LANE_LEFT) * chance) <= 1


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(lambda: roll_chart(odds(7, 2)).png(), id="roll"),
        pytest.param(lambda: table_chart(odds_table()).png(), id="table"),
        pytest.param(
            lambda: contest_chart(contest_odds(3, 3), acting=3, opposing=3, difficulty=1).png(), id="contest"
        ),
    ],
)
def test_every_chart_is_an_opaque_card_that_stands_out_in_both_themes(data: Callable[[], bytes]) -> None:
    image = decode(data())
    assert near(pixel(image, 0, 0), FRAME) and near(pixel(image, image.width - 1, image.height - 1), FRAME)
    assert near(pixel(image, 10, 10), CARD)
    assert contrast(CARD, DARK_THEME) >= 3, "the card stands out on the dark theme"
    assert contrast(FRAME, LIGHT_THEME) >= 3, "its frame stands out on the light theme"


def test_words_and_marks_have_contrast_on_the_card() -> None:
    assert contrast(INK, CARD) >= 7
    for mark in (SUCCESS, FAILURE, STALEMATE):
        assert contrast(mark, CARD) >= 3, mark  # WCAG's 3:1 for graphical objects


def test_every_word_drawn_is_in_pillows_own_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """Aileron has ASCII and a little Latin-1: a "−" or "≥" in a label would show as a box."""
    words: set[str] = set()

    def record(self: ImageDraw.ImageDraw, xy: object, text: str, *args: object, **kwargs: object) -> None:
        words.add(text)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    for dice in (0, 1, 2, 5, 10, 11, 20):
        for difficulty in range(1, 6):
            for extra in (False, True):
                draw_roll(roll_chart(odds(build_pool(dice), difficulty, extra=extra)).figures)
    draw_table(table_chart(odds_table()).figures)
    for acting, opposing, difficulty in ((0, 20, 1), (20, 0, 5), (6, 4, 2)):
        chances = contest_odds(build_pool(acting), build_pool(opposing), difficulty=difficulty)
        draw_contest(contest_chart(chances, acting=acting, opposing=opposing, difficulty=difficulty).figures)
    font = charts.font(charts.LABEL)
    missing = bytes(font.getmask("\ue000"))  # a private-use character: the font's empty box
    used = {character for text in words for character in text if not character.isspace()}
    assert used and not {c for c in used if bytes(font.getmask(c)) == missing}


def test_a_chart_is_drawn_once_then_found_drawn() -> None:
    chart = roll_chart(odds(9, 5, extra=True))  # drawn by no other test
    assert chart.drawn is None
    first = chart.png()
    again = roll_chart(odds(9, 5, extra=True))
    assert again.drawn is first and again.png() is first
    assert roll_chart(odds(9, 5)).png() != first
    assert table_chart(odds_table()).png() is table_chart(odds_table()).png()


def test_drawings_keep_the_latest_and_never_draw_to_answer_whether_drawn() -> None:
    drawn: list[int] = []

    def draw(figures: int) -> bytes:
        drawn.append(figures)
        return bytes([figures])

    drawings = Drawings(draw, keep=2)
    assert drawings.get(1) is None and drawn == []
    assert [drawings.png(n) for n in (1, 2, 1, 3)] == [b"\x01", b"\x02", b"\x01", b"\x03"]
    assert drawn == [1, 2, 3] and len(drawings) == 2
    assert drawings.get(1) is None and drawings.get(3) == b"\x03", "the oldest went first"
    drawings.forget()
    assert len(drawings) == 0
