"""``/sheet`` (damage, healing, Standings, Breathers, a character's history) and ``/burden``: the
sheet during play.

These change a sheet the way the rules do (docs/rulings.md §5, §6), through
``rules.character``, and answer in the channel so the table sees what happened; of the
Narrator's hidden Villains and Extras, the table hears only that they were hit, recovered or
changed, and their plain state, while the figures go to the Narrator (§7.1,
``bot.hidden``). Only the
character's controller may change it (a Hero's owner or a Narrator; a Villain or Extra: a
Narrator, §6.9): a player whose Hero hits a Villain asks the Narrator to apply it. While the
character is in a live Conflict, every change here goes through the Conflict or the Narrator
(§7.4), so nobody heals a defeated Hero back into a fight on their own. ``resting`` matters
only for a Short Breather (a Long one restores everything anyway).

Recovery is the Narrator's call (§5.12): ``/sheet heal``, ``/sheet breather`` and ``/sheet recover``
are the Narrator's hand; players recover in a Breather the Narrator calls (``/scene breather``), and a
player's own is refused with where to go instead. Easing or removing a Burden is recovery too: a
player adds or worsens one on their own Hero, and only a Narrator eases or removes it.
"""

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.characters.common import NAME_TO_CHANGE, load_to_change, load_to_read, save
from bot.errors import BotError
from bot.hidden import tell_change
from bot.inputs.characters import AnyCharacter, OwnCharacter
from bot.inputs.choices import (
    DefeatBurdenChoice,
    ResilienceChoice,
    SeverityChoice,
    StandingChoice,
    WordChoice,
)
from bot.inputs.sheet_parts import burden_choices
from bot.reach import reach_of
from bot.render.common import plain
from bot.render.recap import story_markdown
from bot.render.sheet import change_embed, damage_embed, recovery_embed
from bot.served import guild_id_of
from rules.character import (
    BreatherKind,
    Character,
    Resilience,
    add_burden,
    apply_damage,
    breather,
    find_burden,
    heal,
    recover_standing,
    remove_burden,
    resilience_current,
    resilience_lost,
    resilience_max,
    spend_standing,
    standing_available,
    step_down_burden,
    step_up_burden,
)
from rules.character.burden_track import TO_REMOVE, TO_STEP
from rules.journal import NARRATOR, Viewer
from rules.powers.burning import knocked_out
from rules.powers.metal_effects import stunt_soak
from rules.words import count_of

Amount = app_commands.Range[int, 1, 20]
BurdenName = app_commands.Range[str, 1, 40]
BreatherChoice = app_commands.Transform[
    BreatherKind,
    WordChoice(
        {k.value: k for k in BreatherKind}, "Breather", {k.value: k.value.capitalize() for k in BreatherKind}
    ),
]
StepChoice = app_commands.Transform[
    str, WordChoice({"up": "up", "down": "down"}, "direction", {"up": "Up (worse)", "down": "Down (better)"})
]
DOING = "change their sheet"


async def require_narrators_hand(interaction: Interaction, what: str) -> None:
    """A player's own recovery is refused: it comes in a Breather the Narrator calls, or by their
    hand (docs/rulings.md §5.12; the rule is ``bot.access.Caller.require_recovery``)."""
    (await caller(interaction)).require_recovery(what)


def healed_text(before: Character, after: Character, resilience: Resilience) -> str:
    """What healing actually changed, 0 included ("Nothing to heal: Health is full.")."""
    if after.is_extra:
        back = before.members_down - after.members_down
        if not back:
            return "Nothing to heal: every member is standing."
        return f"{count_of(back, 'member')} back ({after.members_left} of {after.size} standing)."
    healed = resilience_lost(before, resilience) - resilience_lost(after, resilience)
    if not healed:
        return f"Nothing to heal: {resilience.label} is full."
    now, top = resilience_current(after, resilience), resilience_max(after, resilience)
    return f"Healed {healed} {resilience.label} (now {now}/{top})."


