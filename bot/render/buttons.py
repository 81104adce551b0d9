"""How a Conflict's buttons look: their custom ids, labels and styles.

The look is drawn here, apart from what a click does (the ``DynamicItem``s of
``bot.cogs.conflict``, which parse these ids with the templates below), so the move service and
the board put the buttons on what they compose without calling up into the cog. A view drawn
here is sent *stopped*: discord.py keeps nothing for it, and a click reaches the cog's
``DynamicItem`` by its custom id, before a restart or after.

A prompt's buttons are drawn as the JSON of the message body (the ``*_component`` functions,
``bot.render.components``): a move queues that body before anything is sent. The discord.py
items of the same drawings (``defend_button`` and the rest, below them) serve the ``DynamicItem``s,
the forms and the board's card.
"""

import re
from typing import Any

import discord

from bot.render.components import JSON, as_button, as_select, button, option, select, select_item
from rules.powers.pushes import PUSH_VERBS

TURN = r"(?P<conflict>\d+):(?P<round>\d+):(?P<who>\d+)"
"""A turn in a custom id: the Conflict, the round and the character whose turn it is."""
DEFEND = r"mab:defend:(?P<conflict>\d+):(?P<attack>\d+):(?P<dice>\d+)(?::(?P<traits>\d+))?"
DEFLECT = r"mab:deflect:(?P<conflict>\d+):(?P<attack>\d+)(?::(?P<traits>\d+))?"
REACT_TRAITS = r"mab:dtraits:(?P<conflict>\d+):(?P<attack>\d+)"
NUDGES = r"mab:nudges:(?P<conflict>\d+):(?P<attack>\d+):(?P<mode>damage|beat|none)"
NUDGE_SPLIT = r"mab:nsplit:(?P<conflict>\d+):(?P<attack>\d+)"
NUDGE_FORM = r"mab:nudgeform:(?P<conflict>\d+):(?P<attack>\d+)"
THROW = r"mab:throw:(?P<conflict>\d+):(?P<attack>\d+):(?P<mode>type|bot)"
THROW_FORM = r"mab:throwform:(?P<conflict>\d+):(?P<attack>\d+)"
NARRATOR_VIEW = r"mab:board:(?P<conflict>\d+)"
BEGIN = r"mab:begin:(?P<conflict>\d+)"
NEXT_ROUND = r"mab:round:(?P<conflict>\d+)"
HIDDEN_DICE = r"mab:hdice:(?P<conflict>\d+):(?P<who>\d+)"
REMOVE_SELECT = r"mab:rmsel:(?P<conflict>\d+)"
REMOVE = r"mab:rm:(?P<conflict>\d+):(?P<who>\d+)"
DECLARE_SELECT = rf"mab:dsel:{TURN}"
DECLARE = rf"mab:decl:{TURN}:(?P<choice>action|defence|noroll)"
DECLARE_DETAIL = rf"mab:ddet:{TURN}"
DECLARE_FORM = rf"mab:dform:{TURN}:(?P<choice>attack|action|defence|noroll)(?::(?P<target>\d+))?"
ACT = rf"mab:act:{TURN}:(?P<dice>\d+)(?::(?P<burden>grave|mortal))?"
DEFEAT_BURDEN = rf"mab:dburden:{TURN}"
NEW_ACTION = rf"mab:new:{TURN}"
NEW_ACTION_SELECT = rf"mab:nsel:{TURN}"
METAL = rf"mab:metal:{TURN}:(?P<verb>burn|flare|drink|unflare|stop):(?P<what>[A-Za-z0-9]+)"
PUSH_FORM = rf"mab:pform:{TURN}:(?P<verb>push|pull):(?P<target>\d+)"
PUSH_PICK = re.compile(r"(?P<verb>push|pull):(?P<target>\d+)")
"""A menu's push or pull entry: its value (``push:<target>``, Steel; ``pull:<target>``, Iron)."""

NUDGE_LABELS: dict[str, str] = {"damage": "All on damage", "beat": "Catch a Beat", "none": "Spend none"}
THROW_LABELS: dict[str, str] = {"type": "Type my dice…", "bot": "Let the bot roll"}
CHOICE_LABELS: dict[str, str] = {
    "action": "Act without attacking",
    "defence": "Full defence",
    "noroll": "No roll",
}
OPTION_MAX = 25

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]
PRIMARY, SECONDARY = discord.ButtonStyle.primary, discord.ButtonStyle.secondary
SUCCESS = discord.ButtonStyle.success


def defend_component(conflict: int, attack: int, dice: int, traits: int = 0) -> JSON:
    label = "Don't defend" if dice == 0 else f"Defend with {dice}"
    custom_id = f"mab:defend:{conflict}:{attack}:{dice}" + (f":{traits}" if traits else "")
    return button(label, SECONDARY if dice == 0 else PRIMARY, custom_id)


