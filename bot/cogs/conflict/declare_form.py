"""Declaring in detail from the prompt (docs/rulings.md §4.3–§4.5, §4.21): the declare prompt's
menu names the action, and the form it opens takes what ``/declare`` takes besides — the
Attribute or Power, net Traits, the Tool, the target's Burdens, a Keeper's tap, the task (for a
sheet with Powers, when the label still fits, §9.10) and a label.

The menu is a ``DynamicItem`` naming the turn, and the form is sent stopped with the turn and
the action in its custom id, so both work after a restart; the form builds
``bot.cogs.conflict.turn_build.DeclareForm`` and runs it through the one flow, judged on the
fresh state like every turn button. The Burdens offered are the ones the caller may count: a
Hero's to anyone, a Narrator's character's to a Narrator only (docs/rulings.md §7.1).
"""

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.clicks import NOT_OFFERED, first_picked, offered_id
from bot.client import Interaction
from bot.cogs.conflict.declare_build import ActionOptions
from bot.cogs.conflict.delivery import run
from bot.cogs.conflict.push_form import push_form
from bot.cogs.conflict.turn_build import (
    OUT_OF_FIGHT,
    PUSHED_BY,
    DeclareForm,
    kind_stat,
    require_burning,
    turn_mover,
)
from bot.errors import BotError
from bot.forms import SentForm
from bot.inputs.circumstances import scene_circumstances
from bot.inputs.forms import typed_traits
from bot.inputs.pools import typed_tap
from bot.render.buttons import DECLARE_DETAIL, DECLARE_FORM, OPTION_MAX, PUSH_PICK, declare_detail_select
from bot.served import channel_id_of, guild_id_of
from bot.workers.board_state import stored_board
from rules.character import Character, CharacterKind
from rules.character.feruchemy import Metalmind
from rules.character.metals import Task
from rules.character.stats import rollable_names
from rules.conflict import ActionKind, Conflict
from rules.conflict.specs import LABEL_MAX
from rules.errors import RulesError

FORM_ID = re.compile(DECLARE_FORM)
KINDS: dict[str, ActionKind] = {
    "attack": ActionKind.ATTACK,
    "action": ActionKind.ACTION,
    "defence": ActionKind.FULL_DEFENCE,
    "noroll": ActionKind.NO_ROLL,
}
TITLES = {"attack": "Attack", "action": "Action", "defence": "Full defence", "noroll": "No roll"}
FORM_ITEMS = 5
"""The most a Discord form holds."""
TASK_ROOM = FORM_ITEMS - 1
"""The task menu comes only while the label still fits after it (Burdens and a tap come first)."""
TASK_HINT = "What it leans on, for the Powers that help it (as /declare task:)"
TOOLS = (("No Tool", "0"), ("A Tool that helps (+1)", "1"), ("A Tool that hinders (−1)", "-1"))


def _menu(custom_id: str, options: list[discord.SelectOption], many: bool = False) -> Any:
    return discord.ui.Select[discord.ui.Modal](
        custom_id=custom_id,
        required=many is False,
        min_values=0 if many else 1,
        max_values=len(options) if many else 1,
        options=options,
    )


def declare_form(
    turn: tuple[int, int, int], choice: str, mover: Character | None, stat: str, burdens: tuple[str, ...]
) -> discord.ui.Modal:
    """The form for ``choice`` (``attack:<id>`` or a kind), sent stopped: its submission reaches
    :func:`on_declare_sent`. A no-roll action takes a label only."""
    conflict, round_number, who = turn
    kind, _, target = choice.partition(":")
    form = discord.ui.Modal(
        title=TITLES[kind],
        custom_id=f"mab:dform:{conflict}:{round_number}:{who}:{kind}" + (f":{target}" if target else ""),
        timeout=None,
    )
    if kind != "noroll":
        names = rollable_names(mover)[:OPTION_MAX] if mover is not None else [stat]
        stats = [discord.SelectOption(label=n[:100], value=n[:100], default=n == stat) for n in names]
        form.add_item(discord.ui.Label(text="Roll with", component=_menu("stat", stats)))
        traits = discord.ui.TextInput[discord.ui.Modal](
            custom_id="traits", default="0", required=False, max_length=3
        )
        form.add_item(
            discord.ui.Label(text="Traits", description="Net: helping minus hindering", component=traits)
        )
        tools = [discord.SelectOption(label=label, value=v, default=v == "0") for label, v in TOOLS]
        form.add_item(discord.ui.Label(text="Tool", component=_menu("tool", tools)))
    if burdens:
        options = [discord.SelectOption(label=b[:100], value=str(i)) for i, b in enumerate(burdens)]
        form.add_item(
            discord.ui.Label(
                text="Their Burdens that help you", component=_menu("burdens", options[:OPTION_MAX], True)
            )
        )
    if kind != "noroll" and mover is not None and taps(mover):
        tap = discord.ui.TextInput[discord.ui.Modal](
            custom_id="tap", required=False, max_length=40, placeholder=f"e.g. {taps(mover)[0]} 10 outcome"
        )
        description = "Metal and charges; add nudges or outcome to buy those, not its effect"
        form.add_item(
            discord.ui.Label(text="Tap a metalmind (optional)", description=description, component=tap)
        )
    if kind != "noroll" and mover is not None and leans_on_powers(mover) and len(form.children) < TASK_ROOM:
        form.add_item(discord.ui.Label(text="Task (optional)", description=TASK_HINT, component=_task_menu()))
    if len(form.children) < FORM_ITEMS:  # a Keeper's tap takes the label's place beside Burdens
        label = discord.ui.TextInput[discord.ui.Modal](
            custom_id="label", required=False, max_length=LABEL_MAX, placeholder="e.g. leaps for the rafters"
        )
        form.add_item(discord.ui.Label(text="What you do (optional)", component=label))
    form.stop()
    return form


