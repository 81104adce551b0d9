"""Rolling: ``/roll``, ``/gmroll`` (secret), ``/read`` (table dice) and ``/contest``.

Each command parses its options, forms the pool (from a bare count or from a sheet), rolls with
the bot's injected generator, logs the roll once, and renders the reading. The log claims the
interaction's id (``storage.handled``), so an interaction Discord delivers twice (a replay, or
to two sessions of one shard during a redeploy) is rolled and logged once.

``/roll`` and ``/read`` also work where the bot serves no server: in direct messages, group DMs
and servers it is not in, where a member installed the app for themselves (docs/architecture.md,
"Dice anywhere"). There ``/roll`` rolls a bare count of dice only: no sheet, no scene
Circumstances, and no log, for the roll log is a server's (docs/rulings.md §7.2).

A ``/gmroll`` is logged as secret: ``/history`` and the fairness report show it to Narrators
and its roller only (docs/rulings.md §7.1). It is open to every Narrator, by role too: the
check runs when it is used, so nothing hides it behind Manage Server. A Contest rolls the
resisting side from a sheet only if the caller may read that sheet.

A roll from a Narrator's hidden Villain or Extra (``/roll``, either side of ``/contest``) shows
the table its dice but not the ratings behind them, and is logged as secret, as in a Conflict;
the full card goes where a ``/gmroll``'s does (``bot.hidden``, §7.1).
"""

from typing import NamedTuple

from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller, narrator_only
from bot.client import Interaction, MistbornClient
from bot.cogs.dice.rolling import DeclaredWith, answer, pool_for, roll_inputs, throw, throw_saved
from bot.errors import BotError
from bot.hidden import Drawn, is_hidden, show_roll
from bot.inputs.characters import SHEETS_ELSEWHERE, AnyCharacter, named_or_active
from bot.inputs.choices import TASK, Net, SubplotChoice, TaskChoice
from bot.inputs.circumstances import DESCRIPTION as CIRCUMSTANCES
from bot.inputs.circumstances import Applied, applied_circumstances
from bot.inputs.faces import Faces
from bot.inputs.options import DIFFICULTY, TOOL, TRAITS, DiceCount, Difficulty, RollLabel, StatName, Traits
from bot.inputs.pools import FormedPool, PoolRequest, TapRequest, tap_request
from bot.inputs.powers import TAP_DESCRIPTIONS, TapCharges, TapMetal, TapUseChoice, metalmind_metals
from bot.inputs.saved_rolls import SavedName, saved_roll_choices, saved_roll_named
from bot.inputs.sheet_parts import opponent_stat_choices, stat_choices
from bot.reach import origin_of
from bot.records import contest_entry, roll_record, sheet_change
from bot.render.cards import Card, card_view
from bot.render.dice import ACTING_SIDE, OPPOSING_SIDE, contest_card, reading_card
from bot.served import guild_id_of, served_guild_id
from rules.character.metals import Task
from rules.character.stats import spend_standing
from rules.character.story import Subplot
from rules.contest import Side, decide
from rules.journal import JournalEntry
from rules.outcome import DEFAULT_DIFFICULTY
from rules.pool import build_pool
from rules.roll import Reading, read, roll
from rules.saved_roll import SavedRoll
from rules.words import is_group
from storage import StoredCharacter
from storage.sql import utc_now

Modifier = app_commands.Range[int, -10, 10]

ROLL_DESCRIPTIONS = {
    "dice": "Roll this many dice (0–20; above 10 gives free Nudges)",
    "stat": "Or roll a stat or Power from the character's sheet",
    "saved": "Or one of the character's saved rolls (`/rolls save`); options given change it",
    "character": "Whose sheet to use (default: your active character)",
    "difficulty": DIFFICULTY,
    "traits": TRAITS,
    "tool": TOOL,
    "circumstances": CIRCUMSTANCES,
    "modifier": "Any other dice to add or remove",
    "label": "What the roll is for, shown as its title",
    "task": TASK,
    **TAP_DESCRIPTIONS,
    "subplot": "The roll serves a Destiny (its Hero's stat) or a Tragedy (dice against its Hero)",
}


SAVED_ALONE = "Give `saved` alone, or `dice` or `stat`: a saved roll already says what to roll."


class Asked(NamedTuple):
    """What ``/roll`` or ``/gmroll`` was given; an option left out is None. (A named tuple: as
    immutable as a frozen dataclass, and several times cheaper to make, once every roll.)"""

    dice: int | None
    stat: str | None
    saved: str | None
    character: StoredCharacter | None
    difficulty: int | None
    traits: int | None
    tool: int | None
    circumstances: int | None
    modifier: int | None
    label: str | None
    task: Task | None = None
    tap: TapRequest | None = None
    subplot: Subplot | None = None

    @property
    def level(self) -> int:
        return self.difficulty if self.difficulty is not None else DEFAULT_DIFFICULTY

    def request(self, applied: Applied) -> PoolRequest:
        return PoolRequest(
            self.dice,
            self.stat,
            self.traits or 0,
            self.tool or 0,
            applied.net,
            self.modifier or 0,
            task=self.task,
            tap=self.tap,
            subplot=self.subplot,
            label=self.label or "",
        )

    def over(self, saved: SavedRoll) -> SavedRoll:
        """``saved`` with the options given in its place (``/roll saved:Sneak difficulty:3``)."""
        given = {"difficulty": self.difficulty, "traits": self.traits, "tool": self.tool}
        given["modifier"] = self.modifier
        return saved.model_copy(update={k: v for k, v in given.items() if v is not None})


