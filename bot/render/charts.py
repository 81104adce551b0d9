"""Charts of the exact odds: PNG pictures for the ``/odds`` cards.

Pure: figures in, PNG bytes out; nothing here talks to Discord. The exact figures stay in the
card's text (``bot/render/dice.py``): the picture is for seeing at a glance, the text for reading.

Drawn with Pillow, not a plotting library: Pillow imports in a tenth of matplotlib's time, draws
each chart several times faster and installs a fraction of the size (matplotlib brings numpy);
docs/odds-charts.md has the measurements.

* **Readable on a phone**: 800 px wide with type of 22–34 px, so that shrunk to a phone's width
  the words still read at 10–15 px. A bar's label is the card's own figure, to one decimal
  (``percent``), and shrinks (to 14 px at the least) only as far as keeps it off the next bar's.
  The font is the one Pillow ships (Aileron; it has ASCII and a little Latin-1, so every label
  here is plain ASCII plus "·").
* **Readable in both Discord themes**: nothing is transparent. The picture is a light card with a
  dark frame: on the dark theme (#313338) the card stands out, on the light theme (#FFFFFF) its frame.
* **Colour-blind safe**: categories use Okabe & Ito's palette (blue success, vermillion failure;
  they stay apart under every common colour-vision deficiency and in greyscale); the heat map uses
  viridis, perceptually uniform with lightness rising with the chance. Words name every part
  (success, failure, each side, each cell's percentage), so nothing relies on colour alone.
* **Drawn once per input**: the odds never change, so each picture is kept (``bot/render/drawings.py``)
  under exactly the figures it draws; a kept picture can never disagree with its text. The figures
  follow from a few numbers: 210 pools × Difficulties × Extra or not (all kept), one table, and
  2,205 Contests (the latest 128 kept), about 30 KB a picture: 10 MB at the very most.
"""

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from io import BytesIO
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from bot.render.common import percent, signed
from bot.render.drawings import Chart, Drawings
from rules.odds import ContestOdds, Odds
from rules.outcome import MAX_OUTCOME, MIN_OUTCOME, difficulty_name
from rules.roll import outcome_of
from rules.words import count_of

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
"""left, top, right, bottom in pixels; right and bottom are inside the box, as Pillow draws it."""
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

WIDTH = 800
CARD: RGB = (247, 247, 245)
FRAME: RGB = (64, 66, 72)
FRAME_WIDTH = 6
INK: RGB = (28, 30, 34)
MUTED: RGB = (92, 96, 104)
TRACK: RGB = (222, 223, 227)
WHITE: RGB = (255, 255, 255)

SUCCESS: RGB = (0, 114, 178)
"""Okabe–Ito blue."""
FAILURE: RGB = (213, 94, 0)
"""Okabe–Ito vermillion."""
STALEMATE: RGB = (120, 120, 120)
"""A neutral grey: nobody wins."""

VIRIDIS: tuple[RGB, ...] = (
    (0x44, 0x01, 0x54),
    (0x47, 0x2D, 0x7B),
    (0x3B, 0x52, 0x8B),
    (0x2C, 0x72, 0x8E),
    (0x21, 0x91, 0x8C),
    (0x28, 0xAE, 0x80),
    (0x5E, 0xC9, 0x62),
    (0xAD, 0xDC, 0x30),
    (0xFD, 0xE7, 0x25),
)
"""viridis at 0, 1/8 … 1 (sampled from matplotlib's colour map, which is CC0); :func:`ramp` joins them."""

TITLE, SUBTITLE, LABEL, SMALL = 34, 28, 26, 22
BAR_LABEL_MIN = 14

# -- Shared drawing ----------------------------------------------------------------------------


@lru_cache(maxsize=16)
def font(size: int) -> Font:
    """Pillow's own font at ``size`` px, loaded once per size (no system font is assumed)."""
    return ImageFont.load_default(size)


def ramp(chance: float) -> RGB:
    """The heat map's colour for a chance 0…1: viridis, dark purple to yellow."""
    position = min(1.0, max(0.0, chance)) * (len(VIRIDIS) - 1)
    low = min(int(position), len(VIRIDIS) - 2)
    share = position - low
    a, b = VIRIDIS[low], VIRIDIS[low + 1]
    return (
        round(a[0] + (b[0] - a[0]) * share),
        round(a[1] + (b[1] - a[1]) * share),
        round(a[2] + (b[2] - a[2]) * share),
    )


