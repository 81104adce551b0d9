"""The round's moves as short top-level commands: ``/declare``, ``/act``, ``/defend``, ``/nudges``,
``/switch``, ``/pass``, ``/burn`` and ``/drink`` — quick to type on a phone in the middle of a fight.

Players send them for their own Heroes, Narrators for anyone; the ``who`` option picks the
character when the caller speaks for several. The bot rolls every die: typed faces and
unopposed ``challenge`` actions follow docs/rulings.md §7.2 (checked in ``bot.cogs.conflict.declare_build``).
Each command only turns its options into a builder from ``bot.cogs.conflict.build`` — no code of the
cog runs inside the move's transaction — and runs it through the one flow that the prompt
buttons use too (``bot.cogs.conflict.delivery``).
"""

import re

from discord import app_commands
from discord.ext import commands

from bot.checks import table_dice as allows_table_dice
from bot.client import Interaction, MistbornClient
from bot.cogs.conflict.answer_build import DefenceOptions, NudgesMove
from bot.cogs.conflict.buttons import BUTTONS
from bot.cogs.conflict.declare_build import ActionOptions, TypedAction
from bot.cogs.conflict.declare_form import FORM_ID as DECLARE_FORM
from bot.cogs.conflict.declare_form import DeclareDetailSelect, on_declare_sent
from bot.cogs.conflict.delivery import run
from bot.cogs.conflict.hidden_dice import HiddenDiceButton
from bot.cogs.conflict.mover_build import ActOptions, BurnMove, DrinkMove, PassMove
from bot.cogs.conflict.nudge_form import FORM_ID as NUDGES_FORM
from bot.cogs.conflict.nudge_form import NudgeSplitButton, on_nudges_sent
from bot.cogs.conflict.push_form import FORM_ID as PUSH_FORM
from bot.cogs.conflict.push_form import on_push_sent
from bot.cogs.conflict.remove_buttons import RemoveButton, RemoveSelect
from bot.cogs.conflict.table_dice import FORM_ID as FACES_FORM
from bot.cogs.conflict.table_dice import ThrowButton, on_faces_sent
from bot.cogs.conflict.turn_buttons import TURN_BUTTONS
from bot.cogs.conflict.undo_button import UndoButton
from bot.forms import FormHandler
from bot.inputs.choices import (
    TASK,
    ActionChoice,
    AttackKindChoice,
    DefeatBurdenChoice,
    Net,
    PushChoice,
    ResilienceChoice,
    RolledActionChoice,
    TaskChoice,
)
from bot.inputs.circumstances import DESCRIPTION as CIRCUMSTANCES
from bot.inputs.circumstances import scene_circumstances
from bot.inputs.faces import Faces
from bot.inputs.options import TOOL, TRAITS, ActionLabel, Difficulty, StatName, Traits
from bot.inputs.participants import ParticipantName, participant_props, participant_stats
from bot.inputs.pools import tap_request
from bot.inputs.powers import TAP_DESCRIPTIONS, TapCharges, TapMetal, TapUseChoice, metalmind_metals

BurdenList = app_commands.Range[str, 1, 400]
WeaponName = app_commands.Range[str, 1, 48]

ACTION_DESCRIPTIONS = {
    "action": "attack, another rolled action, full defence, or an action that needs no roll",
    "target": "Who the action is aimed at",
    "stat": "The stat or Power that gives the dice (e.g. Physique, Steel)",
    "traits": TRAITS,
    "tool": TOOL,
    "circumstances": CIRCUMSTANCES,
    "burdens": "The target's Burdens that help, comma-separated",
    "resilience": "What an attack wears down (default: its kind's: Health, Reputation, Willpower)",
    "kind": "Physical, social or mental (default by the stat: Physique, Charm, Wits; else the Conflict's)",
    "weapon": (
        "A Prop: physical attacks take your best weapon unless named (none: unarmed); others only if named"
    ),
    "push": "Steel or Iron burners: push or pull a loose metal object at the target as the weapon",
    "metal": "The attack is a metal projectile (a bolt, a thrown coin) a Steel or Iron burner may deflect",
    "held": "Steel or Iron burners: push or pull a metal object the target holds or wears",
    "inside": "With held: the metal is inside their body (an earring, a spike): needs Outcome 5",
    "anchored": "Brace the push or pull between two very heavy objects (costs you 1 Health)",
    "task": TASK,
    **TAP_DESCRIPTIONS,
    "difficulty": "A Difficulty the action must also reach",
    "challenge": "Narrator's call: the target cannot resist (asleep, tied up), so no Contest",
    "label": "What you do, in a few words",
    "who": "Which character (default: yours)",
}