@app_commands.guild_only()
class SheetCommands(
    commands.GroupCog,
    group_name="sheet",
    group_description="During play: damage, healing, spending Standings, Breathers",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="damage", description="Deal damage to a Resilience; wounds and defeat follow")
    @app_commands.describe(
        amount="Points of damage, 1–20 (after armour)",
        name=NAME_TO_CHANGE,
        resilience="Which Resilience (default Health)",
        defeat_burden="If this defeats them: the Burden the attacker leaves (default none)",
        pewter="Burning Pewter, its rating added to Health for this hit (default: as their sheet says)",
    )
    async def damage(
        self,
        interaction: Interaction,
        amount: Amount,
        name: OwnCharacter | None = None,
        resilience: ResilienceChoice = Resilience.HEALTH,
        defeat_burden: DefeatBurdenChoice = None,
        pewter: bool | None = None,
    ) -> None:
        stored = await load_to_change(interaction, name, DOING, in_play=True)
        soak = stunt_soak(stored.character, resilience)
        if soak is not None and soak[1] >= amount:
            said = f"{soak[0]} takes the whole hit: no {resilience.label} lost."
            embed = change_embed(stored.character, plain(said), sections=["resiliences"])
            await tell_change(interaction, self.bot.storage, stored, stored.character, embed)
            return
        taken = amount - (soak[1] if soak else 0)
        result = apply_damage(
            stored.character, resilience, taken, defeat_burden=defeat_burden, burning_pewter=pewter
        )
        out = knocked_out(result.character)  # at 0 Health every burn and store ends (docs/rulings.md §9.2)
        result = result.model_copy(update={"character": out.character})
        await save(interaction, stored, result.character, told=True)
        embed = damage_embed(result)
        if out.notes:
            embed.add_field(name="Powers", value=plain(" ".join(out.notes)), inline=False)
        if soak is not None:
            embed.add_field(name="Stunt", value=f"{soak[0]}: {soak[1]} less damage.", inline=False)
        await tell_change(interaction, self.bot.storage, stored, result.character, embed)

    @app_commands.command(
        name="heal", description="Narrators: give back points of a Resilience (or defeated Extras)"
    )
    @app_commands.describe(
        amount="Points to give back, 1–20",
        name=NAME_TO_CHANGE,
        resilience="Which Resilience (default Health)",
    )
    async def heal(
        self,
        interaction: Interaction,
        amount: Amount,
        name: OwnCharacter | None = None,
        resilience: ResilienceChoice = Resilience.HEALTH,
    ) -> None:
        target = resilience
        stored = await load_to_change(interaction, name, DOING, in_play=True)
        await require_narrators_hand(interaction, "Resiliences")
        before, after = stored.character, heal(stored.character, target, amount)
        if after != before:
            after = (await save(interaction, stored, after, told=True)).character
        embed = change_embed(after, healed_text(before, after, target), sections=["resiliences"])
        await tell_change(interaction, self.bot.storage, stored, after, embed)

    @app_commands.command(name="spend", description="Spend a Standing by 1, as a roll on it does")
    @app_commands.describe(standing="Which Standing", name=NAME_TO_CHANGE)
    async def spend(
        self, interaction: Interaction, standing: StandingChoice, name: OwnCharacter | None = None
    ) -> None:
        which = standing
        stored = await load_to_change(interaction, name, DOING, in_play=True)
        saved = await save(interaction, stored, spend_standing(stored.character, which), told=True)
        left = standing_available(saved.character, which)
        embed = change_embed(saved.character, f"Spent {which.label}: {left} left.", sections=["standings"])
        await tell_change(interaction, self.bot.storage, stored, saved.character, embed)

    @app_commands.command(
        name="recover", description="Narrators: recover spent Standing (all of it unless you say)"
    )
    @app_commands.describe(
        name=NAME_TO_CHANGE,
        standing="Only this Standing (default: all three)",
        amount="Only this many points",
    )
    async def recover(
        self,
        interaction: Interaction,
        name: OwnCharacter | None = None,
        standing: StandingChoice | None = None,
        amount: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:
        which = standing
        stored = await load_to_change(interaction, name, DOING, in_play=True)
        await require_narrators_hand(interaction, "spent Standing")
        saved = await save(interaction, stored, recover_standing(stored.character, which, amount), told=True)
        what = which.label if which else "Standings"
        summary = f"Recovered {count_of(amount, 'point')} of {what}." if amount else f"{what} recovered."
        embed = change_embed(saved.character, summary, sections=["standings"])
        await tell_change(interaction, self.bot.storage, stored, saved.character, embed)

    @app_commands.command(
        name="breather", description="Narrators: give one character a Short or Long Breather now"
    )
    @app_commands.describe(
        kind="Short: half the lost Reputation and Willpower; Long: everything, and eases a Burden",
        name=NAME_TO_CHANGE,
        resting="Short Breather while resting: Health recovers too",
        burden="Long Breather: the Burden to ease (default the worst Grave or Serious one)",
    )
    @app_commands.autocomplete(burden=burden_choices)
    async def breather(
        self,
        interaction: Interaction,
        kind: BreatherChoice,
        name: OwnCharacter | None = None,
        resting: bool = False,
        burden: BurdenName | None = None,
    ) -> None:
        if kind is BreatherKind.SHORT and burden is not None:
            raise BotError("Only a Long Breather eases a Burden: take `kind:long`, or leave `burden` out.")
        stored = await load_to_change(interaction, name, DOING, in_play=True)
        await require_narrators_hand(interaction, "Resiliences and Standings")
        result = breather(stored.character, kind, resting=resting, burden=burden)
        saved = await save(interaction, stored, result.character, told=True)
        title = kind.label + (" (resting)" if resting and kind is BreatherKind.SHORT else "")
        embed = recovery_embed(saved.character, title, result)
        await tell_change(interaction, self.bot.storage, stored, saved.character, embed)

    @app_commands.command(name="history", description="A character's story across every session kept")
    @app_commands.describe(name="Whose story (default: your active character)")
    async def history(self, interaction: Interaction, name: AnyCharacter | None = None) -> None:
        """The journal's entries of one character, as the caller may read them (``rules.journal``)
        and only those said where they can read (``bot.reach``, docs/rulings.md §7.6), each with
        its date under the session it belongs to."""
        stored = await load_to_read(interaction, name)
        who = await caller(interaction)
        reach = await reach_of(interaction, self.bot.storage, who)
        story = await self.bot.storage.journal.of_character(guild_id_of(interaction), stored.id, reach=reach)
        viewer = NARRATOR if who.narrator else Viewer(user_id=interaction.user.id)
        text = await asyncio.to_thread(story_markdown, stored.name, story, viewer)
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"history-{stored.id}.md")
        await replies.send(
            interaction, f"**{plain(stored.name)}**'s story so far.", file=file, ephemeral=True
        )


