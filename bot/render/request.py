"""Cards of the Narrator's requests for rolls (docs/rulings.md §6.13), and the private pool
preview (an embed: it is a form's preview, edited in place as the roller chooses).

The request's message says what was asked and, for each roller, whether they have rolled: the
Narrator sees at a glance who still must. A secret request shows only *that* someone rolled;
its figures go to the Narrators. Names and suggestions are user text, made inert here.
"""

from collections.abc import Sequence

import discord

from bot.render.cards import INFO, NEUTRAL, SUCCESS, Card, Row, card, line
from bot.render.common import TITLE_LIMIT, add_field, clip, fit, plain
from bot.render.dice import faces_in_use, faces_text, pool_breakdown
from rules.contest import Side
from rules.outcome import difficulty_name
from rules.pool import Pool
from rules.request import RequestKind, Roller, RollRequest
from rules.roll import Reading
from rules.words import count_of

WAITING = "⏳"
ROLLED = "🎲"


def asked(request: RollRequest) -> str:
    """What the request asks, in one line: "Charm, Difficulty 3 (Challenging)"."""
    spec = request.spec
    stat = plain(spec.stat)
    if request.kind is RequestKind.CONTEST:
        against = (
            plain(spec.opposing_stat) if spec.opposing_stat else count_of(spec.opposing_dice or 0, "die")
        )
        return f"a Contest: {stat} against {against}, Difficulty {spec.difficulty}"
    return f"{stat}, Difficulty {spec.difficulty} ({difficulty_name(spec.difficulty)})"


def _line(roller: Roller, request: RollRequest) -> str:
    """A roller's line: waiting, or rolled. A secret request shows only *that* they rolled, and
    so does a Contest until every roller of both sides has (docs/rulings.md §6.13); a decided
    Contest shows each roll's Result, which is what the sides compare."""
    name = f"**{plain(roller.name)}**"
    if roller.reading is None:
        return f"{WAITING} {name}: not rolled yet"
    contest = request.kind is RequestKind.CONTEST
    if request.spec.secret or (contest and not request.complete):
        return f"{ROLLED} {name}: rolled"
    reading = roller.reading
    if contest:
        return f"{ROLLED} {name}: Result {reading.result}"
    verdict = "success" if reading.success else "failure"
    return f"{ROLLED} {name}: Outcome {reading.outcome:+d} ({verdict}), Result {reading.result}"


def request_card(request: RollRequest, rows: Sequence[Row] = ()) -> Card:
    """The request as the channel sees it, with who has rolled and who has not, and ``rows`` of
    its buttons."""
    spec = request.spec
    accent = NEUTRAL if request.closed else SUCCESS if request.complete else INFO
    title = "The Narrator asks for " + ("a Contest" if request.kind is RequestKind.CONTEST else "a roll")
    asks = []
    if spec.traits:
        asks.append(line("Suggested Traits", plain(spec.traits)))
    if spec.circumstances or spec.circumstance_dice:
        net = f"{spec.circumstance_dice:+d} die" if spec.circumstance_dice else "No die either way"
        note = f": {plain(spec.circumstances)}" if spec.circumstances else ""
        asks.append(line("Circumstances (the Narrator's)", net + note))
    sides = [(Side.ACTING, "Acting side" if request.kind is RequestKind.CONTEST else "Rolls")]
    if request.kind is RequestKind.CONTEST:
        sides.append((Side.OPPOSING, "Resisting side"))
    blocks = ["\n".join(asks)]
    for side, label in sides:
        blocks.append("\n".join([f"**{label}**", *(_line(r, request) for r in request.side(side))]))
    notes = []
    if spec.secret:
        notes.append("Secret: the results go to the Narrators only.")
    if request.closed:
        waiting = [plain(r.name) for r in request.rollers if not r.rolled]
        notes.append("Closed" + (f"; never rolled: {', '.join(waiting)}." if waiting else "."))
    elif request.complete:
        notes.append("Everyone has rolled.")
    else:
        notes.append("Each player presses their button to roll.")
    return card(
        title, accent=accent, lead=f"Roll {asked(request)}.", blocks=blocks, note=" ".join(notes), rows=rows
    )


def request_content(request: RollRequest) -> str:
    """The line that pings the players asked (only them: the caller's allowed_mentions say so),
    while some are still to roll; a closed or finished request asks nobody any more."""
    if request.closed:
        return f"Closed: the Narrator's request to roll {asked(request)}."
    if request.complete:
        return f"Everyone has rolled {asked(request)}."
    users = list(dict.fromkeys(r.user_id for r in request.rollers if not r.rolled))
    pings = " ".join(f"<@{user}>" for user in users)
    return f"{pings} the Narrator asks you to roll {asked(request)}.".strip()


def pool_embed(roller: Roller, request: RollRequest, pool: Pool, extra: bool) -> discord.Embed:
    """The private preview of a roller's pool while they choose Traits, Tools and Circumstances."""
    difficulty = request.spec.difficulty if roller.side is Side.ACTING else None
    title = f"{roller.name}: {count_of(pool.dice, 'die')}"
    embed = discord.Embed(title=fit(plain(title), TITLE_LIMIT), colour=INFO)
    embed.description = pool_breakdown(pool)
    if difficulty is not None:
        add_field(embed, "Difficulty", f"{difficulty} ({difficulty_name(difficulty)})")
    if request.spec.traits and roller.side is Side.ACTING:  # suggested for the side that acts
        add_field(embed, "The Narrator suggests", clip(plain(request.spec.traits), 1024))
    if extra:
        embed.set_footer(text="An Extra: no Nudges.")
    return embed


def contest_roll_card(reading: Reading, *, title: str, roller: Roller) -> Card:
    """A roller's own roll in a Contest, privately: its Result and dice, never "Success" or an
    Outcome, which only the Contest decides once every roller has rolled (docs/rulings.md §3)."""
    nudges = "no Nudges (an Extra)" if reading.extra else count_of(reading.tiebreak_nudges, "Nudge")
    text = f"Result {reading.result}, {nudges}"
    if roller.side is Side.ACTING:
        meets = "meets" if reading.success else "does not meet"
        text += f"; it {meets} the Difficulty of {reading.difficulty}"
    return card(
        fit(plain(title), TITLE_LIMIT),
        accent=INFO,
        byline=fit(plain(roller.name), TITLE_LIMIT),
        lead=f"{text}. The Contest is decided once both sides have rolled.",
        blocks=[
            line("Pool", pool_breakdown(reading.pool))
            + "\n"
            + line("Dice", faces_text(reading, faces_in_use()))
        ],
    )