FORM_ITEMS = (
    *BUTTONS,
    *TURN_BUTTONS,
    ThrowButton,
    NudgeSplitButton,
    DeclareDetailSelect,
    RemoveSelect,
    RemoveButton,
    HiddenDiceButton,
    UndoButton,
)
"""Every button and menu of a prompt or board, registered while the cog is loaded."""
FORMS: tuple[tuple[re.Pattern[str], FormHandler], ...] = (
    (FACES_FORM, on_faces_sent),
    (NUDGES_FORM, on_nudges_sent),
    (DECLARE_FORM, on_declare_sent),
    (PUSH_FORM, on_push_sent),
)
"""The forms of an attacker's table dice, of Nudges split, of a declaration and of a push or
pull, with the handlers of their submissions (``bot.forms``)."""


@app_commands.guild_only()
class ConflictMoves(commands.Cog):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*FORM_ITEMS)
        for form_id, handler in FORMS:
            self.bot.forms.add(form_id, handler)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*FORM_ITEMS)
        for form_id, _ in FORMS:
            self.bot.forms.remove(form_id)

    @app_commands.command(
        name="burn", description="Start, flare or stop burning a metal (Pewter raises Physique)"
    )
    @app_commands.describe(
        metal="The metal",
        burning="Burning it (false to stop)",
        flare="Flare it: +1 rating, 1 more charge a round (false lets a flare down)",
        who=ACTION_DESCRIPTIONS["who"],
    )
    async def burn(
        self,
        interaction: Interaction,
        metal: str = "Pewter",
        burning: bool = True,
        flare: bool = False,
        who: ParticipantName | None = None,
    ) -> None:
        await run(interaction, BurnMove(metal, burning, who, flare), title="Metals")

    @app_commands.command(
        name="drink", description="Drink a vial: its charges join the reserves (one a round)"
    )
    @app_commands.describe(vial="The vial's name on the sheet", who=ACTION_DESCRIPTIONS["who"])
    async def drink(self, interaction: Interaction, vial: str, who: ParticipantName | None = None) -> None:
        await run(interaction, DrinkMove(vial, who), title="Metals")

    @app_commands.command(name="declare", description="Declare this round's action, in declaration order")
    @app_commands.describe(**ACTION_DESCRIPTIONS)
    @app_commands.autocomplete(stat=participant_stats, weapon=participant_props, tap=metalmind_metals)
    async def declare(
        self,
        interaction: Interaction,
        action: ActionChoice,
        target: ParticipantName | None = None,
        stat: StatName | None = None,
        traits: Traits = 0,
        tool: Net = 0,
        circumstances: Net | None = None,
        burdens: BurdenList | None = None,
        resilience: ResilienceChoice | None = None,
        kind: AttackKindChoice | None = None,
        weapon: WeaponName | None = None,
        push: PushChoice | None = None,
        metal: bool = False,
        held: bool = False,
        inside: bool = False,
        anchored: bool = False,
        task: TaskChoice | None = None,
        tap: TapMetal | None = None,
        tap_charges: TapCharges | None = None,
        tap_for: TapUseChoice | None = None,
        difficulty: Difficulty | None = None,
        challenge: bool = False,
        label: ActionLabel | None = None,
        who: ParticipantName | None = None,
    ) -> None:
        options = ActionOptions(
            kind=action,
            target=target,
            stat=stat,
            traits=traits,
            tool=tool,
            circumstances=circumstances,
            burdens=burdens,
            resilience=resilience,
            weapon=weapon,
            push=push,
            metal=metal,
            held=held,
            inside=inside,
            anchored=anchored,
            tap=tap_request(tap, tap_charges, tap_for),
            task=task,
            difficulty=difficulty,
            challenge=challenge,
            label=label,
            attack_kind=kind,
            scene_circumstances=(await scene_circumstances(interaction)).net,
        )
        await run(interaction, TypedAction(options, "declare", who), title="Declared")

    @app_commands.command(
        name="act", description="On your turn: take your action with a pool of 2–10 Action Dice"
    )
    @app_commands.describe(
        dice="Pool size; the Action Dice you keep become Defense Dice",
        resilience="Narrator's call: aim at another Resilience",
        kind="Narrator's call: make the attack physical, social or mental",
        difficulty="Narrator's call: a Difficulty to reach",
        defeat_burden="If this attack defeats the target: leave a Grave or Mortal Burden",
        faces="Dice you rolled at the table: for an action nobody resists, or once the defence is set",
        table_dice="You roll at the table: give the faces once the target's defence is set",
        weapon="The Prop this attack uses now (a forged letter for a social one; none: unarmed)",
        who=ACTION_DESCRIPTIONS["who"],
    )
    @app_commands.autocomplete(weapon=participant_props)
    async def act(
        self,
        interaction: Interaction,
        dice: app_commands.Range[int, 2, 10],
        resilience: ResilienceChoice | None = None,
        kind: AttackKindChoice | None = None,
        difficulty: Difficulty | None = None,
        defeat_burden: DefeatBurdenChoice = None,
        faces: Faces | None = None,
        weapon: WeaponName | None = None,
        table_dice: bool = False,
        who: ParticipantName | None = None,
    ) -> None:
        options = ActOptions(
            dice=dice,
            resilience=resilience,
            attack_kind=kind,
            difficulty=difficulty,
            defeat_burden=defeat_burden,
            faces=faces,
            weapon=weapon,
            table_dice=(faces is not None or table_dice) and await allows_table_dice(interaction),
            table_roll=table_dice,
            who=who,
        )
        await run(interaction, options, title="Action")

    @app_commands.command(
        name="switch", description="On your turn: drop your action for a new one (halves your dice)"
    )
    @app_commands.describe(**ACTION_DESCRIPTIONS)
    @app_commands.autocomplete(stat=participant_stats, weapon=participant_props, tap=metalmind_metals)
    async def switch(
        self,
        interaction: Interaction,
        action: RolledActionChoice,
        stat: StatName,
        target: ParticipantName | None = None,
        traits: Traits = 0,
        tool: Net = 0,
        circumstances: Net | None = None,
        burdens: BurdenList | None = None,
        resilience: ResilienceChoice | None = None,
        kind: AttackKindChoice | None = None,
        weapon: WeaponName | None = None,
        push: PushChoice | None = None,
        metal: bool = False,
        held: bool = False,
        inside: bool = False,
        anchored: bool = False,
        task: TaskChoice | None = None,
        tap: TapMetal | None = None,
        tap_charges: TapCharges | None = None,
        tap_for: TapUseChoice | None = None,
        difficulty: Difficulty | None = None,
        challenge: bool = False,
        label: ActionLabel | None = None,
        who: ParticipantName | None = None,
    ) -> None:
        options = ActionOptions(
            kind=action,
            target=target,
            stat=stat,
            traits=traits,
            tool=tool,
            circumstances=circumstances,
            burdens=burdens,
            resilience=resilience,
            weapon=weapon,
            push=push,
            metal=metal,
            held=held,
            inside=inside,
            anchored=anchored,
            tap=tap_request(tap, tap_charges, tap_for),
            task=task,
            difficulty=difficulty,
            challenge=challenge,
            label=label,
            attack_kind=kind,
            scene_circumstances=(await scene_circumstances(interaction)).net,
        )
        await run(interaction, TypedAction(options, "switch", who), title="New action")

    @app_commands.command(
        name="pass", description="On your turn: do not act; your Action Dice become Defense Dice"
    )
    @app_commands.describe(who=ACTION_DESCRIPTIONS["who"])
    async def pass_turn(self, interaction: Interaction, who: ParticipantName | None = None) -> None:
        await run(interaction, PassMove(who), title="Holds back")

    @app_commands.command(
        name="defend", description="Defend against the attack in progress (0 = don't defend)"
    )
    @app_commands.describe(
        dice="0, or 2–10 dice from what you hold",
        traits="Reacting while busy: net Traits for your Defense Dice",
        tool="Reacting while busy: Tool (−1/0/+1)",
        circumstances="Narrators, reacting while busy: Circumstances (−1/0/+1)",
        faces="Dice you rolled at the table for this defence (if the server allows table dice)",
        attacker_faces="The attacker's table dice: only from whoever rolls for the attacker (the Narrator)",
        deflect="Steel or Iron burners: deflect a metal attack (a push, a metal projectile) with the metal",
    )
    async def defend(
        self,
        interaction: Interaction,
        dice: app_commands.Range[int, 0, 10],
        traits: Traits = 0,
        tool: Net = 0,
        circumstances: Net | None = None,
        faces: Faces | None = None,
        attacker_faces: Faces | None = None,
        deflect: bool = False,
    ) -> None:
        options = DefenceOptions(
            dice=dice,
            traits=traits,
            tool=tool,
            circumstances=circumstances,
            faces=faces,
            attacker_faces=attacker_faces,
            deflect=deflect,
            table_dice=(faces is not None or attacker_faces is not None)
            and await allows_table_dice(interaction),
            waited=await self.bot.conflicts.grace.waits(interaction),
            grace=self.bot.conflicts.grace.seconds,
        )
        await run(interaction, options, title="Defence")

    @app_commands.command(name="nudges", description="Spend the Nudges of your successful attack")
    @app_commands.describe(
        damage="Nudges on +1 damage each",
        remove="Nudges on removing one of the target's dice each",
        next_round="Nudges on +1 Action Die next round each",
        story="Nudges on story effects the Narrator approves (a trip, a disarm…)",
        beat="Spend them all (3 or more) to catch a Beat: an extra action now",
        defeat_burden="If this defeats the target: leave a Grave or Mortal Burden",
    )
    async def nudges(
        self,
        interaction: Interaction,
        damage: app_commands.Range[int, 0, 20] = 0,
        remove: app_commands.Range[int, 0, 20] = 0,
        next_round: app_commands.Range[int, 0, 20] = 0,
        story: app_commands.Range[int, 0, 20] = 0,
        beat: bool = False,
        defeat_burden: DefeatBurdenChoice = None,
    ) -> None:
        spent = NudgesMove(damage, remove, next_round, story, beat, defeat_burden)
        await run(interaction, spent, title="Nudges")