@app_commands.guild_only()
class BurdenCommands(
    commands.GroupCog,
    group_name="burden",
    group_description="Burdens on a sheet: add, remove, worsen or ease",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Add a Burden: a temporary weakness others can exploit")
    @app_commands.describe(
        burden="The Burden's name",
        severity="Serious +1, Grave +2, Mortal +3 dice against",
        name=NAME_TO_CHANGE,
    )
    async def add(
        self,
        interaction: Interaction,
        burden: BurdenName,
        severity: SeverityChoice,
        name: OwnCharacter | None = None,
    ) -> None:
        level = severity
        stored = await load_to_change(interaction, name, DOING, in_play=True)
        saved = await save(interaction, stored, add_burden(stored.character, burden, level), told=True)
        summary = f"New {level.label} Burden: {plain(burden.strip())}."
        embed = change_embed(saved.character, summary, sections=["burdens"])
        await tell_change(interaction, self.bot.storage, stored, saved.character, embed)

    @app_commands.command(name="remove", description="Narrators: remove a Burden")
    @app_commands.describe(burden="The Burden to remove", name=NAME_TO_CHANGE)
    @app_commands.autocomplete(burden=burden_choices)
    async def remove(
        self, interaction: Interaction, burden: BurdenName, name: OwnCharacter | None = None
    ) -> None:
        stored = await load_to_change(interaction, name, DOING, in_play=True)
        found = find_burden(stored.character, burden, TO_REMOVE)
        (await caller(interaction)).require_easing(found)
        saved = await save(interaction, stored, remove_burden(stored.character, burden), told=True)
        summary = f"Removed the Burden {plain(found.name)}."
        embed = change_embed(saved.character, summary, sections=["burdens"])
        await tell_change(interaction, self.bot.storage, stored, saved.character, embed)

    @app_commands.command(
        name="step", description="Worsen or ease a Burden one step (Serious ↔ Grave ↔ Mortal)"
    )
    @app_commands.describe(
        burden="The Burden",
        direction="Up worsens it; down eases it (Narrators; a Serious one is then gone)",
        name=NAME_TO_CHANGE,
    )
    @app_commands.autocomplete(burden=burden_choices)
    async def step(
        self,
        interaction: Interaction,
        burden: BurdenName,
        direction: StepChoice,
        name: OwnCharacter | None = None,
    ) -> None:
        stored = await load_to_change(interaction, name, DOING, in_play=True)
        found = find_burden(stored.character, burden, TO_STEP)
        if direction == "down":
            (await caller(interaction)).require_easing(found)
        stepped = (step_up_burden if direction == "up" else step_down_burden)(stored.character, burden)
        saved = await save(interaction, stored, stepped, told=True)
        after = next((b for b in saved.character.burdens if b.name == found.name), None)
        state = f"now {after.severity.label}" if after else "gone"
        summary = f"The Burden {plain(found.name)} is {state}."
        embed = change_embed(saved.character, summary, sections=["burdens"])
        await tell_change(interaction, self.bot.storage, stored, saved.character, embed)
