"""Spending Advancements (docs/rulings.md §10.1): one improvement per Long Breather, offered
only when the Hero can buy it now, checked again when it is made, and approved by a Narrator
unless the server lets players spend alone (``/setup players-spend``).

``/advancement spend``'s ``improvement`` suggests only the cost table's rows the Hero can buy
now (``rules.character.purchases.offers``), a target each; for a new Stunt, ``words`` suggests
the catalogue of that Power's metal (``stunt_choices``), whose Stunts then change rolls (§9.7).
Whatever is typed, the purchase is checked again on the sheet as it is when made (``buy``): at
once for a Narrator or a server that lets players spend alone, else when a Narrator clicks
Approve on the request. Approving
takes the waiting request, checks and saves the sheet with its ledger, and journals it, in ONE
transaction: a refusal (the sheet changed since) leaves the request waiting, and of two clicks
at once exactly one approves it.
"""

import re
from typing import Any

import discord
from discord import app_commands
from pydantic import ValidationError

from bot import replies
from bot.access import require_read_of
from bot.checks import caller
from bot.client import Interaction
from bot.cogs.campaign.ledger import ledger_entry, save_ledger
from bot.errors import BotError
from bot.inputs.characters import active_character, find_character
from bot.reach import origin_of
from bot.render.common import plain
from bot.served import guild_id_of
from rules.character import Character, CharacterKind
from rules.character.power_purchases import stunt_offers
from rules.character.purchase_table import Purchase, PurchaseKind, Unlock
from rules.character.purchases import TABLE, buy, describe, offers, price
from rules.errors import RulesError
from rules.naming import name_matches, search_key
from rules.words import count_of
from storage import StoredCharacter
from storage.advancements import WaitingSpend

NOT_ON_OFFER = "Pick an improvement from the suggestions: they list what {name} can buy now."


def choice_value(kind: PurchaseKind, target: str) -> str:
    return f"{kind.value}|{target}"


async def unlocks_of(interaction: Interaction, stored: StoredCharacter) -> frozenset[Unlock]:
    return await interaction.client.storage.secrets.unlocks(guild_id_of(interaction), stored.id)


async def improvement_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """What the named (or active) Hero can buy now, a target each, its cost in the label."""
    typed = getattr(interaction.namespace, "name", None)
    try:
        stored = await (find_character(interaction, typed) if typed else active_character(interaction))
    except BotError:
        return []
    wanted = search_key(current)
    found: list[app_commands.Choice[str]] = []
    for offer in offers(stored.character, await unlocks_of(interaction, stored)):
        for target in offer.targets:
            cost = offer.rule.cost_text if offer.rule.asks.rating else str(offer.cheapest)
            label = f"{offer.rule.label}: {target.label} ({cost})"[:100]
            if wanted in search_key(label):
                found.append(
                    app_commands.Choice(name=label, value=choice_value(offer.rule.kind, target.value))
                )
    return found[:25]


async def stunt_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """``words`` for a new Stunt: the catalogue's Stunts of the chosen Power's metal that it may
    still take, "Name — what it does" (docs/rulings.md §9.7, §10.1); other words stay a free
    Stunt. Nothing for any other improvement."""
    kind, _, target = str(getattr(interaction.namespace, "improvement", "") or "").partition("|")
    if kind != PurchaseKind.STUNT.value:
        return []
    typed = getattr(interaction.namespace, "name", None)
    try:
        stored = await (find_character(interaction, typed) if typed else active_character(interaction))
    except BotError:
        return []
    listed = [s for s in stunt_offers(stored.character, target) if name_matches(current, s.name)]
    return [app_commands.Choice(name=f"{s.name} — {s.does}"[:100], value=s.name) for s in listed[:25]]


def purchase_of(character: Character, chosen: str, words: str | None, rating: int | None) -> Purchase:
    """The purchase an ``improvement`` choice (and its words or rating) names; refused plainly
    when it is not one the suggestions offer or lacks what its row asks."""
    kind_text, _, target = chosen.partition("|")
    kind = next((k for k in PurchaseKind if k.value == kind_text), None)
    if kind is None:
        raise BotError(NOT_ON_OFFER.format(name=plain(character.name)))
    asks = TABLE[kind].asks
    if asks.text and not (words or "").strip():
        raise BotError(f"{TABLE[kind].label} needs `words:` ({asks.text.lower()}).")
    if asks.rating and rating is None:
        low, high = asks.rating
        raise BotError(f"{TABLE[kind].label} needs `rating:` ({low} to {high}).")
    try:
        return Purchase(kind=kind, target=target, text=(words or "").strip(), rating=rating)
    except ValidationError:
        raise BotError(NOT_ON_OFFER.format(name=plain(character.name))) from None


