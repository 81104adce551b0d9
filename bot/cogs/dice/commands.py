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
the full card goes where a ``/gmroll``'s does (``bot.rolling.hidden``, §7.1).
"""

from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.access import channel_id_of, guild_id_of, served_guild_id
from bot.checks import caller, narrator_only
from bot.client import Interaction, MistbornClient
from bot.errors import BotError
from bot.inputs.characters import SHEETS_ELSEWHERE, AnyCharacter, at_table, named_or_active
from bot.inputs.choices import EnumChoice, Net
from bot.inputs.circumstances import DESCRIPTION as CIRCUMSTANCES
from bot.inputs.circumstances import Applied, applied_circumstances, scene_applied
from bot.inputs.faces import Faces
from bot.inputs.powers import TapUseChoice, metalmind_metals
from bot.inputs.sheet_parts import opponent_stat_choices, stat_choices
from bot.reach import origin_of
from bot.render.cards import Card, card_view
from bot.render.dice import ACTING_SIDE, OPPOSING_SIDE, contest_card, reading_card
from bot.rolling.hidden import Drawn, is_hidden, show_roll, tell_narrators
from bot.rolling.journal import charges_moved, contest_entry, roll_entry, sheet_change
from bot.rolling.pools import FormedPool, PoolRequest, form_pool, roll_title, spent_by, tap_request
from bot.rolling.roll_log import roll_record
from rules.character.metals import Task
from rules.character.stats import spend_standing, standing_available
from rules.contest import Side, decide
from rules.journal import JournalEntry
from rules.outcome import DEFAULT_DIFFICULTY
from rules.pool import build_pool
from rules.roll import Reading, read, roll
from rules.words import count_of, is_group
from storage import StoredCharacter
from storage.sql import utc_now

Difficulty = app_commands.Range[int, 1, 5]
Traits = app_commands.Range[int, -10, 10]
Modifier = app_commands.Range[int, -10, 10]
DiceCount = app_commands.Range[int, 0, 20]
Label = app_commands.Range[str, 1, 40]
StatName = app_commands.Range[str, 1, 40]
TaskChoice = app_commands.Transform[Task, EnumChoice(Task, "task")]
TapMetal = app_commands.Range[str, 1, 20]
TapCharges = app_commands.Range[int, 1, 100]

ROLL_DESCRIPTIONS = {
    "dice": "Roll this many dice (0–20; above 10 gives free Nudges)",
    "stat": "Or roll a stat or Power from the character's sheet",
    "character": "Whose sheet to use (default: your active character)",
    "difficulty": "1 Simple … 5 Nearly Impossible (default 1)",
    "traits": "Net Traits: +1 per helping Trait, −1 per hindering one",
    "tool": "A fitting Tool (+1) or a missing/broken one (−1)",
    "circumstances": CIRCUMSTANCES,
    "modifier": "Any other dice to add or remove",
    "label": "What the roll is for, shown as its title",
    "task": "What the roll leans on, for the Powers that help it (senses, strength, …)",
    "tap": "Feruchemy: tap this metal's metalmind for the roll (declared before it)",
    "tap_charges": "Charges to tap (at most 10 × the rating; spent even on a failure)",
    "tap_for": "What the tap buys (default: the metal's effect)",
}


async def pool_for(
    interaction: Interaction, request: PoolRequest, character: StoredCharacter | None, *, acting: bool
) -> FormedPool:
    """Load the sheet a request reads (the named one, else the active one) and form its pool.

    Rolling for a sheet needs control of it when ``acting``; the resisting side of a Contest
    may be any sheet the caller may read (docs/rulings.md §7.1).
    """
    stored = None
    if request.from_sheet:
        stored = await named_or_active(interaction, character)
        who = await caller(interaction)
        if acting:
            who.require_control(stored.character, "roll for them")
        else:
            who.require_read(stored.character, stored.revealed)
    return form_pool(request, stored)


NONE_APPLIED = Applied()


CIRCUMSTANCES_ELSEWHERE = (
    "Circumstances are the Narrator's call in a server with the bot: leave `circumstances` out "
    "here, or count them in `modifier`."
)


async def roll_circumstances(interaction: Interaction, given: int | None) -> Applied:
    """The roll's Circumstances; where the bot serves no server there is neither a Narrator
    nor a scene, so none apply (docs/rulings.md §1.6)."""
    if served_guild_id(interaction) is not None:
        return await applied_circumstances(interaction, given)
    if given is not None:
        raise BotError(CIRCUMSTANCES_ELSEWHERE)
    return NONE_APPLIED


async def roll_inputs(
    interaction: Interaction, given: int | None, stat_only: bool, character: StoredCharacter | None
) -> tuple[Applied, StoredCharacter | None]:
    """The roll's Circumstances and the sheet it names. The common stat roll (``stat_only``: a
    stat and no dice, from the caller's active sheet, with the scene's Circumstances) reads the
    sheet, the scene and who is asking in ONE query (``at_table``); any other roll reads each
    as it needs."""
    if stat_only and character is None and given is None and served_guild_id(interaction) is not None:
        table = await at_table(interaction, channel_id_of(interaction))
        return scene_applied(table.scene), table.sheet
    return await roll_circumstances(interaction, given), character


def group_side(side: FormedPool) -> bool:
    """A Contest side that is an Extras group wins in the plural (docs/rulings.md §8.2)."""
    return side.stored is not None and is_group(side.stored.character.size)


class Dice(commands.Cog):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot

    async def _roll(
        self,
        interaction: Interaction,
        request: PoolRequest,
        character: StoredCharacter | None,
        difficulty: int,
        label: str | None,
        *,
        secret: bool = False,
        applied: Applied = NONE_APPLIED,
    ) -> Drawn:
        """Roll, log and spend; return how to draw the roll's card (a secret roll's is drawn
        twice: for the Narrator, and for the GM channel; a hidden roller's also for the table)."""
        if served_guild_id(interaction) is None:
            return self._roll_elsewhere(interaction, request, difficulty, label)
        guild_id = guild_id_of(interaction)
        formed = await pool_for(interaction, request, character, acting=True)
        spent, moves = spent_by(formed)
        reading = roll(formed.pool, self.bot.rng, difficulty=difficulty, extra=formed.extra)
        origin = origin_of(interaction)
        veiled = is_hidden(formed.stored) and not secret
        # A hidden sheet's rolls are secret in the log (their pool shows there), as in a Conflict.
        record = roll_record(
            guild_id,
            interaction.user.id,
            reading,
            label or formed.title,
            origin=origin,
            secret=secret or veiled,
        )
        who = formed.stored.id if formed.stored is not None else None
        told = [
            roll_entry(
                record.at,
                interaction.user.id,
                interaction.user.display_name,
                record.label,
                reading,
                secret=secret,
                character_id=who,
            )
        ]
        # Claimed with the log: the same interaction delivered twice rolls once (storage.handled).
        if spent is not None and formed.stored is not None:
            async with self.bot.storage.transaction() as tx:  # the spend, the log and the journal together
                await tx.handled.claim(interaction.id)
                await tx.characters.update(guild_id, formed.stored, spent)
                await tx.rolls.append(record)
                changes = sheet_change(record.at, formed.stored, spent)
                changes += charges_moved(record.at, formed.stored, spent, moves)
                await tx.journal.add(guild_id, origin, changes + told)
        else:
            await self.bot.storage.rolls.append_once(record, interaction.id, (origin, told))
        spends = [*formed.notes]
        if spent is not None and formed.spends is not None:
            left = standing_available(spent, formed.spends)
            spends.append(f"{formed.spends.label} spent: {left} left until it recovers.")
        if formed.tapped is not None:
            spends.append(f"{count_of(formed.tapped.charges, 'charge')} of {formed.tapped.metal} tapped.")
        title, roller = roll_title(formed, label), interaction.user.display_name
        circumstances = applied.text()  # which Circumstances it carried, so the table sees why (§1.6)

        def draw(table: bool = False) -> Card:
            """``table``: a hidden roller's card for the table, without its sheet's figures."""
            notes = [] if table else spends
            note = "\n".join([*notes, "Secret roll"] if secret else notes)
            return reading_card(
                reading, title=title, roller=roller, circumstances=circumstances, note=note, hidden=table
            )

        return Drawn(draw, (lambda: draw(table=True)) if veiled else None)

    def _roll_elsewhere(
        self, interaction: Interaction, request: PoolRequest, difficulty: int, label: str | None
    ) -> Drawn:
        """A roll where the bot serves no server: bare dice, answered and not logged."""
        if request.from_sheet:
            raise BotError(SHEETS_ELSEWHERE)
        formed = form_pool(request, None)
        reading = roll(formed.pool, self.bot.rng, difficulty=difficulty, extra=formed.extra)
        title, roller = roll_title(formed, label), interaction.user.display_name
        return Drawn(lambda: reading_card(reading, title=title, roller=roller))

    @app_commands.command(name="roll", description="Roll a dice pool and read the Result, Outcome and Nudges")
    @app_commands.describe(**ROLL_DESCRIPTIONS)
    @app_commands.autocomplete(stat=stat_choices, tap=metalmind_metals)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def roll_command(
        self,
        interaction: Interaction,
        dice: DiceCount | None = None,
        stat: StatName | None = None,
        character: AnyCharacter | None = None,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        traits: Traits = 0,
        tool: Net = 0,
        circumstances: Net | None = None,
        modifier: Modifier = 0,
        label: Label | None = None,
        task: TaskChoice | None = None,
        tap: TapMetal | None = None,
        tap_charges: TapCharges | None = None,
        tap_for: TapUseChoice | None = None,
    ) -> None:
        tapping = tap_request(tap, tap_charges, tap_for)
        stat_only = stat is not None and dice is None
        applied, sheet = await roll_inputs(interaction, circumstances, stat_only, character)
        request = PoolRequest(dice, stat, traits, tool, applied.net, modifier, task=task, tap=tapping)
        drawn = await self._roll(interaction, request, sheet, difficulty, label, applied=applied)
        await show_roll(interaction, self.bot.storage, drawn)

    @app_commands.command(
        name="gmroll", description="Narrators: a secret roll, shown only to you and the GM channel"
    )
    @app_commands.describe(**ROLL_DESCRIPTIONS)
    @app_commands.autocomplete(stat=stat_choices, tap=metalmind_metals)
    @app_commands.guild_only()
    @narrator_only("make secret rolls")
    async def gmroll(
        self,
        interaction: Interaction,
        dice: DiceCount | None = None,
        stat: StatName | None = None,
        character: AnyCharacter | None = None,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        traits: Traits = 0,
        tool: Net = 0,
        circumstances: Net | None = None,
        modifier: Modifier = 0,
        label: Label | None = None,
        task: TaskChoice | None = None,
        tap: TapMetal | None = None,
        tap_charges: TapCharges | None = None,
        tap_for: TapUseChoice | None = None,
    ) -> None:
        tapping = tap_request(tap, tap_charges, tap_for)
        applied = await applied_circumstances(interaction, circumstances)
        request = PoolRequest(dice, stat, traits, tool, applied.net, modifier, task=task, tap=tapping)
        drawn = await self._roll(
            interaction, request, character, difficulty, label, secret=True, applied=applied
        )
        settings = await self.bot.storage.settings.get(guild_id_of(interaction))
        await tell_narrators(interaction, drawn.full, settings.gm_channel_id)

    @app_commands.command(name="read", description="Read dice rolled at the table: type the faces you see")
    @app_commands.describe(
        faces="The faces, e.g. 3 3 6 1 5",
        difficulty="1 Simple … 5 Nearly Impossible (default 1)",
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
        label: Label | None = None,
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
