"""Cards for rolls, Contests and odds (``bot/render/cards.py``).

Labels and names are user text: each is made inert here (``plain``), in headings and the
roller's line too, before it is clipped (``fit`` never cuts an escape in half).
"""

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from bot.render.cards import FAILURE, INFO, NEUTRAL, SUCCESS, Card, card, line
from bot.render.common import TITLE_LIMIT, fit, percent, plain
from rules.contest import ContestResult, Decision, Side
from rules.odds import ContestOdds, Odds
from rules.outcome import difficulty_name
from rules.pool import Pool, Source
from rules.roll import CATCH_A_BEAT, Reading
from rules.words import count_of, says


def pool_breakdown(pool: Pool) -> str:
    """ "Physique 4 + 2 Traits + Tool = 7", then what that means at the table."""
    parts = [f"{plain(c.label)} {c.dice}" for c in pool.contributions[:1]]
    for c in pool.contributions[1:]:
        sign = "+" if c.dice > 0 else "−"
        counted = c.source in (Source.TRAIT, Source.TOOL, Source.CIRCUMSTANCE)
        parts.append(f"{sign} {plain(c.label)}" if counted else f"{sign} {plain(c.label)} {abs(c.dice)}")
    text = " ".join(parts) + f" = **{pool.total}**"
    if pool.free_nudges:
        text += f"\nRolls 10 dice with {count_of(pool.free_nudges, 'free Nudge')}."
    elif pool.underflow:
        text += f"\nRolls 2 dice; Outcome worsens by {pool.underflow}."
    return text


Look = Literal["die", "set", "nudge", "six"]
"""How one face shows: a die outside the Result's set, one in it, a 6 that is a Nudge, and an
Extra's 6, which is none (docs/rulings.md §2.1, §2.11)."""
PLAIN_LOOKS: dict[Look, str] = {"die": "{n}", "set": "**{n}**", "nudge": "6✦", "six": "~~6~~"}
"""Each look in text: the Result's set in bold, a Nudge marked, an Extra's 6 struck."""
EMOJI_VERSION = 1
"""Part of each face's emoji name: a new drawing of the faces takes a new number, so its
emojis are uploaded beside the old ones rather than mistaken for them."""


@dataclass(frozen=True, slots=True)
class Face:
    """One die as a roll shows it: its number and its look."""

    number: int
    look: Look

    @property
    def plain(self) -> str:
        return PLAIN_LOOKS[self.look].format(n=self.number)

    @property
    def emoji_name(self) -> str:
        """The app's emoji for this face ("mab1_d3_set"): 2-32 letters, digits and underscores."""
        look = "" if self.look == "die" else f"_{self.look}"
        return f"mab{EMOJI_VERSION}_d{self.number}{look}"


FACES: tuple[Face, ...] = (
    *(Face(n, "die") for n in range(1, 6)),
    *(Face(n, "set") for n in range(1, 6)),
    Face(6, "nudge"),
    Face(6, "six"),
)
"""Every face a roll can show: 1-5 in or out of the Result's set (a 6 never counts in it), and
the 6 as a Nudge or as an Extra's."""


def face_of(number: int, reading: Reading) -> Face:
    if number == 6:
        return Face(6, "six" if reading.extra else "nudge")
    return Face(number, "set" if number == reading.result else "die")


_FACE_AT = {(face.number, face.look): face for face in FACES}


@dataclass(frozen=True)
class DiceFaces:
    """How faces are written: the app's own emojis (``<:mab1_d3:…>``) where it has them,
    else as text (:data:`PLAIN_LOOKS`)."""

    emojis: Mapping[Face, str] = field(default_factory=dict)
    written: Mapping[tuple[int, Look], str] = field(init=False, repr=False, compare=False)
    """Each face as written, by number and look, worked out once (a roll writes its dice twice)."""

    def __post_init__(self) -> None:
        written = {at: self.write(face) for at, face in _FACE_AT.items()}
        object.__setattr__(self, "written", written)

    def write(self, face: Face) -> str:
        return self.emojis.get(face, face.plain)


