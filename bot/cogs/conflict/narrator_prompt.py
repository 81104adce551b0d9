"""The Narrator's own characters' dice on the Narrator's private prompt (issue 43,
docs/rulings.md §4.21, §7.1).

When a move asks a hidden Villain or Extras group to defend or act, the public prompt offers
every count, so it tells the table nothing. Its Narrator is also sent, privately, what the
character holds and the buttons its dice allow (:func:`exact_choices`, also the answer of the
public prompt's **Its dice (Narrator)**, ``bot.cogs.conflict.hidden_dice``): as a followup on the
move itself when they made it, else on their latest interaction in the channel
(``bot.workers.narrator_reach``), which only a Narrator's moves are kept as. A hidden character's
defence is then one click, not two. Where there is none (a restart, another process, a quiet
quarter of an hour), the public prompt's **Its dice (Narrator)** still answers.
"""

import logging
from collections.abc import Mapping
from typing import Any

import aiohttp
import discord

from bot import replies
from bot.client import Interaction
from bot.cogs.conflict.answers import Reply
from bot.cogs.conflict.metal_offers import metal_offers, room
from bot.cogs.conflict.questions import MAX_DEFENCE
from bot.cogs.conflict.turns import turn_of
from bot.errors import BotError
from bot.render.buttons import act_button, defend_button, deflect_select, metal_button, stopped
from bot.render.common import plain
from bot.render.conflict import FULL
from rules.character import Character
from rules.conflict import Awaiting, Conflict, available_defence
from rules.conflict.deflecting import deflect_offer

log = logging.getLogger(__name__)
ANSWERED = "That question has been answered; the board shows who is up now."


def exact_choices(
    conflict_id: int, state: Conflict, sheets: Mapping[int, Character], who: int
) -> tuple[str, discord.ui.View | None]:
    """What hidden character ``who`` holds and the buttons its dice allow, for a Narrator's eyes
    only: its defence's counts when it must defend, its pools when it must act, and its metals
    to burn, flare, drink or stop (also when it must declare), as a shown Allomancer's turn
    offers them (docs/rulings.md §9.2, §9.10), as many as fit; a refusal when it is not its turn
    nor its defence now."""
    items: list[discord.ui.Item[Any]] = []
    pending = state.pending
    if pending is not None and pending.awaiting is Awaiting.DEFENCE and pending.target == who:
        held = available_defence(state, sheets, who)
        counts = (0, *range(2, min(MAX_DEFENCE, held) + 1))
        items += [defend_button(conflict_id, pending.id, dice) for dice in counts]
        text = f"holds {held} Defense Dice: defend with how many?"
        if (found := deflect_offer(state, sheets)) is not None:  # its Steel or Iron (§9.3)
            deflecting, most = found
            items.append(deflect_select(conflict_id, pending.id, tuple(range(2, most + 1)), deflecting.metal))
            text += f" Or deflect it with {deflecting.metal}."
    else:
        turn = turn_of(state, sheets, FULL)
        if turn is None or turn.participant != who:
            raise BotError(ANSWERED)
        if turn.step == "act":
            items += [act_button(conflict_id, turn.round, who, dice) for dice in (*turn.act_with, 0)]
            text = f"holds {turn.held} Action Dice: act with how many?"
        else:
            text = "is up to declare: burn, flare, drink or stop its metals here first (the board declares)."
    sheet = sheets.get(who)
    offers = metal_offers(sheet)[: room(items)] if sheet is not None else ()
    items += [metal_button(conflict_id, state.round, who, *offer) for offer in offers]
    return f"**{plain(state.participant(who).name)}** {text}", stopped(items)


async def offer(interaction: Interaction, reply: Reply) -> None:
    """Send the hidden character the reply asks its exact choices, to its Narrator alone."""
    prompt, applied = reply.prompt, reply.applied
    if prompt is None or not prompt.hidden or applied is None or applied.stored is None:
        return
    sheet = applied.characters.get(prompt.hidden)
    if sheet is None:
        return
    reach = interaction.client.conflicts.narrators
    owner, here = sheet.owner_id, reply.channel_id
    moved_by_owner = reply.by_narrator and interaction.user.id == owner
    target = interaction if moved_by_owner else reach.latest(here, owner)
    if target is None:
        return
    try:
        text, view = exact_choices(applied.stored.id, applied.conflict, applied.characters, prompt.hidden)
    except BotError:
        return
    try:
        if target is interaction:
            await replies.send(target, text, view=view, ephemeral=True)
        else:  # a move of theirs, answered and released: only its token's followups are used
            await target.followup.send(
                text, view=view or discord.utils.MISSING, ephemeral=True, allowed_mentions=replies.NO_PINGS
            )
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
        log.info("The Narrator's private prompt in %s did not go: %s", here, error)
        reach.forget(here, owner)


def note(interaction: Interaction, reply: Reply) -> None:
    """Keep a Narrator's move as where their private prompts go next in its channel."""
    if reply.by_narrator:
        interaction.client.conflicts.narrators.note(reply.channel_id, interaction)
