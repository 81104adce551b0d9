"""A push or pull declared in detail from the prompt (docs/rulings.md §9.3, §9.10): the declare
prompt's detail menu offers a Steel burner "Push at X…" (an Iron burner "Pull at X…"), and the
form it opens takes what ``/declare`` takes for one — the object's size, where it is (loose, held
or worn by the target, inside their body), whether the pusher is anchored, Traits and a label.

A loose object is an attack with the object as its weapon (``push:``); a held or worn one (or
metal in the body) is a rolled action, the Contest that disarms or knocks down (``held:``,
``inside:``). The form is sent stopped with the turn, the verb and the target in its custom id,
so it works after a restart; its submission builds ``bot.cogs.conflict.turn_build.DeclareForm``
naming the metal, run through the one flow and judged on the fresh state, where a metal no
longer burning is refused.
"""

import re

import discord

from bot.client import Interaction
from bot.cogs.conflict.declare_build import ActionOptions
from bot.cogs.conflict.delivery import run
from bot.cogs.conflict.turn_build import PUSHED_BY, DeclareForm
from bot.errors import BotError
from bot.forms import YES, SentForm
from bot.inputs.circumstances import scene_circumstances
from bot.inputs.forms import typed_traits
from bot.render.buttons import PUSH_FORM
from rules.conflict import ActionKind
from rules.conflict.specs import LABEL_MAX
from rules.powers.pushes import ANCHOR_HEALTH, IN_BODY_OUTCOME, ObjectSize

FORM_ID = re.compile(PUSH_FORM)
TITLE_MAX = 45
"""The longest title Discord gives a form."""
PLACES = ("loose", "held", "inside")
EXAMPLES = {"push": "e.g. flings a horseshoe from the rafters", "pull": "e.g. yanks the lantern post down"}


def push_form(turn: tuple[int, int, int], verb: str, target: tuple[int, str]) -> discord.ui.Modal:
    """The form for a push (``verb`` "push") or pull ("pull") at ``target`` (id, name), sent
    stopped: its submission reaches :func:`on_push_sent`. Five parts, Discord's most."""
    conflict, round_number, who = turn
    pid, name = target
    form = discord.ui.Modal(
        title=f"{verb.capitalize()} at {name}"[:TITLE_MAX],
        custom_id=f"mab:pform:{conflict}:{round_number}:{who}:{verb}:{pid}",
        timeout=None,
    )
    sizes = [
        discord.SelectOption(
            label=f"{size.label} (+{size.bonus})", value=size.value, description=f"e.g. {size.example}"
        )
        for size in ObjectSize
    ]
    sizes[0].default = True
    size = discord.ui.Select[discord.ui.Modal](custom_id="size", options=sizes)
    form.add_item(
        discord.ui.Label(text="The object", description="Its weapon bonus, when loose", component=size)
    )
    places = discord.ui.RadioGroup[discord.ui.Modal](
        custom_id="where",
        required=True,
        options=[
            discord.RadioGroupOption(
                label=f"Loose: {verb}ed at them",
                value="loose",
                description="An attack, the object's bonus in the damage",
                default=True,
            ),
            discord.RadioGroupOption(
                label="Held or worn by them",
                value="held",
                description="A Contest with their Physique or metal: disarms or knocks down, no damage",
            ),
            discord.RadioGroupOption(
                label="Inside their body",
                value="inside",
                description=f"An earring, a spike: moves only on Outcome {IN_BODY_OUTCOME} or more",
            ),
        ],
    )
    form.add_item(discord.ui.Label(text="Where it is", component=places))
    form.add_item(
        discord.ui.Label(
            text="Anchored between heavy objects",
            description=f"Braces the {verb}: costs you {ANCHOR_HEALTH} Health",
            component=discord.ui.Checkbox(custom_id="anchored"),
        )
    )
    traits = discord.ui.TextInput[discord.ui.Modal](
        custom_id="traits", default="0", required=False, max_length=3
    )
    form.add_item(
        discord.ui.Label(text="Traits", description="Net: helping minus hindering", component=traits)
    )
    label = discord.ui.TextInput[discord.ui.Modal](
        custom_id="label", required=False, max_length=LABEL_MAX, placeholder=EXAMPLES[verb]
    )
    form.add_item(discord.ui.Label(text="What you do (optional)", component=label))
    form.stop()
    return form


def _size(text: str) -> ObjectSize:
    try:
        return ObjectSize(text.strip() or ObjectSize.SMALL.value)
    except ValueError:
        raise BotError("The object: pick small, medium or large.") from None


async def on_push_sent(interaction: Interaction, sent: SentForm) -> None:
    """A sent push form: the declaration ``/declare stat:Steel push:… held:… inside:…
    anchored:…`` would make (docs/rulings.md §9.3)."""
    found, values = sent.found, sent.values
    where = values.get("where", "").strip() or "loose"
    if where not in PLACES:
        raise BotError("Where it is: pick loose, held or inside.")
    held = where != "loose"
    options = ActionOptions(
        kind=ActionKind.ACTION if held else ActionKind.ATTACK,
        push=None if held else _size(values.get("size", "")),
        held=held,
        inside=where == "inside",
        anchored=values.get("anchored") == YES,
        traits=typed_traits(values.get("traits", "")),
        label=values.get("label", "").strip() or None,
        scene_circumstances=(await scene_circumstances(interaction)).net,
    )
    metal = PUSHED_BY[found["verb"]]
    move = DeclareForm(int(found["round"]), int(found["who"]), options, int(found["target"]), metal=metal)
    await run(interaction, move, title="Declared", conflict_id=int(found["conflict"]))