PLAIN_FACES = DiceFaces()
_in_use = PLAIN_FACES


def use_faces(faces: DiceFaces) -> None:
    """Set how this process's cards write dice (``bot.workers.emojis`` at start): the app's
    emojis are the same in every server and DM, so this is one value for the whole process,
    read where a card for Discord is drawn (:func:`faces_in_use`), never by the journal, the
    web view or the console, which write text."""
    global _in_use
    _in_use = faces


def faces_in_use() -> DiceFaces:
    return _in_use


def faces_text(reading: Reading, faces: DiceFaces = PLAIN_FACES) -> str:
    """The dice as thrown: the Result's set in bold, 6s marked as Nudges (struck for Extras), or
    each as the app's emoji for it (``faces``)."""
    written, result = faces.written, reading.result
    six: Look = "six" if reading.extra else "nudge"
    return " ".join(
        written[number, six if number == 6 else "set" if number == result else "die"]
        for number in reading.faces
    )


_TOKEN = r"(?:\*\*[1-5]\*\*|[1-5]|6✦|~~6~~)"
_JOURNALED = re.compile(
    rf": (?P<dice>{_TOKEN}(?: {_TOKEN})*)"
    r" (?P<tail>\((?:Result \d+|no matching set), (?:success|failure), Outcome [+-]\d+\)(?: \(secret\))?)$"
)
_BY_PLAIN = {face.plain: face for face in FACES}


def with_faces(line: str, faces: DiceFaces) -> str:
    """A journal's roll line ("Vin rolled Wits: **3** **3** 1 (Result 3, …)", written in text by
    ``bot.records``) with its dice written as ``faces`` write them: for the recap card.
    Only the dice just before the line's closing figures are read as dice, so digits in a
    label never are."""
    found = _JOURNALED.search(line)
    if found is None or not faces.emojis:
        return line
    dice = " ".join(faces.write(_BY_PLAIN[token]) for token in found["dice"].split(" "))
    return f"{line[: found.start()]}: {dice} {found['tail']}"


def verdict(reading: Reading) -> str:
    """The matched set is shown even on a failure (it is what the dice say), with a word that
    the Outcome counts it as 0 (docs/rulings.md §2.5)."""
    if reading.success:
        return f"Success — Result {reading.result} vs Difficulty {reading.difficulty}"
    if not reading.has_set:
        return f"Failure — no matching set (Difficulty {reading.difficulty})"
    return (
        f"Failure — Result {reading.result} vs Difficulty {reading.difficulty}; "
        "a failed roll counts as Result 0 for the Outcome"
    )


def pool_shown(reading: Reading, hidden: bool) -> str:
    """THE rule of what a roll shows of its pool: the breakdown from the ratings, or, for a
    Narrator's hidden Villain or Extra, only the dice thrown, as a Conflict and a request show
    them (docs/rulings.md §7.1)."""
    return count_of(len(reading.faces), "die") if hidden else pool_breakdown(reading.pool)


def nudges_text(reading: Reading, hidden: bool = False) -> str:
    """``hidden``: free Nudges come from a pool above 10, so a hidden roller's are not told
    apart from the rolled ones (:func:`pool_shown`)."""
    if reading.extra:
        return "None: Extras get no Nudges."
    if not reading.success:
        return f"{reading.sixes} rolled; on a failure they only cancel Complications."
    text = str(reading.nudges)
    if reading.free_nudges and not hidden:
        text += f" ({reading.rolled_nudges} rolled + {reading.free_nudges} free)"
    if reading.can_catch_beat:
        text += "\nEnough to catch a Beat: spend them all for an extra action now."
    elif reading.free_nudges and reading.nudges >= CATCH_A_BEAT and not hidden:
        text += "\nOnly rolled 6s catch a Beat; free Nudges are perks only."
    return text