async def roll_saved(interaction: Interaction, asked: Asked, *, secret: bool) -> None:
    """``/roll saved:`` (or ``/gmroll saved:``): the saved roll of the named or active sheet,
    with any option given in its place, rolled as the panel's button rolls it (§6.14)."""
    assert asked.saved is not None
    if asked.dice is not None or asked.stat is not None:
        raise BotError(SAVED_ALONE)
    if served_guild_id(interaction) is None:
        raise BotError(SHEETS_ELSEWHERE)
    stored = await named_or_active(interaction, asked.character)
    (await caller(interaction)).require_control(stored.character, "roll for them")
    found = await saved_roll_named(interaction, stored, asked.saved)
    label = asked.label or found.roll.title
    saved = asked.over(found.roll)
    await throw_saved(
        interaction,
        stored,
        saved,
        label=label,
        secret=secret,
        circumstances=asked.circumstances,
        declared=DeclaredWith(asked.task, asked.tap, asked.subplot),
    )


def group_side(side: FormedPool) -> bool:
    """A Contest side that is an Extras group wins in the plural (docs/rulings.md §8.2)."""
    return side.stored is not None and is_group(side.stored.character.size)


class Dice(commands.Cog):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll a dice pool and read the Result, Outcome and Nudges")
    @app_commands.describe(**ROLL_DESCRIPTIONS)
    @app_commands.autocomplete(stat=stat_choices, saved=saved_roll_choices, tap=metalmind_metals)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def roll_command(
        self,
        interaction: Interaction,
        dice: DiceCount | None = None,
        stat: StatName | None = None,
        saved: SavedName | None = None,
        character: AnyCharacter | None = None,
        difficulty: Difficulty | None = None,
        traits: Traits | None = None,
        tool: Net | None = None,
        circumstances: Net | None = None,
        modifier: Modifier | None = None,
        label: RollLabel | None = None,
        task: TaskChoice | None = None,
        tap: TapMetal | None = None,
        tap_charges: TapCharges | None = None,
        tap_for: TapUseChoice | None = None,
        subplot: SubplotChoice | None = None,
    ) -> None:
        tapping = tap_request(tap, tap_charges, tap_for)
        asked = Asked(
            dice,
            stat,
            saved,
            character,
            difficulty,
            traits,
            tool,
            circumstances,
            modifier,
            label,
            task,
            tapping,
            subplot,
        )
        if saved is not None:
            await roll_saved(interaction, asked, secret=False)
            return
        stat_only = stat is not None and dice is None
        applied, sheet = await roll_inputs(interaction, circumstances, stat_only, character)
        drawn = await throw(interaction, asked.request(applied), sheet, asked.level, label, applied=applied)
        await answer(interaction, drawn, secret=False)

    @app_commands.command(
        name="gmroll", description="Narrators: a secret roll, shown only to you and the GM channel"
    )
    @app_commands.describe(**ROLL_DESCRIPTIONS)
    @app_commands.autocomplete(stat=stat_choices, saved=saved_roll_choices, tap=metalmind_metals)
    @app_commands.guild_only()
    @narrator_only("make secret rolls")
    async def gmroll(
        self,
        interaction: Interaction,
        dice: DiceCount | None = None,
        stat: StatName | None = None,
        saved: SavedName | None = None,
        character: AnyCharacter | None = None,
        difficulty: Difficulty | None = None,
        traits: Traits | None = None,
        tool: Net | None = None,
        circumstances: Net | None = None,
        modifier: Modifier | None = None,
        label: RollLabel | None = None,
        task: TaskChoice | None = None,
        tap: TapMetal | None = None,
        tap_charges: TapCharges | None = None,
        tap_for: TapUseChoice | None = None,
        subplot: SubplotChoice | None = None,
    ) -> None:
        tapping = tap_request(tap, tap_charges, tap_for)
        asked = Asked(
            dice,
            stat,
            saved,
            character,
            difficulty,
            traits,
            tool,
            circumstances,
            modifier,
            label,
            task,
            tapping,
            subplot,
        )
        if saved is not None:
            await roll_saved(interaction, asked, secret=True)
            return
        applied = await applied_circumstances(interaction, circumstances)
        drawn = await throw(
            interaction, asked.request(applied), character, asked.level, label, secret=True, applied=applied
        )
        await answer(interaction, drawn, secret=True)

    @app_commands.command(name="read", description="Read dice rolled at the table: type the faces you see")
    @app_commands.describe(
        faces="The faces, e.g. 3 3 6 1 5",
        difficulty=DIFFICULTY,
        pool="The pool's full size if it was above 10 or below 2 (for free Nudges or the penalty)",
        extra="The roller is an Extra (no Nudges)",
        label="What the roll was for",
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def read_command(
        self,
        interaction: Interaction,
        faces: Faces,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        pool: DiceCount | None = None,
        extra: bool = False,
        label: RollLabel | None = None,
    ) -> None:
        formed = build_pool(pool) if pool is not None else None
        reading = read(faces, pool=formed, difficulty=difficulty, extra=extra)
        drawn = reading_card(reading, title=label or "Table dice", roller=interaction.user.display_name)
        await replies.send(interaction, view=card_view(drawn))

    async def _log_contest(
        self,
        interaction: Interaction,
        sides: tuple[FormedPool, FormedPool],
        readings: tuple[Reading, ...],
        told: JournalEntry,
    ) -> None:
        """A Contest from sheets spends a Standing as ``/roll`` does, and both rolls are logged with
        the spends in one transaction (docs/rulings.md §6.7)."""
        guild_id, origin = guild_id_of(interaction), origin_of(interaction)
        async with self.bot.storage.transaction() as tx:
            await tx.handled.claim(interaction.id)  # delivered twice, rolled once
            done: set[int] = set()
            entries: list[JournalEntry] = []
            for side in sides:
                if side.stored is None or side.spends is None or side.stored.id in done:
                    continue
                done.add(side.stored.id)
                spent = spend_standing(side.stored.character, side.spends)
                await tx.characters.update(guild_id, side.stored, spent)
                entries += sheet_change(told.at, side.stored, spent)
            for side, reading in zip(sides, readings, strict=False):
                secret = is_hidden(side.stored)  # a hidden side's roll is secret in the log (§7.1)
                record = roll_record(
                    guild_id, interaction.user.id, reading, side.who[:40], origin=origin, secret=secret
                )
                await tx.rolls.append(record)
            await tx.journal.add(guild_id, origin, [*entries, told])

    @app_commands.command(name="contest", description="Roll a Contest between two pools or two characters")
    @app_commands.describe(
        actor="The acting character (default: your active one, unless you give dice)",
        actor_stat="The acting side's stat or Power",
        actor_dice="Or the acting side's dice",
        opponent="The resisting character",
        opponent_stat="The resisting side's stat or Power",
        opponent_dice="Or the resisting side's dice",
        difficulty="The acting side must also reach this (default 1)",
        circumstances="Narrators: −1, 0 or +1 for the acting side (default: the scene's)",
    )
    @app_commands.autocomplete(actor_stat=stat_choices, opponent_stat=opponent_stat_choices)
    @app_commands.guild_only()
    async def contest(
        self,
        interaction: Interaction,
        actor: AnyCharacter | None = None,
        actor_stat: StatName | None = None,
        actor_dice: DiceCount | None = None,
        opponent: AnyCharacter | None = None,
        opponent_stat: StatName | None = None,
        opponent_dice: DiceCount | None = None,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        circumstances: Net | None = None,
    ) -> None:
        applied = await applied_circumstances(interaction, circumstances)
        acting_request = PoolRequest(actor_dice, actor_stat, circumstances=applied.net)
        acting = await pool_for(interaction, acting_request, actor, acting=True)
        if opponent_dice is None and opponent_stat is None:
            raise BotError("Give the opponent's dice, or their stat (with `opponent` for whose sheet).")
        if opponent_stat is not None and opponent is None:
            raise BotError("Name the opponent whose sheet has that stat.")
        opposing = await pool_for(
            interaction, PoolRequest(opponent_dice, opponent_stat), opponent, acting=False
        )
        rng = self.bot.rng
        result = decide(
            [roll(acting.pool, rng, difficulty=difficulty, extra=acting.extra)],
            [roll(opposing.pool, rng, extra=opposing.extra)],
        )
        acting_name = acting.who if acting.stored is not None else ACTING_SIDE
        opposing_name = opposing.who if opposing.stored is not None else OPPOSING_SIDE
        if acting_name == opposing_name:
            acting_name, opposing_name = f"{acting_name} (acting)", f"{opposing_name} (opposing)"
        told = contest_entry(utc_now(), acting_name, opposing_name, result)
        await self._log_contest(
            interaction, (acting, opposing), result.acting_rolls + result.opposing_rolls, told
        )
        many = (group_side(acting), group_side(opposing))
        sides = ((Side.ACTING, acting), (Side.OPPOSING, opposing))
        veiled = frozenset(side for side, formed in sides if is_hidden(formed.stored))

        def draw(shown_by_dice: frozenset[Side] = frozenset()) -> Card:
            """``shown_by_dice``: the hidden sides, shown by the dice they threw (``pool_shown``)."""
            return contest_card(
                result,
                acting=acting_name,
                opposing=opposing_name,
                hidden=shown_by_dice,
                many=many,
                circumstances=applied.text(),
            )

        drawn = Drawn(draw, (lambda: draw(veiled)) if veiled else None)
        await show_roll(interaction, self.bot.storage, drawn)
