"""The round's moves as short top-level commands: ``/declare``, ``/act``, ``/defend``, ``/nudges``,
``/switch``, ``/pass`` and ``/burn`` — quick to type on a phone in the middle of a fight.

Players send them for their own characters, Narrators for anyone; the ``who`` option picks the
character when the caller speaks for several. The prompt buttons call :meth:`ConflictActions.defend`
and :meth:`ConflictActions.nudge_click`, so a click and a typed command take the same path.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, TypeAlias

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.conflict.access import Caller, pick
from bot.cogs.conflict.build import (
    ActionChoice,
    ActionOptions,
    BurdenChoice,
    ResilienceChoice,
    parse_faces,
    severity,
)
from bot.cogs.conflict.complete import participant_choices, stat_choices
from bot.cogs.conflict.flow import ConflictFlow
from bot.errors import NotAllowed
from rules.character import Character, CharacterKind
from rules.conflict import Act, Awaiting, Burn, Command, Conflict, Defend, Pass, SpendNudges
from rules.errors import RulesError

if TYPE_CHECKING:
    from bot.app import MistbornBot

Interaction: TypeAlias = "discord.Interaction[MistbornBot]"
Sheets = Mapping[int, Character]
Net = Literal[-1, 0, 1]
Who = app_commands.Range[str, 1, 64]

ACTION_DESCRIPTIONS = {
    "action": "attack, another rolled action, full defence, or an action that needs no roll",
    "target": "Who the action is aimed at",
    "stat": "The stat or Power that gives the dice (e.g. Physique, Steel)",
    "traits": "Net Traits: +1 per helping Trait, −1 per hindering one",
    "tool": "A fitting Tool (+1) or a missing/broken one (−1)",
    "circumstances": "Two or more favourable (+1) or adverse (−1) conditions",
    "burdens": "The target's Burdens that help, comma-separated",
    "resilience": "What an attack wears down (default: the Conflict's kind)",
    "weapon": "A weapon Prop on your sheet (adds its bonus to damage)",
    "difficulty": "A Difficulty the action must also reach",
    "challenge": "The target cannot resist (asleep, tied up): no Contest",
    "label": "What you do, in a few words",
    "who": "Which character (default: yours)",
}


def _pending_target(state: Conflict, attack_id: int | None) -> int:
    """The target of the attack waiting for a defence; a button names its attack, so a click on
    a prompt that was already answered is told so rather than applied to a newer attack."""
    pending = state.pending
    waiting = pending is not None and pending.awaiting is Awaiting.DEFENCE and pending.target is not None
    if attack_id is not None and (not waiting or pending is None or pending.id != attack_id):
        raise RulesError("That attack has already been settled.")
    if not waiting or pending is None or pending.target is None:
        raise RulesError("No attack is waiting for a defence right now.")
    return pending.target


@app_commands.guild_only()
class ConflictActions(commands.Cog):
    def __init__(self, bot: "MistbornBot", flow: ConflictFlow) -> None:
        self.bot = bot
        self.flow = flow

    @app_commands.command(name="burn", description="Start or stop burning a metal (Pewter raises Physique)")
    @app_commands.describe(
        metal="The metal", burning="Burning it (false to stop)", who=ACTION_DESCRIPTIONS["who"]
    )
    @app_commands.autocomplete(who=participant_choices)
    async def burn(
        self, interaction: Interaction, metal: str = "Pewter", burning: bool = True, who: Who | None = None
    ) -> None:
        def build(state: Conflict, sheets: Sheets, caller: Caller) -> Command:
            return Burn(
                participant=pick(state, sheets, caller, who, "burn metals").id, metal=metal, burning=burning
            )

        await self.flow.run(interaction, build, title="Metals")

    @app_commands.command(name="declare", description="Declare this round's action, in declaration order")
    @app_commands.describe(**ACTION_DESCRIPTIONS)
    @app_commands.autocomplete(target=participant_choices, who=participant_choices, stat=stat_choices)
    async def declare(
        self,
        interaction: Interaction,
        action: ActionChoice,
        target: Who | None = None,
        stat: app_commands.Range[str, 1, 40] | None = None,
        traits: app_commands.Range[int, -10, 10] = 0,
        tool: Net = 0,
        circumstances: Net = 0,
        burdens: app_commands.Range[str, 1, 400] | None = None,
        resilience: ResilienceChoice | None = None,
        weapon: app_commands.Range[str, 1, 48] | None = None,
        difficulty: app_commands.Range[int, 1, 5] | None = None,
        challenge: bool = False,
        label: app_commands.Range[str, 1, 100] | None = None,
        who: Who | None = None,
    ) -> None:
        options = ActionOptions(
            action,
            target,
            stat,
            traits,
            tool,
            circumstances,
            burdens,
            resilience,
            weapon,
            difficulty,
            challenge,
            label,
        )

        def build(state: Conflict, sheets: Sheets, caller: Caller) -> Command:
            return options.command("declare", state, pick(state, sheets, caller, who, "declare").id)

        await self.flow.run(interaction, build, title="Declared")

    @app_commands.command(
        name="act", description="On your turn: take your action with a pool of 2–10 Action Dice"
    )
    @app_commands.describe(
        dice="Pool size; the Action Dice you keep become Defense Dice",
        resilience="Narrator's call: aim at another Resilience",
        difficulty="Narrator's call: a Difficulty to reach",
        defeat_burden="If this attack defeats the target: leave a Grave or Mortal Burden",
        faces="Table dice for an action nobody resists, e.g. 3 3 6 1",
        who=ACTION_DESCRIPTIONS["who"],
    )
    @app_commands.autocomplete(who=participant_choices)
    async def act(
        self,
        interaction: Interaction,
        dice: app_commands.Range[int, 2, 10],
        resilience: ResilienceChoice | None = None,
        difficulty: app_commands.Range[int, 1, 5] | None = None,
        defeat_burden: BurdenChoice = "none",
        faces: app_commands.Range[str, 1, 60] | None = None,
        who: Who | None = None,
    ) -> None:
        table_faces = parse_faces(faces)

        def build(state: Conflict, sheets: Sheets, caller: Caller) -> Command:
            participant = pick(state, sheets, caller, who, "act").id
            return Act(
                participant=participant,
                pool=dice,
                faces=table_faces,
                resilience=resilience,
                difficulty=difficulty,
                defeat_burden=severity(defeat_burden),
            )

        await self.flow.run(interaction, build, title="Action")

    @app_commands.command(
        name="switch", description="On your turn: drop your action for a new one (halves your dice)"
    )
    @app_commands.describe(**ACTION_DESCRIPTIONS)
    @app_commands.autocomplete(target=participant_choices, who=participant_choices, stat=stat_choices)
    async def switch(
        self,
        interaction: Interaction,
        action: Literal["attack", "action"],
        stat: app_commands.Range[str, 1, 40],
        target: Who | None = None,
        traits: app_commands.Range[int, -10, 10] = 0,
        tool: Net = 0,
        circumstances: Net = 0,
        burdens: app_commands.Range[str, 1, 400] | None = None,
        resilience: ResilienceChoice | None = None,
        weapon: app_commands.Range[str, 1, 48] | None = None,
        difficulty: app_commands.Range[int, 1, 5] | None = None,
        challenge: bool = False,
        label: app_commands.Range[str, 1, 100] | None = None,
        who: Who | None = None,
    ) -> None:
        options = ActionOptions(
            action,
            target,
            stat,
            traits,
            tool,
            circumstances,
            burdens,
            resilience,
            weapon,
            difficulty,
            challenge,
            label,
        )

        def build(state: Conflict, sheets: Sheets, caller: Caller) -> Command:
            return options.command("switch", state, pick(state, sheets, caller, who, "switch actions").id)

        await self.flow.run(interaction, build, title="New action")

    @app_commands.command(
        name="pass", description="On your turn: do not act; your Action Dice become Defense Dice"
    )
    @app_commands.describe(who=ACTION_DESCRIPTIONS["who"])
    @app_commands.autocomplete(who=participant_choices)
    async def pass_turn(self, interaction: Interaction, who: Who | None = None) -> None:
        await self.flow.run(
            interaction, lambda s, sh, c: Pass(participant=pick(s, sh, c, who, "pass").id), title="Holds back"
        )

    @app_commands.command(
        name="defend", description="Defend against the attack in progress (0 = don't defend)"
    )
    @app_commands.describe(
        dice="0, or 2–10 dice from what you hold",
        traits="Reacting while busy: net Traits for your Defense Dice",
        tool="Reacting while busy: Tool (−1/0/+1)",
        circumstances="Reacting while busy: Circumstances (−1/0/+1)",
        faces="Your table dice, if you rolled them by hand",
        attacker_faces="The attacker's table dice, if rolled by hand",
    )
    async def defend_command(
        self,
        interaction: Interaction,
        dice: app_commands.Range[int, 0, 10],
        traits: app_commands.Range[int, -10, 10] = 0,
        tool: Net = 0,
        circumstances: Net = 0,
        faces: app_commands.Range[str, 1, 60] | None = None,
        attacker_faces: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        await self.defend(
            interaction,
            dice=dice,
            traits=traits,
            tool=tool,
            circumstances=circumstances,
            faces=parse_faces(faces),
            attacker_faces=parse_faces(attacker_faces),
        )

    async def defend(
        self,
        interaction: Interaction,
        *,
        dice: int,
        attack_id: int | None = None,
        conflict_id: int | None = None,
        traits: int = 0,
        tool: int = 0,
        circumstances: int = 0,
        faces: tuple[int, ...] | None = None,
        attacker_faces: tuple[int, ...] | None = None,
    ) -> None:
        """A defence from the slash command or a prompt button (which names its attack)."""

        def build(state: Conflict, sheets: Sheets, caller: Caller) -> Command:
            target = state.participant(_pending_target(state, attack_id))
            sheet = sheets.get(target.id)
            if not caller.narrator and (sheet is None or sheet.owner_id != caller.user_id):
                raise NotAllowed(f"Only {target.name}'s player or a Narrator can answer this attack.")
            if (
                caller.narrator
                and sheet is not None
                and sheet.kind is CharacterKind.HERO
                and sheet.owner_id != caller.user_id
            ):
                assert state.pending is not None
                self.flow.check_grace(self.flow.waited(interaction, state.pending.id))
            return Defend(
                participant=target.id,
                dice=dice,
                attack_id=attack_id,
                attack_faces=attacker_faces,
                defence_faces=faces,
                traits_for=max(0, traits),
                traits_against=max(0, -traits),
                tool=tool,
                circumstances=circumstances,
            )

        await self.flow.run(interaction, build, title="Defence", conflict_id=conflict_id)

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
        defeat_burden: BurdenChoice = "none",
    ) -> None:
        def build(state: Conflict, sheets: Sheets, caller: Caller) -> Command:
            attacker = self._nudging(state, sheets, caller, None)
            return SpendNudges(
                participant=attacker,
                damage=damage,
                remove_dice=remove,
                next_round=next_round,
                story=story,
                catch_beat=beat,
                defeat_burden=severity(defeat_burden),
            )

        await self.flow.run(interaction, build, title="Nudges")

    async def nudge_click(
        self, interaction: Interaction, *, attack_id: int, mode: str, conflict_id: int | None = None
    ) -> None:
        def build(state: Conflict, sheets: Sheets, caller: Caller) -> Command:
            attacker = self._nudging(state, sheets, caller, attack_id)
            assert state.pending is not None
            damage = state.pending.nudges if mode == "damage" else 0
            return SpendNudges(
                participant=attacker, damage=damage, catch_beat=mode == "beat", attack_id=attack_id
            )

        await self.flow.run(interaction, build, title="Nudges", conflict_id=conflict_id)

    @staticmethod
    def _nudging(state: Conflict, sheets: Sheets, caller: Caller, attack_id: int | None) -> int:
        pending = state.pending
        if pending is None or pending.awaiting is not Awaiting.NUDGES:
            raise RulesError("No successful attack has Nudges waiting to be spent.")
        if attack_id is not None and pending.id != attack_id:
            raise RulesError("Those Nudges have already been spent.")
        attacker = state.participant(pending.attacker)
        sheet = sheets.get(attacker.id)
        if not caller.narrator and (sheet is None or sheet.owner_id != caller.user_id):
            raise NotAllowed(f"Only {attacker.name}'s player or a Narrator can spend these Nudges.")
        return attacker.id