def _cancelled(reading: Reading) -> str:
    """ " (1 cancelled by Nudges)": what the rolled 6s of a failure took off (docs/rulings.md §2.7)."""
    cancelled = reading.cancelled_complications
    return f" ({cancelled} cancelled by Nudges)" if cancelled else ""


def complications_text(reading: Reading) -> str:
    text = str(reading.complications) + _cancelled(reading)
    if reading.group_complication:
        text += "\nOr one Complication for you and every ally nearby."
    return text


def outcome_text(reading: Reading) -> str:
    """A roll's Outcome and Complications in one line, as the roll embed's fields read them:
    "Outcome −2, Unfortunate: 1 Complication (1 cancelled by Nudges)" (docs/rulings.md §2.5–2.7).

    A Conflict's action nobody resisted is read this way too (§3.5), so it never disagrees
    with ``/roll``.
    """
    text = f"Outcome {reading.outcome:+d}, {reading.outcome_name}"
    if reading.complications or reading.cancelled_complications:
        text += f": {count_of(reading.complications, 'Complication')}{_cancelled(reading)}"
    if reading.group_complication:
        text += ", or one for the roller and every ally nearby"
    return text


def reading_card(
    reading: Reading,
    *,
    title: str,
    roller: str | None = None,
    circumstances: str | None = None,
    note: str | None = None,
    hidden: bool = False,
) -> Card:
    """A roll read out; ``title`` is the label as typed (or "Vin: Physique"), ``roller`` whose
    roll it is (user text, made inert here). The accent says success or failure. ``hidden``: the
    roller is a Narrator's secret character, shown to the table by :func:`pool_shown`."""
    outcome = [
        line("Outcome", f"{reading.outcome:+d} — {reading.outcome_name}"),
        line("Nudges", nudges_text(reading, hidden)),
    ]
    if reading.complications or reading.cancelled_complications:
        outcome.append(line("Complications", complications_text(reading)))
    return card(
        fit(plain(title), TITLE_LIMIT),
        accent=SUCCESS if reading.success else FAILURE,
        byline=fit(plain(roller), TITLE_LIMIT) if roller else None,
        lead=verdict(reading),
        blocks=[
            line("Pool", pool_shown(reading, hidden))
            + "\n"
            + line("Dice", faces_text(reading, faces_in_use())),
            "\n".join(outcome),
            line("Circumstances", circumstances) if circumstances else "",
        ],
        note=note,
    )


DECISIONS = {
    Decision.UNDEFENDED: "Undefended: a matching set that meets the Difficulty is enough.",
    Decision.FAILED_OUTRIGHT: "{acting}'s action failed outright (no set, or short of the Difficulty).",
    Decision.RESULT: "Settled by the higher Result.",
    Decision.NUDGES: "Equal Results: settled by Nudges.",
    Decision.STALEMATE: "Equal Results and Nudges: stalemate, it carries into the next Beat.",
}


ACTING_SIDE, OPPOSING_SIDE = "Acting side", "Opposing side"
"""The sides of a Contest between bare pools, which no name tells apart."""


def decision_text(decided_by: Decision, acting: str) -> str:
    """How the Contest was settled; a failure outright names whose action failed (``acting``,
    already made inert, or "Acting side")."""
    text = DECISIONS[decided_by]
    if decided_by is Decision.FAILED_OUTRIGHT:
        owner = "The acting side" if acting == ACTING_SIDE else acting
        text = text.replace("{acting}", owner)
    return text


