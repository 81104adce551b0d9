"""One roll outside a Conflict, whatever asked for it: ``/roll``, ``/gmroll``, ``/roll saved:``
or a button of the roll panel (docs/rulings.md §6.14) all come here, so a tap rolls, logs and
answers exactly as the command does.

The path: the sheet (the named one, else the active one) checked to be the caller's to roll for
→ the pool formed from it as it is now → rolled with the bot's injected generator → the Standing
spent, an emotion a Zinc or Brass roll held (docs/rulings.md §9.3), the roll log and the journal
saved at once (the interaction's id claimed with them, so one delivered twice rolls once,
``storage.handled``) → the card drawn. Where the bot serves no
server, a bare count of dice is rolled and answered, and not logged (docs/architecture.md, "Dice
anywhere").

A ``secret`` roll (``/gmroll``, a hidden sheet's panel) is logged as secret and its card goes to
the Narrators only (``bot.hidden.tell_narrators``). A roll from a Narrator's hidden
Villain or Extra that is not secret shows the table its dice but not the ratings behind them,
and is logged as secret, as in a Conflict; the full card goes where a ``/gmroll``'s does
(docs/rulings.md §7.1).
"""

from dataclasses import dataclass

from bot.access import owner_controls
from bot.checks import caller
from bot.client import Interaction
from bot.errors import BotError
from bot.hidden import Drawn, is_hidden, show_roll, tell_narrators
from bot.inputs.characters import SHEETS_ELSEWHERE, at_table, named_or_active
from bot.inputs.circumstances import Applied, applied_circumstances, scene_applied
from bot.inputs.pools import FormedPool, PoolRequest, TapRequest, form_pool, roll_title, spent_by
from bot.reach import origin_of
from bot.records import charges_moved, roll_entry, roll_record, sheet_change
from bot.render.cards import Card
from bot.render.dice import reading_card
from bot.served import channel_id_of, guild_id_of, served_guild_id
from rules.character import Character
from rules.character.metals import Task
from rules.character.stats import standing_available
from rules.character.story import Subplot
from rules.powers.metal_effects import EmotionRoll, emotion_roll
from rules.roll import Reading, roll
from rules.saved_roll import SavedRoll
from rules.words import count_of
from storage import StoredCharacter

NONE_APPLIED = Applied()
CIRCUMSTANCES_ELSEWHERE = (
    "Circumstances are the Narrator's call in a server with the bot: leave `circumstances` out "
    "here, or count them in `modifier`."
)


async def pool_for(
    interaction: Interaction, request: PoolRequest, character: StoredCharacter | None, *, acting: bool
) -> FormedPool:
    """Load the sheet a request reads (the named one, else the active one) and form its pool.

    Rolling for a sheet needs control of it when ``acting``; the resisting side of a Contest
    may be any sheet the caller may read (docs/rulings.md §7.1), as may the Hero whose Tragedy
    helps bare dice rolled against them (§10.2). A member's own Hero is theirs to roll whoever
    they are (§6.9), so rolling it reads no settings and judges no roles.
    """
    stored = None
    if not request.from_sheet and request.subplot is Subplot.TRAGEDY and character is not None:
        stored = await named_or_active(interaction, character)
        (await caller(interaction)).require_read(stored.character, stored.revealed)
    elif request.from_sheet:
        stored = await named_or_active(interaction, character)
        if not acting:
            (await caller(interaction)).require_read(stored.character, stored.revealed)
        elif not owner_controls(interaction.user.id, stored.character):  # their own Hero: asks nobody
            (await caller(interaction)).require_control(stored.character, "roll for them")
    return form_pool(request, stored)


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
    if served_guild_id(interaction) is None:
        return await roll_circumstances(interaction, given), character
    if stat_only and character is None and given is None:
        table = await at_table(interaction, channel_id_of(interaction))
        return scene_applied(table.scene), table.sheet
    return await applied_circumstances(interaction, given), character