def spent_line(before: Character, purchase: Purchase, after: Character) -> str:
    cost = before.advancements.held - after.advancements.held
    return (
        f"{before.name} spends {count_of(cost, 'Advancement')}: {describe(before, purchase)}. "
        f"Now {after.advancements.held} held."
    )


def approval_view(spend_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label="Approve", style=discord.ButtonStyle.success, custom_id=f"mab:spok:{spend_id}"
        )
    )
    view.add_item(
        discord.ui.Button(
            label="Refuse", style=discord.ButtonStyle.secondary, custom_id=f"mab:spno:{spend_id}"
        )
    )
    view.stop()
    return view


async def spend(
    interaction: Interaction, name: str | None, improvement: str, words: str | None, rating: int | None
) -> None:
    """Load → check the caller controls the Hero → check the purchase now → make it (a Narrator,
    or players trusted by the server) or ask a Narrator."""
    stored = await (find_character(interaction, name) if name else active_character(interaction))
    who = await caller(interaction)
    who.require_control(stored.character, "spend their Advancements")
    if stored.character.kind is not CharacterKind.HERO:
        raise BotError("Only Heroes spend Advancements.")
    purchase = purchase_of(stored.character, improvement, words, rating)
    unlocks = await unlocks_of(interaction, stored)
    after = buy(stored.character, purchase, unlocks)  # refused here with the reason
    storage = interaction.client.storage
    alone = (await storage.settings.get(guild_id_of(interaction))).players_spend
    if who.narrator or alone:
        line = spent_line(stored.character, purchase, after)
        await save_ledger(interaction, stored, after, line, -price(stored.character, purchase))
        await replies.send(interaction, plain(line))
        return
    asked = await storage.advancements.ask(
        guild_id_of(interaction), stored.id, interaction.channel_id or 0, interaction.user.id, purchase,
        discord.utils.utcnow(),
    )  # fmt: skip
    cost = price(stored.character, purchase)
    await replies.send(
        interaction,
        f"{plain(stored.name)} asks to spend {count_of(cost, 'Advancement')} on "
        f"{plain(describe(stored.character, purchase))}. A Narrator approves or refuses it.",
        view=approval_view(asked.id),
    )


async def decide(interaction: Interaction, spend_id: int, approve: bool) -> None:
    """A Narrator's click on a request: approve (checked again, then made) or refuse."""
    (await caller(interaction)).require_narrator("approve a spend of Advancements")
    guild_id = guild_id_of(interaction)
    storage = interaction.client.storage
    waiting = await storage.advancements.waiting(guild_id, spend_id)
    if waiting is None:
        await replies.edit(interaction, view=None)
        raise BotError("That request is no longer waiting: it was decided, or replaced by a newer one.")
    stored = await storage.characters.get(guild_id, waiting.character_id)
    await require_read_of(interaction, storage, stored.character, stored.revealed)
    if not approve:
        await storage.advancements.take(guild_id, spend_id)
        await replies.edit(interaction, view=None)
        await replies.send(interaction, f"The Narrator refuses {plain(stored.name)}'s spend.")
        return
    line = await approve_spend(interaction, stored, waiting)
    await replies.edit(interaction, view=None)
    await replies.send(interaction, plain(line))


async def approve_spend(interaction: Interaction, stored: StoredCharacter, waiting: WaitingSpend) -> str:
    unlocks = await unlocks_of(interaction, stored)
    try:
        after = buy(stored.character, waiting.purchase, unlocks)
    except RulesError as error:
        raise BotError(f"{error} The request stays waiting; refuse it, or ask the player again.") from None
    line = spent_line(stored.character, waiting.purchase, after)
    cost = price(stored.character, waiting.purchase)
    guild_id = guild_id_of(interaction)
    async with interaction.client.storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        if await tx.advancements.take(guild_id, waiting.id) is None:
            raise BotError("That request was just decided by another click.")
        saved = await tx.characters.update(guild_id, stored, after)
        await tx.journal.add(guild_id, origin_of(interaction), [ledger_entry(saved, after, line, -cost)])
    return line


class Decide(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mab:sp(?P<how>ok|no):(?P<spend>\d+)"):
    """Approve or Refuse under a player's request."""

    def __init__(self, spend_id: int, approve: bool) -> None:
        how = "ok" if approve else "no"
        super().__init__(discord.ui.Button(custom_id=f"mab:sp{how}:{spend_id}"))
        self.spend_id, self.approve = spend_id, approve

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "Decide":
        return cls(int(match["spend"]), match["how"] == "ok")

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await decide(interaction, self.spend_id, self.approve)