def luminance(colour: RGB) -> float:
    """Relative luminance (WCAG 2), to pick legible text and to check contrast."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 (none) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def text_on(fill: RGB) -> RGB:
    """Dark or white text, whichever reads better on ``fill``."""
    return INK if contrast(INK, fill) >= contrast(WHITE, fill) else WHITE


def card(height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An opaque light card with a dark frame, ``WIDTH`` × ``height``."""
    image = Image.new("RGB", (WIDTH, height), FRAME)
    draw = ImageDraw.Draw(image)
    draw.rectangle((FRAME_WIDTH, FRAME_WIDTH, WIDTH - 1 - FRAME_WIDTH, height - 1 - FRAME_WIDTH), fill=CARD)
    return image, draw


def fitted(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> Font:
    """The font at ``size`` or smaller so that ``text`` fits in ``width`` px."""
    while size > SMALL and draw.textlength(text, font=font(size)) > width:
        size -= 2
    return font(size)


def header(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> None:
    """The title (drawn a little bold) and a line under it, left-aligned on the card."""
    room = WIDTH - 80
    draw.text(
        (40, 22), title, fill=INK, font=fitted(draw, title, TITLE, room), stroke_width=1, stroke_fill=INK
    )
    draw.text((40, 68), subtitle, fill=MUTED, font=fitted(draw, subtitle, SUBTITLE, room))


def png(image: Image.Image) -> bytes:
    """Full-colour PNG. A 256-colour palette would be a third of the bytes, but it merges the heat
    map's neighbouring cells (8.3% and 5.6% came out one colour), so every fill stays exact."""
    out = BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def bar_label(draw: ImageDraw.ImageDraw, chance: float) -> tuple[str, Font]:
    """A bar's label: the chance exactly as the card writes it (``percent``, the one rounding
    of a chance), in a font small enough that neighbouring bars' labels never touch."""
    text = percent(chance)
    size = SMALL
    while size > BAR_LABEL_MIN and draw.textlength(text, font=font(size)) > slot_width() - 6:
        size -= 2
    return text, font(size)


# -- One pool against one Difficulty -------------------------------------------------------------

ROLL_HEIGHT = 500
PLOT_LEFT, PLOT_TOP, PLOT_RIGHT, PLOT_BOTTOM = 40, 160, 760, 400
BAR_WIDTH = 40
OUTCOMES = range(MIN_OUTCOME, MAX_OUTCOME + 1)


def slot_width() -> float:
    return (PLOT_RIGHT - PLOT_LEFT) / len(OUTCOMES)


def outcome_bar(outcome: int, chance: float, tallest: float) -> Box:
    """Where the bar of ``outcome`` stands: the tallest bar fills the plot, a sliver shows 2 px."""
    centre = PLOT_LEFT + slot_width() * (outcome - MIN_OUTCOME + 0.5)
    height = round((PLOT_BOTTOM - PLOT_TOP) * chance / tallest) if tallest > 0 else 0
    if chance > 0:
        height = max(2, height)
    left = round(centre - BAR_WIDTH / 2)
    return left, PLOT_BOTTOM - height, left + BAR_WIDTH - 1, PLOT_BOTTOM - 1


class RollFigures(NamedTuple):
    pool: str
    difficulty: int
    failure: int
    """The one Outcome of every failure."""
    outcomes: tuple[tuple[int, float], ...]
    success: float
    beat: str


def roll_chart(odds: Odds) -> Chart[RollFigures]:
    """Bars for the chance of each Outcome −6…+6, success and failure told apart, with the chance
    of success and of catching a Beat written above."""
    outcomes = tuple((o, float(p)) for o, p in odds.outcomes.items())
    # Every failure reads as Result 0 (docs/rulings.md §2.5): one Outcome, from the rule itself.
    failure = outcome_of(0, odds.difficulty, odds.underflow)
    figures = RollFigures(
        pool_words(odds), odds.difficulty, failure, outcomes, float(odds.success), beat_words(odds)
    )
    return Chart(ROLL_CHARTS, figures)


def pool_words(odds: Odds) -> str:
    words = count_of(odds.dice, "die")
    if odds.free_nudges:
        words += f" + {count_of(odds.free_nudges, 'free Nudge')}"
    if odds.underflow:
        words += f" (Outcome -{odds.underflow})"
    return words + (", an Extra" if odds.extra else "")


def beat_words(odds: Odds) -> str:
    return "Extras never catch a Beat" if odds.extra else f"Catch a Beat {percent(float(odds.catch_a_beat))}"


def draw_roll(figures: RollFigures) -> bytes:
    pool, difficulty, failure, outcomes, success, beat = figures
    image, draw = card(ROLL_HEIGHT)
    header(
        draw,
        f"{pool} vs Difficulty {difficulty} ({difficulty_name(difficulty)})",
        f"Success {percent(success)}  ·  {beat}",
    )
    chances = dict(outcomes)
    tallest = max(chances.values(), default=0.0)
    draw.line((PLOT_LEFT, PLOT_BOTTOM, PLOT_RIGHT, PLOT_BOTTOM), fill=MUTED, width=2)
    for outcome in OUTCOMES:
        chance = chances.get(outcome, 0.0)
        box = outcome_bar(outcome, chance, tallest)
        centre = (box[0] + box[2] + 1) / 2
        if chance > 0:
            draw.rectangle(box, fill=FAILURE if outcome == failure else SUCCESS)
            label, label_font = bar_label(draw, chance)
            draw.text((centre, box[1] - 6), label, fill=INK, font=label_font, anchor="ms")
        draw.text((centre, PLOT_BOTTOM + 10), signed(outcome), fill=INK, font=font(LABEL), anchor="mt")
    divider = round(PLOT_LEFT + slot_width() * (failure - MIN_OUTCOME + 1))
    for y in range(PLOT_TOP - 30, PLOT_BOTTOM + 80, 12):
        draw.line((divider, y, divider, y + 5), fill=MUTED, width=2)
    words_y = PLOT_BOTTOM + 50
    left_end = max(FRAME_WIDTH + 8 + draw.textlength("failure", font=font(LABEL)), divider - 10)
    draw.text((left_end, words_y), "failure", fill=FAILURE, font=font(LABEL), anchor="ra")
    draw.text((divider + 10, words_y), "success", fill=SUCCESS, font=font(LABEL), anchor="la")
    draw.text((PLOT_RIGHT, words_y), "Outcome", fill=MUTED, font=font(LABEL), anchor="ra")
    return png(image)


ROLL_CHARTS = Drawings(draw_roll, keep=256)


# -- The table: 2–10 dice against Difficulty 1–5 ------------------------------------------------

GRID_LEFT, GRID_TOP, CELL_WIDTH, CELL_HEIGHT, GAP = 160, 160, 120, 48, 4


def table_cell(row: int, column: int) -> Box:
    """The cell of the ``row``-th pool size and ``column``-th Difficulty (0-based)."""
    left, top = GRID_LEFT + column * CELL_WIDTH, GRID_TOP + row * CELL_HEIGHT
    return left, top, left + CELL_WIDTH - GAP - 1, top + CELL_HEIGHT - GAP - 1


TableFigures = tuple[tuple[int, tuple[tuple[int, float], ...]], ...]
"""Rows of (pool size, its (Difficulty, chance of success) cells)."""


def table_chart(table: Mapping[int, Mapping[int, Fraction]]) -> Chart[TableFigures]:
    """A heat map of the chance of success, one row per pool size, one column per Difficulty,
    the percentage printed in each cell and a legend of the colour ramp under it."""
    rows = tuple((dice, tuple((d, float(p)) for d, p in row.items())) for dice, row in table.items())
    return Chart(TABLE_CHARTS, rows)


def draw_table(rows: TableFigures) -> bytes:
    columns = [d for d, _ in rows[0][1]] if rows else []
    grid_right = GRID_LEFT + len(columns) * CELL_WIDTH - GAP
    legend_top = GRID_TOP + len(rows) * CELL_HEIGHT + 30
    image, draw = card(legend_top + 100)
    header(draw, "Chance of success", "Pool size down, Difficulty across")
    for column, difficulty in enumerate(columns):
        left, _, right, _ = table_cell(0, column)
        draw.text(
            ((left + right) / 2, GRID_TOP - 10), f"D{difficulty}", fill=INK, font=font(LABEL), anchor="ms"
        )
    for row, (dice, chances) in enumerate(rows):
        top, bottom = table_cell(row, 0)[1], table_cell(row, 0)[3]
        draw.text(
            (GRID_LEFT - 16, (top + bottom) / 2), f"{dice} dice", fill=INK, font=font(LABEL), anchor="rm"
        )
        for column, (_, chance) in enumerate(chances):
            box = table_cell(row, column)
            fill = ramp(chance)
            draw.rectangle(box, fill=fill)
            middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            draw.text(middle, percent(chance), fill=text_on(fill), font=font(LABEL), anchor="mm")
    legend(draw, GRID_LEFT, grid_right, legend_top)
    return png(image)


TABLE_CHARTS = Drawings(draw_table, keep=4)


def legend(draw: ImageDraw.ImageDraw, left: int, right: int, top: int) -> None:
    """The ramp from 0% to 100% as a bar, with ticks every quarter."""
    draw.text((left - 16, top + 12), "chance", fill=MUTED, font=font(SMALL), anchor="rm")
    for x in range(left, right + 1):
        draw.line((x, top, x, top + 23), fill=ramp((x - left) / (right - left)))
    for quarter in range(5):
        tick = left + (right - left) * quarter / 4
        draw.line((tick, top + 24, tick, top + 31), fill=MUTED, width=2)
        draw.text((tick, top + 36), f"{25 * quarter}%", fill=INK, font=font(SMALL), anchor="mt")


# -- A Contest ----------------------------------------------------------------------------------

CONTEST_HEIGHT = 430
LANE_LEFT, LANE_RIGHT, LANE_TOP, LANE_STEP, LANE_HEIGHT = 40, 760, 170, 90, 40


def contest_bar(lane: int, chance: float) -> Box:
    """The filled part of the ``lane``-th bar (0 acting wins, 1 stalemate, 2 resisting wins);
    the lane's full length is 100%."""
    top = LANE_TOP + lane * LANE_STEP
    length = round((LANE_RIGHT - LANE_LEFT) * chance)
    return LANE_LEFT, top, LANE_LEFT + length - 1, top + LANE_HEIGHT - 1


class ContestFigures(NamedTuple):
    acting: int
    opposing: int
    difficulty: int
    win: float
    stalemate: float
    lose: float


def contest_chart(odds: ContestOdds, *, acting: int, opposing: int, difficulty: int) -> Chart[ContestFigures]:
    """Both sides' chances and the stalemate's, each a bar on a 0–100% lane, each named."""
    figures = ContestFigures(
        acting, opposing, difficulty, float(odds.win), float(odds.stalemate), float(odds.lose)
    )
    return Chart(CONTEST_CHARTS, figures)


def draw_contest(figures: ContestFigures) -> bytes:
    acting, opposing, difficulty, win, stalemate, lose = figures
    image, draw = card(CONTEST_HEIGHT)
    needs = "any matching set" if difficulty == 1 else f"a Result of {difficulty} or more"
    header(
        draw,
        f"Contest: {count_of(acting, 'die')} vs {count_of(opposing, 'die')}",
        f"The acting side needs {needs}",
    )
    lanes = (
        (f"Acting side ({count_of(acting, 'die')}) wins", win, SUCCESS),
        ("Stalemate", stalemate, STALEMATE),
        (f"Resisting side ({count_of(opposing, 'die')}) wins", lose, FAILURE),
    )
    for lane, (words, chance, colour) in enumerate(lanes):
        top = LANE_TOP + lane * LANE_STEP
        draw.text((LANE_LEFT, top - 8), words, fill=INK, font=font(LABEL), anchor="ls")
        draw.text((LANE_RIGHT, top - 8), percent(chance), fill=INK, font=font(LABEL), anchor="rs")
        draw.rectangle((LANE_LEFT, top, LANE_RIGHT - 1, top + LANE_HEIGHT - 1), fill=TRACK)
        box = contest_bar(lane, chance)
        if box[2] >= box[0]:
            draw.rectangle(box, fill=colour)
    return png(image)


CONTEST_CHARTS = Drawings(draw_contest, keep=128)


def forget_drawings() -> None:
    """Drop every kept picture, so that the next chart of each input is drawn anew (for the
    benchmark of a first drawing; the bot never needs to: the odds never change)."""
    for drawings in (ROLL_CHARTS, TABLE_CHARTS, CONTEST_CHARTS):
        drawings.forget()