async def throw(
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
    client = interaction.client
    guild_id = served_guild_id(interaction)
    if guild_id is None:
        return throw_elsewhere(interaction, request, difficulty, label)
    formed = await pool_for(interaction, request, character, acting=True)
    spent, moves = spent_by(formed)
    reading = roll(formed.pool, client.rng, difficulty=difficulty, extra=formed.extra)
    emotion = emotion_of(formed, request, spent, reading)
    if emotion is not None and emotion.character is not None:
        spent = emotion.character  # the emotion held is saved with the roll
    origin = origin_of(interaction)
    veiled = is_hidden(formed.stored) and not secret
    # A hidden sheet's rolls are secret in the log (their pool shows there), as in a Conflict.
    record = roll_record(
        guild_id, interaction.user.id, reading, label or formed.title, origin=origin, secret=secret or veiled
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
        async with client.storage.transaction() as tx:  # the spend, the log and the journal together
            await tx.handled.claim(interaction.id)
            await tx.characters.update(guild_id, formed.stored, spent)
            await tx.rolls.append(record)
            changes = sheet_change(record.at, formed.stored, spent)
            changes += charges_moved(record.at, formed.stored, spent, moves)
            await tx.journal.add(guild_id, origin, changes + told)
    else:
        await client.storage.rolls.append_once(record, interaction.id, (origin, told))
    spends = [*formed.notes, *([emotion.note] if emotion is not None else [])]
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


def emotion_of(
    formed: FormedPool, request: PoolRequest, spent: Character | None, reading: Reading
) -> EmotionRoll | None:
    """A roll of the sheet's Zinc or Brass riots or soothes (docs/rulings.md §9.3): what it held
    or what its failure means, on the sheet as the roll's spending left it. Its line joins the
    card's notes, which a hidden roller's table card leaves out (§7.1)."""
    if formed.stored is None or request.stat is None:
        return None
    return emotion_roll(spent or formed.stored.character, request.stat, reading)


def throw_elsewhere(
    interaction: Interaction, request: PoolRequest, difficulty: int, label: str | None
) -> Drawn:
    """A roll where the bot serves no server: bare dice, answered and not logged."""
    if request.from_sheet:
        raise BotError(SHEETS_ELSEWHERE)
    formed = form_pool(request, None)
    reading = roll(formed.pool, interaction.client.rng, difficulty=difficulty, extra=formed.extra)
    title, roller = roll_title(formed, label), interaction.user.display_name
    return Drawn(lambda: reading_card(reading, title=title, roller=roller))


async def answer(interaction: Interaction, drawn: Drawn, *, secret: bool) -> None:
    """Show the roll: a secret one to the Narrator and the GM channel, as ``/gmroll``'s is
    (docs/rulings.md §7.1); any other in the open (a hidden roller's as its table card)."""
    if not secret:
        await show_roll(interaction, interaction.client.storage, drawn)
        return
    settings = await interaction.client.storage.settings.get(guild_id_of(interaction))
    await tell_narrators(interaction, drawn.full, settings.gm_channel_id)


@dataclass(frozen=True)
class DeclaredWith:
    """What a roll's asker declared with it beside the pool: a Power's ``task`` or ``tap``, the
    ``subplot`` it serves (docs/rulings.md §10.2)."""

    task: Task | None = None
    tap: TapRequest | None = None
    subplot: Subplot | None = None


async def throw_saved(
    interaction: Interaction,
    stored: StoredCharacter,
    saved: SavedRoll,
    *,
    label: str | None,
    secret: bool,
    circumstances: int | None = None,
    declared: DeclaredWith = DeclaredWith(),
) -> None:
    """Roll ``saved`` from ``stored``'s sheet as it is now, with ``circumstances`` (a
    Narrator's, else the channel's) and what was ``declared`` with it, and answer: the path
    ``/roll stat:`` takes (§6.14)."""
    applied = await roll_circumstances(interaction, circumstances)
    request = PoolRequest(
        None,
        saved.stat,
        saved.traits,
        saved.tool,
        applied.net,
        saved.modifier,
        task=declared.task,
        tap=declared.tap,
        subplot=declared.subplot,
        label=label or "",
    )
    drawn = await throw(interaction, request, stored, saved.difficulty, label, secret=secret, applied=applied)
    await answer(interaction, drawn, secret=secret)
