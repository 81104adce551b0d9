"""The dice faces as pictures, drawn here in code: the app's emojis (``bot.workers.emojis``).

Each face (``bot.render.dice.FACES``) is a 128 px square PNG, Discord's size for an emoji: a
rounded die with its pips, drawn four times larger and scaled down so its edges are smooth.
The looks say what the text says in bold, a star and a strike (``PLAIN_LOOKS``):

* a die outside the Result's set: ivory with dark pips;
* a die in the Result's set: amber, so the set that counts stands out;
* a 6 that is a Nudge: mist blue with amber pips and an amber star between them;
* an Extra's 6, which is no Nudge: ivory, as any other die.

Every die has a dark edge, so it reads on Discord's light and dark themes alike. Drawing is
pure and the same every time: the same face gives the same bytes.
"""

import functools
import io

from PIL import Image, ImageDraw

from bot.render.dice import Face

SIZE = 128
"""Discord shows emojis at most 128 px square; a larger upload is only scaled down."""
SCALE = 4
IVORY, AMBER, MIST = (244, 241, 234), (242, 193, 78), (30, 58, 95)
EDGE, PIP = (43, 45, 49), (43, 45, 49)
BODIES = {"die": IVORY, "set": AMBER, "nudge": MIST, "six": IVORY}
PIPS = {"die": PIP, "set": PIP, "nudge": AMBER, "six": PIP}
LOW, MIDDLE, HIGH = 34, 64, 94
SPOTS = {
    1: [(MIDDLE, MIDDLE)],
    2: [(LOW, LOW), (HIGH, HIGH)],
    3: [(LOW, LOW), (MIDDLE, MIDDLE), (HIGH, HIGH)],
    4: [(LOW, LOW), (HIGH, LOW), (LOW, HIGH), (HIGH, HIGH)],
    5: [(LOW, LOW), (HIGH, LOW), (MIDDLE, MIDDLE), (LOW, HIGH), (HIGH, HIGH)],
    6: [(LOW, LOW), (LOW, MIDDLE), (LOW, HIGH), (HIGH, LOW), (HIGH, MIDDLE), (HIGH, HIGH)],
}
"""Where each number's pips sit, in the 128 px square."""
PIP_RADIUS = 11


def _star(centre: tuple[int, int], outer: float, inner: float) -> list[tuple[float, float]]:
    """A four-pointed star (the Nudge's mark, ✦), pointing up, down and to the sides."""
    x, y = centre
    return [
        (x, y - outer),
        (x + inner, y - inner),
        (x + outer, y),
        (x + inner, y + inner),
        (x, y + outer),
        (x - inner, y + inner),
        (x - outer, y),
        (x - inner, y - inner),
    ]


@functools.cache
def face_png(face: Face) -> bytes:
    """The face as a PNG, drawn once per process."""
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    margin, edge = 5 * SCALE, 6 * SCALE
    draw.rounded_rectangle(
        (margin, margin, big - margin, big - margin),
        radius=22 * SCALE,
        fill=BODIES[face.look],
        outline=EDGE,
        width=edge,
    )
    radius = PIP_RADIUS * SCALE
    for x, y in SPOTS[face.number]:
        draw.ellipse(
            (x * SCALE - radius, y * SCALE - radius, x * SCALE + radius, y * SCALE + radius),
            fill=PIPS[face.look],
        )
    if face.look == "nudge":
        draw.polygon(_star((MIDDLE * SCALE, MIDDLE * SCALE), 17 * SCALE, 5 * SCALE), fill=AMBER)
    small = image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()