def deflect_component(conflict: int, attack: int, dice: tuple[int, ...], metal: str, traits: int = 0) -> JSON:
    """Deflect a metal attack with Steel or Iron, committing N dice (docs/rulings.md §9.3): the
    same defence as ``/defend deflect:true``."""
    options = [option(f"Deflect with {n}", str(n)) for n in dice[:OPTION_MAX]]
    return select(
        f"mab:deflect:{conflict}:{attack}" + (f":{traits}" if traits else ""),
        f"Deflect with {metal}…",
        options or [option("Deflect with 2", "2")],
    )


def react_traits_component(conflict: int, attack: int, traits: tuple[str, ...] = ()) -> JSON:
    options = [option(name[:100], str(i)) for i, name in enumerate(traits)]
    return select(
        f"mab:dtraits:{conflict}:{attack}",
        "React with Traits (+1 die each)…",
        options or [option("none", "0")],
        max_values=max(1, len(options)),
    )


def nudge_component(conflict: int, attack: int, mode: str) -> JSON:
    style = SUCCESS if mode != "none" else SECONDARY
    return button(NUDGE_LABELS[mode], style, f"mab:nudges:{conflict}:{attack}:{mode}")


def nudge_split_component(conflict: int, attack: int) -> JSON:
    """Opens the form splitting Nudges between damage, dice, next round and story (``/nudges``)."""
    return button("Split Nudges…", PRIMARY, f"mab:nsplit:{conflict}:{attack}")


def throw_component(conflict: int, attack: int, mode: str) -> JSON:
    """The attacker's dice after the defence is set: typed from the table, or rolled by the bot."""
    style = PRIMARY if mode == "type" else SECONDARY
    return button(THROW_LABELS[mode], style, f"mab:throw:{conflict}:{attack}:{mode}")


def narrator_view_component(conflict: int) -> JSON:
    return button("Narrator view", SECONDARY, f"mab:board:{conflict}")


def begin_button(conflict: int) -> Button:
    return discord.ui.Button(label="Begin round 1", style=SUCCESS, custom_id=f"mab:begin:{conflict}")


def next_round_button(conflict: int) -> Button:
    return discord.ui.Button(label="Next round", style=SUCCESS, custom_id=f"mab:round:{conflict}")


def hidden_dice_component(conflict: int, who: int) -> JSON:
    """On a hidden character's prompt: its dice and exact choices, privately, for a Narrator."""
    return button("Its dice (Narrator)", PRIMARY, f"mab:hdice:{conflict}:{who}")


def remove_select(conflict: int, fighters: tuple[tuple[int, str], ...]) -> Select:
    """The Narrator's menu of whom to take out of the Conflict (``/conflict remove``)."""
    options = [discord.SelectOption(label=name[:100], value=str(pid)) for pid, name in fighters[:OPTION_MAX]]
    return discord.ui.Select(
        custom_id=f"mab:rmsel:{conflict}",
        placeholder="Remove a fighter…",
        options=options or [discord.SelectOption(label="nobody", value="0")],
    )


def remove_button(conflict: int, who: int, name: str) -> Button:
    """Confirms taking ``name`` out of the Conflict."""
    return discord.ui.Button(
        label=f"Remove {name}"[:80], style=discord.ButtonStyle.danger, custom_id=f"mab:rm:{conflict}:{who}"
    )


Targets = tuple[tuple[int, str], ...]