def contest_card(
    contest: ContestResult,
    *,
    acting: str,
    opposing: str,
    hidden: Collection[Side] = (),
    many: tuple[bool, bool] = (False, False),
    circumstances: str | None = None,
) -> Card:
    """A Contest; ``acting`` and ``opposing`` are the sides' names as typed, or
    :data:`ACTING_SIDE` and :data:`OPPOSING_SIDE` for bare pools (docs/rulings.md §8.1). A side in
    ``hidden`` is a Narrator's secret character: its name and the dice it threw, never the
    ratings its pool came from (:func:`pool_shown`). ``many`` says which side is a group or
    several rollers, so it wins in the plural (§8.2). The accent is the acting side's: success
    when it wins, failure when it loses, neutral on a stalemate."""
    if contest.winner is None:
        title, accent = "Stalemate", NEUTRAL
    else:
        won = contest.winner is Side.ACTING
        name = acting if won else opposing
        title = says(plain(name), "wins", many[0] if won else many[1])
        accent = SUCCESS if won else FAILURE
    blocks = []
    for side, name, reading in (
        (Side.ACTING, acting, contest.acting),
        (Side.OPPOSING, opposing, contest.opposing),
    ):
        if reading is None:
            continue
        nudges = 0 if reading.extra else reading.tiebreak_nudges
        pool = pool_shown(reading, side in hidden)
        result = f"Result {reading.result} · Nudges {nudges}"
        dice = faces_text(reading, faces_in_use())
        blocks.append(f"**{fit(plain(name), TITLE_LIMIT)}**\n{pool}\n{dice}\n{result}")
    if circumstances:
        blocks.append(line("Circumstances", circumstances))
    return card(
        fit(title, TITLE_LIMIT),
        accent=accent,
        lead=decision_text(contest.decided_by, plain(acting)),
        blocks=blocks,
        note=f"Contest Outcome {contest.outcome}",
    )


CHART = "odds.png"
"""The chart's file name, as the card's gallery names it (``attachment://odds.png``)."""


def odds_card(odds: Odds) -> Card:
    title = (
        f"{count_of(odds.dice, 'die')} vs Difficulty {odds.difficulty} ({difficulty_name(odds.difficulty)})"
    )
    facts = []
    if odds.free_nudges:
        facts.append(line("Free Nudges", str(odds.free_nudges)))
    if odds.underflow:
        facts.append(line("Outcome penalty", f"−{odds.underflow}"))
    facts.append(line("Catch a Beat", percent(float(odds.catch_a_beat))))
    facts.append(line("Expected Complications", f"{float(odds.expected_complications):.2f}"))
    outcomes = [f"`{o:+d}` {percent(float(p))}" for o, p in odds.outcomes.items()]
    return card(
        title,
        accent=INFO,
        lead=f"Chance of success: **{percent(float(odds.success))}**",
        blocks=["\n".join(facts), "**Outcomes:**\n" + "\n".join(outcomes)],
        image=CHART,
        note="Exact odds, not a simulation.",
    )


def odds_table_card(table: dict[int, dict[int, Fraction]]) -> Card:
    """The full table as one short line per pool (a phone shows no wide table): its chances at
    Difficulty 1 to 5, in order; the chart shows the same as a grid."""
    rows = [
        f"**{count_of(dice, 'die')}:** " + " · ".join(percent(float(p)) for p in row.values())
        for dice, row in table.items()
    ]
    return card(
        "Chance of success",
        accent=INFO,
        lead="Each line: a pool against Difficulty 1, 2, 3, 4 and 5.",
        blocks=["\n".join(rows)],
        image=CHART,
        note="Exact odds.",
    )


def contest_odds_card(odds: ContestOdds, *, acting: int, opposing: int, difficulty: int) -> Card:
    title = f"Contest: {count_of(acting, 'die')} vs {count_of(opposing, 'die')}"
    lead = f"The acting side needs a Result of {difficulty} or more." if difficulty > 1 else ""
    chances = [
        line("Win", percent(float(odds.win))),
        line("Lose", percent(float(odds.lose))),
        line("Stalemate", percent(float(odds.stalemate))),
    ]
    return card(title, accent=INFO, lead=lead, blocks=["\n".join(chances)], image=CHART)