def _task_menu() -> Any:
    options = [discord.SelectOption(label=task.label.capitalize(), value=task.value) for task in Task]
    return discord.ui.Select[discord.ui.Modal](
        custom_id="task", required=False, min_values=0, max_values=1, options=options
    )


def leans_on_powers(mover: Character) -> bool:
    """Whether a task could change the mover's dice: a sheet with Powers, spikes or Blessings
    (docs/rulings.md §9.10); the form offers one then, when the label still fits after it."""
    return bool(mover.powers or mover.hemalurgy.spikes or mover.hemalurgy.blessings)


def taps(mover: Character) -> list[str]:
    """The metals of the mover's metalminds that hold charges: a Keeper's form offers a tap
    (docs/rulings.md §9.4)."""
    held = (p.implement for p in mover.props if isinstance(p.implement, Metalmind) and p.implement.charges)
    return list(dict.fromkeys(mind.metal for mind in held))


def countable_burdens(
    state: Conflict, sheets: Mapping[int, Character], target: int, narrator: bool
) -> tuple[str, ...]:
    """The target's Burdens the caller may count toward a roll (docs/rulings.md §7.1)."""
    aimed, sheet = state.find(target), sheets.get(target)
    if aimed is None or sheet is None or not (narrator or aimed.kind is CharacterKind.HERO):
        return ()
    return tuple(b.name for b in sheet.burdens)


class DeclareDetailSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=DECLARE_DETAIL):
    """The action to declare in detail: opens its form (a push or pull, the push form)."""

    def __init__(
        self, conflict: int, round_number: int, who: int, targets: tuple[tuple[int, str], ...] = ()
    ) -> None:
        super().__init__(declare_detail_select(conflict, round_number, who, targets))
        self.conflict, self.round, self.who = conflict, round_number, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DeclareDetailSelect":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        choice = first_picked(interaction, "action")
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        if found is None or found[0].id != self.conflict or found[1].conflict is None:
            raise BotError("That Conflict has ended.")
        state, sheets = found[1].conflict, found[1].sheets
        who = await caller(interaction)
        mover = turn_mover(state, sheets, who, "declare", self.round, self.who)
        turn = (self.conflict, self.round, self.who)
        if (pushing := PUSH_PICK.fullmatch(choice)) is not None:
            aimed = state.find(int(pushing["target"]))
            if aimed is None or aimed.defeated:
                raise RulesError(OUT_OF_FIGHT)
            require_burning(mover.name, sheets.get(mover.id), PUSHED_BY[pushing["verb"]])
            await replies.send_modal(interaction, push_form(turn, pushing["verb"], (aimed.id, aimed.name)))
            return
        kind, _, target = choice.partition(":")
        if kind not in TITLES:
            raise BotError(NOT_OFFERED)
        burdens = countable_burdens(state, sheets, offered_id(target), who.narrator) if target else ()
        form = declare_form(turn, choice, sheets.get(mover.id), kind_stat(state), burdens)
        await replies.send_modal(interaction, form)


def _task(text: str) -> Task | None:
    try:
        return Task(text.strip()) if text.strip() else None
    except ValueError:
        raise BotError("Task: pick one from the menu, or none.") from None


async def on_declare_sent(interaction: Interaction, sent: SentForm) -> None:
    """A sent declare form: the declaration ``/declare`` would make with those options."""
    found, values = sent.found, sent.values
    kind = KINDS[str(found["choice"])]
    tool = values.get("tool", "").strip()
    options = ActionOptions(
        kind=kind,
        stat=None if kind is ActionKind.NO_ROLL else values.get("stat", "").strip() or None,
        traits=typed_traits(values.get("traits", "")),
        tool=int(tool) if tool in ("-1", "1") else 0,
        label=values.get("label", "").strip() or None,
        scene_circumstances=(await scene_circumstances(interaction)).net,
        tap=typed_tap(values.get("tap", "")),
        task=_task(values.get("task", "")),
    )
    burdens = tuple(int(i) for i in values.get("burdens", "").split() if i.isdecimal())
    target = int(found["target"]) if found["target"] else None
    move = DeclareForm(int(found["round"]), int(found["who"]), options, target, burdens)
    await run(interaction, move, title="Declared", conflict_id=int(found["conflict"]))