def shares(targets: Targets, room: int, pushes_with: str) -> tuple[Targets, Targets]:
    """The targets a menu of ``room`` options attacks and those it pushes (or pulls) at: as many
    pushes as fit in half the room, the attacks the rest (docs/rulings.md §9.3)."""
    pushes = targets[: room // 2] if pushes_with else ()
    return targets[: room - len(pushes)], pushes


def push_options(pushes: Targets, pushes_with: str, detail: bool) -> list[JSON]:
    """A Steel burner's "Push a coin at X" (a small loose object, at once), an Iron burner's
    "Pull…"; in the detail menu "Push at X…", opening the push form."""
    verb = PUSH_VERBS.get(pushes_with, "push")
    if detail:
        about = "Object size, held or in the body, anchored, Traits, label"
        return [option(f"{verb.capitalize()} at {n[:80]}…", f"{verb}:{pid}", about) for pid, n in pushes]
    about = f"{pushes_with} against their Physique, the coin +1 damage"
    return [option(f"{verb.capitalize()} a coin at {n[:80]}", f"{verb}:{pid}", about) for pid, n in pushes]


def target_select(
    prefix: str, placeholder: str, turn: tuple[int, int, int], targets: Targets, pushes_with: str = ""
) -> JSON:
    """A menu of targets whose custom id names the turn (Conflict, round, mover); a Steel or Iron
    burner's also pushes (or pulls) a coin at them."""
    conflict, round_number, who = turn
    attacks, pushes = shares(targets, OPTION_MAX, pushes_with)
    options = [option(name[:100], str(pid)) for pid, name in attacks]
    return select(
        f"{prefix}:{conflict}:{round_number}:{who}",
        placeholder,
        [*options, *push_options(pushes, pushes_with, False)] or [option("nobody", "0")],
    )


def declare_select_component(
    conflict: int, round_number: int, who: int, targets: Targets, pushes_with: str = ""
) -> JSON:
    return target_select("mab:dsel", "Attack…", (conflict, round_number, who), targets, pushes_with)


def declare_detail_component(
    conflict: int, round_number: int, who: int, targets: Targets, pushes_with: str = ""
) -> JSON:
    """The declarations again, each opening the declare form (Traits, Tool, Power, Burdens, label),
    and a Steel or Iron burner's push (or pull) at each target, opening the push form."""
    targeted, pushes = shares(targets, OPTION_MAX - len(CHOICE_LABELS), pushes_with)
    attacks = [option(f"Attack {name}"[:100], f"attack:{pid}") for pid, name in targeted]
    others = [option(label, choice) for choice, label in CHOICE_LABELS.items()]
    return select(
        f"mab:ddet:{conflict}:{round_number}:{who}",
        "Declare with Traits, Tool, Power, Burdens, label…",
        [*attacks, *push_options(pushes, pushes_with, True), *others],
    )


def declare_component(conflict: int, round_number: int, who: int, choice: str) -> JSON:
    return button(CHOICE_LABELS[choice], SECONDARY, f"mab:decl:{conflict}:{round_number}:{who}:{choice}")


def metal_component(conflict: int, round_number: int, who: int, verb: str, what: str, label: str) -> JSON:
    """Burn, flare, drink, let a flare down or stop from a turn's prompt (docs/rulings.md §9.2)."""
    style = SUCCESS if verb == "drink" else SECONDARY
    return button(label, style, f"mab:metal:{conflict}:{round_number}:{who}:{verb}:{what}")


def act_component(conflict: int, round_number: int, who: int, dice: int, burden: str = "") -> JSON:
    """Act with ``dice`` (0: not act); ``burden``: the defeat Burden chosen for the attack."""
    label = "Not act" if dice == 0 else f"Act with {dice}"
    custom_id = f"mab:act:{conflict}:{round_number}:{who}:{dice}" + (f":{burden}" if burden else "")
    return button(label, SECONDARY if dice == 0 else PRIMARY, custom_id)


def defeat_burden_component(conflict: int, round_number: int, who: int) -> JSON:
    """The Burden an attack leaves if it defeats its target, chosen before acting (``/act
    defeat_burden:``)."""
    return select(
        f"mab:dburden:{conflict}:{round_number}:{who}",
        "If this defeats them: leave a Burden…",
        [option("Grave Burden", "grave"), option("Mortal Burden", "mortal")],
    )


def new_action_component(conflict: int, round_number: int, who: int) -> JSON:
    return button("New action…", SECONDARY, f"mab:new:{conflict}:{round_number}:{who}")


def new_action_select(
    conflict: int, round_number: int, who: int, targets: Targets, pushes_with: str = ""
) -> Select:
    turn = (conflict, round_number, who)
    return select_item(target_select("mab:nsel", "New action: attack…", turn, targets, pushes_with))


UNDO = r"mab:undo:(?P<conflict>\d+):(?P<version>\d+)"


def undo_component(conflict: int, version: int) -> JSON:
    """Take back the move that wrote ``version`` of the Conflict (docs/rulings.md §4.24)."""
    return button("Undo", SECONDARY, f"mab:undo:{conflict}:{version}")


# The discord.py items of the drawings above, for the ``DynamicItem``s, forms and cards.
defend_button = as_button(defend_component)
deflect_select = as_select(deflect_component)
react_traits_select = as_select(react_traits_component)
nudge_button = as_button(nudge_component)
nudge_split_button = as_button(nudge_split_component)
throw_button = as_button(throw_component)
narrator_view_button = as_button(narrator_view_component)
hidden_dice_button = as_button(hidden_dice_component)
declare_select = as_select(declare_select_component)
declare_detail_select = as_select(declare_detail_component)
declare_button = as_button(declare_component)
metal_button = as_button(metal_component)
act_button = as_button(act_component)
defeat_burden_select = as_select(defeat_burden_component)
new_action_button = as_button(new_action_component)
undo_button = as_button(undo_component)


def stopped(items: list[discord.ui.Item[Any]]) -> discord.ui.View | None:
    """A view of ``items`` sent stopped (discord.py keeps nothing), or None when there are none."""
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def board_items(
    conflict_id: int,
    gathering: bool = False,
    round_over: bool = False,
    fighters: tuple[tuple[int, str], ...] = (),
) -> list[discord.ui.Item[Any]]:
    """What the board offers at its foot: while the cast gathers, the Narrator's **Begin round 1**
    (docs/rulings.md §4.22); once every turn of a round is taken, the Narrator's **Next round**;
    between rounds, their menu to take one of ``fighters`` out; always the Narrator's full view."""
    items: list[discord.ui.Item[Any]] = [begin_button(conflict_id)] if gathering else []
    items += [next_round_button(conflict_id)] if round_over else []
    items += [remove_select(conflict_id, fighters)] if fighters else []
    return [*items, narrator_view_button(conflict_id)]
