"""``/advancement``: a Hero's Advancements ledger (docs/rulings.md §10.1).

A Narrator awards Advancements (any number; past 20 held the rest is lost, and the Narrator is
told privately) or takes back what was wrongly given; anyone reads a Hero's ledger, as anyone
reads a Hero's sheet. Each change answers at the table and is a journal entry, saved in the same
transaction as the sheet (``bot.cogs.campaign.ledger``).
"""

from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.access import require_read_of
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.campaign.awards import ChooseAward, GiveAwards, show_panel
from bot.cogs.campaign.ledger import save_ledger
from bot.cogs.campaign.spending import Decide, improvement_choices, spend, stunt_choices
from bot.errors import BotError
from bot.inputs.characters import AnyCharacter, named_or_active
from bot.render.common import plain
from rules.character import CharacterKind
from rules.character.advancement import AWARD_MAX, HOLD_MAX, award, ledger_line, open_spend, take_back
from rules.words import count_of
from storage import StoredCharacter

Amount = app_commands.Range[int, 1, AWARD_MAX]
Reason = app_commands.Range[str, 1, 200]
HEROES_ONLY = "Only Heroes keep Advancements; {name} is the Narrator's."


def require_hero(stored: StoredCharacter) -> None:
    if stored.character.kind is not CharacterKind.HERO:
        raise BotError(HEROES_ONLY.format(name=plain(stored.name)))


def reason_text(reason: str | None) -> str:
    words = " ".join((reason or "").split())
    return f" ({words})" if words else ""


@app_commands.guild_only()
class AdvancementCommands(
    commands.GroupCog,
    group_name="advancement",
    group_description="A Hero's Advancements: tonight's awards, spending, corrections, the ledger",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ChooseAward, GiveAwards, Decide)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ChooseAward, GiveAwards, Decide)

    @app_commands.command(
        name="night", description="Narrator: tonight's awards for each Hero in this session"
    )
    async def night(self, interaction: Interaction) -> None:
        """The panel of ``bot.cogs.campaign.awards``, with the Burden trigger filled in."""
        await show_panel(interaction)

    @app_commands.command(name="award", description="Narrator: give a Hero Advancements (20 held at most)")
    @app_commands.describe(
        name="The Hero", amount="How many (1–3 is usual)", reason="What for (goes in the journal)"
    )
    async def award(
        self, interaction: Interaction, name: AnyCharacter, amount: Amount, reason: Reason | None = None
    ) -> None:
        (await caller(interaction)).require_narrator("award Advancements")
        stored = await named_or_active(interaction, name)
        require_hero(stored)
        given = award(stored.character.advancements, amount)
        after = stored.character.model_copy(update={"advancements": given.ledger})
        kept = f"{plain(stored.name)} earns {count_of(amount, 'Advancement')}{reason_text(reason)}"
        lost = f"; {given.lost} lost over the {HOLD_MAX} a Hero holds" if given.lost else ""
        text = f"{kept}{lost}. Now {given.ledger.held} held."
        await save_ledger(interaction, stored, after, text, amount)
        await replies.send(interaction, text)
        if given.lost:
            await replies.send(
                interaction,
                f"{plain(stored.name)} already held {stored.character.advancements.held}: "
                f"{count_of(given.lost, 'Advancement')} of this award {'is' if given.lost == 1 else 'are'} "
                f"lost, since a Hero holds at most {HOLD_MAX}. They can spend some in a Long Breather.",
                ephemeral=True,
            )

    @app_commands.command(name="take_back", description="Narrator: take back Advancements given by mistake")
    @app_commands.describe(name="The Hero", amount="How many", reason="Why (goes in the journal)")
    async def take_back(
        self, interaction: Interaction, name: AnyCharacter, amount: Amount, reason: Reason | None = None
    ) -> None:
        (await caller(interaction)).require_narrator("take back Advancements")
        stored = await named_or_active(interaction, name)
        require_hero(stored)
        ledger = take_back(stored.character.advancements, amount)
        after = stored.character.model_copy(update={"advancements": ledger})
        text = (
            f"The Narrator takes back {count_of(amount, 'Advancement')} from {plain(stored.name)}"
            f"{reason_text(reason)}. Now {ledger.held} held."
        )
        await save_ledger(interaction, stored, after, text, -amount)
        await replies.send(interaction, text)

    @app_commands.command(name="spend", description="Spend a Hero's Advancements on one improvement")
    @app_commands.describe(
        improvement="What to buy (the suggestions list what the Hero can buy now)",
        name="Your Hero (default: your active character)",
        words="A new Trait's words, or a Stunt (its metal's are suggested; your own words are free)",
        rating="A spike's rating (its victim's less 1), when buying a spike",
    )
    @app_commands.autocomplete(improvement=improvement_choices, words=stunt_choices)
    async def spend(
        self,
        interaction: Interaction,
        improvement: app_commands.Range[str, 1, 100],
        name: app_commands.Range[str, 1, 60] | None = None,
        words: app_commands.Range[str, 1, 60] | None = None,
        rating: app_commands.Range[int, 2, 10] | None = None,
    ) -> None:
        await spend(interaction, name, improvement, words, rating)

    @app_commands.command(name="allow", description="Narrator: let a Hero spend now, outside a Long Breather")
    @app_commands.describe(name="The Hero")
    async def allow(self, interaction: Interaction, name: AnyCharacter) -> None:
        (await caller(interaction)).require_narrator("let a Hero spend Advancements")
        stored = await named_or_active(interaction, name)
        require_hero(stored)
        if stored.character.advancements.spend_open:
            raise BotError(f"{plain(stored.name)} already has a spend open.")
        after = stored.character.model_copy(
            update={"advancements": open_spend(stored.character.advancements)}
        )
        text = f"The Narrator lets {plain(stored.name)} spend Advancements on one improvement now."
        await save_ledger(interaction, stored, after, text, 0)
        await replies.send(interaction, text)

    @app_commands.command(name="show", description="A Hero's Advancements: held, earned, spent, lost")
    @app_commands.describe(name="The Hero (default: your active character)")
    async def show(self, interaction: Interaction, name: AnyCharacter | None = None) -> None:
        stored = await named_or_active(interaction, name)
        await require_read_of(interaction, self.bot.storage, stored.character, stored.revealed)
        require_hero(stored)
        await replies.send(
            interaction,
            f"**{plain(stored.name)}**: {ledger_line(stored.character.advancements)}.",
            ephemeral=True,
        )
