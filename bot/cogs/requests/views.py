"""The components of a request: its message's buttons, and each roller's private pool builder.

Everything a click needs is in its custom id (the request, the roller's place in it, and the
choices made so far), so a request's buttons and a half-built pool keep working after a restart
with nothing kept in memory. The handlers that read these ids back live in ``buttons``.
"""

from dataclasses import dataclass, replace

import discord

from bot.render.cards import Layout, button_rows, card_view
from bot.render.request import request_card, request_content
from rules.character import Character
from rules.request import RollRequest
from rules.words import count_of

ROLL = "mab:rq:{request}:{position}"
CLOSE = "mab:rqx:{request}"
RESULTS = "mab:rqv:{request}"
SELECT = "mab:rqs:{request}:{position}:{part}:{choice}"
GO = "mab:rqg:{request}:{position}:{choice}"
CHOICE = r"(?P<mask>\d+)\.(?P<tool>-1|0|1)\.(?P<circ>-1|0|1)"
NETS = {1: "+1", 0: "0", -1: "-1"}
TOOLS = {0: "No Tool", 1: "A fitting Tool (+1 die)", -1: "A missing or broken Tool (−1 die)"}


@dataclass(frozen=True)
class Choice:
    """What a roller chose for their pool so far: which of their Traits help (a bit each, in
    :func:`trait_slots` order), a Tool and Circumstances (−1, 0 or +1 each)."""

    mask: int = 0
    tool: int = 0
    circumstances: int = 0

    def text(self) -> str:
        return f"{self.mask}.{self.tool}.{self.circumstances}"

    @classmethod
    def parse(cls, mask: str, tool: str, circumstances: str) -> "Choice":
        return cls(int(mask), int(tool), int(circumstances))

    def traits(self, slots: list[str]) -> list[str]:
        return [slot for i, slot in enumerate(slots) if self.mask >> i & 1]


def trait_slots(character: Character | None) -> list[str]:
    """The Traits a roller may pick as helping, in a fixed order: the five named ones that are
    filled, then the extras (docs/rulings.md §1: +1 die per helping Trait)."""
    if character is None:
        return []
    traits = character.traits
    named = [traits.drive, traits.profession, traits.specialty, traits.feature, traits.personality]
    return [t for t in (*named, *traits.extras) if t][:25]


def request_buttons(request: RollRequest) -> list[discord.ui.Button[Layout]]:
    """A roll button per roller who has not rolled, the Narrator's Close, and for a secret
    request the Narrators' Results; none once the request is closed."""
    if request.closed:
        return []
    buttons = [
        discord.ui.Button[Layout](
            label=f"Roll — {roller.name}"[:80],
            style=discord.ButtonStyle.primary,
            custom_id=ROLL.format(request=request.id, position=roller.position),
        )
        for roller in request.rollers
        if not roller.rolled
    ]
    if request.spec.secret:
        buttons.append(
            discord.ui.Button[Layout](
                label="Results (Narrators)", custom_id=RESULTS.format(request=request.id)
            )
        )
    buttons.append(
        discord.ui.Button[Layout](
            label="Close", style=discord.ButtonStyle.secondary, custom_id=CLOSE.format(request=request.id)
        )
    )
    return buttons


def request_message(request: RollRequest) -> Layout:
    """The request's message: the line that pings who must still roll, above its card with the
    buttons inside (at most 20 rollers: 22 buttons, 35 components of Discord's 40)."""
    rows = button_rows(request_buttons(request))
    return card_view(request_card(request, rows), ping=request_content(request))


def builder_view(
    request: RollRequest, position: int, slots: list[str], choice: Choice, dice: int
) -> discord.ui.View:
    """The private pool builder: Traits (several) and a Tool, then Roll. Circumstances are the
    Narrator's, set on the request (docs/rulings.md §1.6), so the builder offers none."""
    view = discord.ui.View(timeout=None)

    def select_id(part: str) -> str:
        return SELECT.format(request=request.id, position=position, part=part, choice=choice.text())

    if slots:
        traits = discord.ui.Select[discord.ui.View](
            custom_id=select_id("t"),
            placeholder="Traits that help (+1 die each)",
            min_values=0,
            max_values=len(slots),
            options=[
                discord.SelectOption(label=slot[:100], value=str(i), default=bool(choice.mask >> i & 1))
                for i, slot in enumerate(slots)
            ],
        )
        view.add_item(traits)
    for part, placeholder, names, current in (("o", "Tool", TOOLS, choice.tool),):
        view.add_item(
            discord.ui.Select[discord.ui.View](
                custom_id=select_id(part),
                placeholder=placeholder,
                options=[
                    discord.SelectOption(label=label, value=NETS[net], default=net == current)
                    for net, label in names.items()
                ],
            )
        )
    go = GO.format(request=request.id, position=position, choice=choice.text())
    label = f"Roll {count_of(dice, 'die')}"
    view.add_item(discord.ui.Button(label=label, style=discord.ButtonStyle.success, custom_id=go))
    return view


def chose(choice: Choice, part: str, values: list[str]) -> Choice:
    """The choice after a select: ``t`` the helping Traits, ``o`` the Tool, ``c`` Circumstances."""
    if part == "t":
        return replace(choice, mask=sum(1 << int(v) for v in values if v.isdecimal() and int(v) < 25))
    net = int(values[0]) if values and values[0] in NETS.values() else 0
    return replace(choice, tool=net) if part == "o" else replace(choice, circumstances=net)
