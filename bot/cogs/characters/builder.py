"""The guided Hero builder: ``/character create`` with only a name (docs/rulings.md §6.10).

The Hero is made in one private message, edited step by step in the creation order: a form for
the concept (which may pick the labels and the Powers too, skipping their steps), menus for the
labels, the splits and the Powers, forms for the Traits and for Destiny, Tragedy and Props, then
a review with the button that creates the Hero (or the story form's checkbox does, at once).
Every step has Back and Cancel; the preview shows the sheet so far and what is still to do.

Every click and form goes the one way (docs/architecture.md, "One interaction"): the custom id
says which draft and step → load the draft → check the caller is the member making it (anyone
else is refused privately) → a pure change from ``rules.character.draft`` → save once, with the
version read → render the step (``builder_screens``). What each click means is
``builder_changes``. A change the rules refuse is not saved and
the step is shown again with the reason. The half-made Hero is a stored draft: it survives a
restart, ``/character create`` resumes it, and it is never a character until created.
"""

import re
from typing import Any

import discord
from discord.ext import commands

from bot import replies
from bot.clicks import first_picked
from bot.client import Interaction, MistbornClient
from bot.cogs.characters.builder_changes import Change, Turn, chose, next_step, wrote
from bot.cogs.characters.builder_forms import form
from bot.cogs.characters.builder_screens import (
    BUTTON,
    CREATE,
    FORM_FIELDS,
    MODAL,
    SELECT,
    button_id,
    screen,
    select_id,
)
from bot.cogs.characters.portrait import portrait_view
from bot.errors import BotError, NotAllowed, answer_error
from bot.forms import SentForm
from bot.render.common import plain
from bot.render.sheet_card import sheet_card
from bot.served import guild_id_of
from bot.text import inert
from rules.character import CharacterKind
from rules.character.draft import (
    Step,
    at_step,
    finish,
    new_draft,
    still_to_do,
    typed_dropped,
    typed_kept,
)
from rules.errors import RulesError
from storage import AlreadyExistsError, NotFoundError, StoredDraft

NO_PINGS = discord.AllowedMentions.none()
OTHERS = "Only the member making this Hero can choose for it."
MODAL_ID = re.compile(MODAL)


async def load(interaction: Interaction, draft_id: int) -> StoredDraft:
    """The draft, if it is the caller's; :class:`NotFoundError` when it is gone."""
    stored = await interaction.client.storage.drafts.get(guild_id_of(interaction), draft_id)
    if stored.user_id != interaction.user.id:
        raise NotAllowed(OTHERS)
    return stored


async def show(
    interaction: Interaction, stored: StoredDraft, step: Step, notice: str = "", *, opens: bool = False
) -> None:
    """Answer with the step: its form (from a click only), else the message, edited in place
    when the interaction came from it and sent privately when it did not."""
    if opens and interaction.type is discord.InteractionType.component:
        await replies.send_modal(interaction, form(stored.id, stored.draft, step))
        return
    shown = screen(stored.id, stored.draft, step, notice)
    if interaction.message is not None:
        await replies.edit(
            interaction, content=shown.content, embed=shown.embed, view=shown.view, allowed_mentions=NO_PINGS
        )
    else:
        await replies.send(
            interaction,
            shown.content,
            embed=shown.embed,
            view=shown.view,
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )


async def gone(interaction: Interaction, error: NotFoundError) -> None:
    """The draft was finished, cancelled or expired: say so where the click came from."""
    if interaction.message is not None:
        await replies.edit(interaction, content=str(error), embed=None, view=None, allowed_mentions=NO_PINGS)
    else:
        await answer_error(interaction, error)


async def run(
    interaction: Interaction,
    draft_id: int,
    clicked: Step,
    change: Change,
    typed: dict[str, str] | None = None,
) -> None:
    """Load → check → pure change → save once → render; a refused change is shown, not saved.

    ``typed`` is a form's text: a refused form's is kept (and only that is saved), so the form
    opens again with everything the player wrote; an accepted form's is no longer needed."""
    drafts = interaction.client.storage.drafts
    try:
        stored = await load(interaction, draft_id)
        try:
            turn = change(stored.draft)
        except RulesError as error:
            notice = f"Not saved: {inert(str(error))}"
            if typed:
                stored = await drafts.save(stored, typed_kept(stored.draft, typed))
                notice += " What you wrote is kept: press the button to write it again."
            await show(interaction, stored, clicked, notice)
            return
        draft = typed_dropped(at_step(turn.draft, turn.step), typed or {})
        saved = await drafts.save(stored, draft)
        if turn.create and not still_to_do(saved.draft):
            await make(interaction, saved)
            return
        await show(interaction, saved, turn.step, turn.notice, opens=turn.form)
    except NotFoundError as error:
        await gone(interaction, error)


# -- buttons -------------------------------------------------------------------------------


async def write(interaction: Interaction, draft_id: int, step: Step) -> None:
    """Open a step's form; nothing changes until it is sent."""
    try:
        stored = await load(interaction, draft_id)
        await replies.send_modal(interaction, form(stored.id, stored.draft, step))
    except NotFoundError as error:
        await gone(interaction, error)


async def cancel(interaction: Interaction, draft_id: int) -> None:
    try:
        stored = await load(interaction, draft_id)
        await interaction.client.storage.drafts.delete(stored)
        await replies.edit(
            interaction,
            content=f"Cancelled: **{plain(stored.draft.name)}** was not made, and nothing was kept.",
            embed=None,
            view=None,
            allowed_mentions=NO_PINGS,
        )
    except NotFoundError as error:
        await gone(interaction, error)


async def create(interaction: Interaction, draft_id: int) -> None:
    """Finish the draft into a Hero: the sheet, the member's active character if they have
    none, and the draft's removal, in one transaction; then the sheet in the channel."""
    try:
        await make(interaction, await load(interaction, draft_id))
    except NotFoundError as error:
        name = name_on_create(interaction, draft_id)
        if name is not None and await made_already(interaction, name):  # a second tap on Create
            await created(interaction, name)
        else:
            await gone(interaction, error)


async def make(interaction: Interaction, stored: StoredDraft) -> None:
    """The draft made into the Hero, from the Create button or the story form's checkbox."""
    try:
        hero = finish(stored.draft)
    except RulesError as error:
        await show(interaction, stored, Step.REVIEW, f"Not created: {inert(str(error))}")
        return
    guild_id, user_id = guild_id_of(interaction), interaction.user.id
    storage = interaction.client.storage
    try:
        async with storage.transaction() as tx:
            saved = await tx.characters.create(guild_id, hero, interaction.client.settings.sheet_limits)
            active = await tx.active.get(guild_id, user_id) is None
            if active:
                await tx.active.set(guild_id, user_id, saved.id)
            await tx.drafts.delete(stored)
    except (AlreadyExistsError, NotFoundError):
        if await made_already(interaction, hero.name):  # two taps at once: the other made it
            await created(interaction, hero.name)
            return
        notice = f"There is already a character named {plain(hero.name)} here: go back to step 1 to rename."
        await show(interaction, stored, Step.REVIEW, notice)
        return
    await created(interaction, hero.name, " It is now your active character." if active else "", saved.id)
    await replies.send(
        interaction,
        view=sheet_card(hero, notes=[f"<@{user_id}> made **{plain(hero.name)}**."]),
        allowed_mentions=NO_PINGS,
    )


async def created(interaction: Interaction, name: str, note: str = "", hero_id: int | None = None) -> None:
    """The builder's last screen: the Hero is made; with ``hero_id``, a button to upload a
    portrait for them (``portrait``)."""
    portrait = " Add a portrait if you like." if hero_id is not None else ""
    await replies.edit(
        interaction,
        content=f"Created **{plain(name)}**.{note} The sheet is in the channel.{portrait}",
        embed=None,
        view=portrait_view(hero_id) if hero_id is not None else None,
        allowed_mentions=NO_PINGS,
    )


def name_on_create(interaction: Interaction, draft_id: int) -> str | None:
    """The name on the Create button that was pressed, read from its message: its draft may be
    gone already, made into the Hero by a tap a moment before."""
    wanted = button_id(draft_id, Step.REVIEW, "create")
    rows = interaction.message.components if interaction.message is not None else []
    for row in rows:
        for child in getattr(row, "children", []):
            label = getattr(child, "label", None)
            if getattr(child, "custom_id", None) == wanted and label and label.startswith(CREATE):
                return str(label).removeprefix(CREATE)
    return None


async def made_already(interaction: Interaction, name: str) -> bool:
    """Whether the clicker's Hero called ``name`` exists: an earlier tap on Create made it."""
    try:
        found = await interaction.client.storage.characters.get_by_name(guild_id_of(interaction), name)
    except NotFoundError:
        return False
    hero = found.character
    return hero.kind is CharacterKind.HERO and hero.owner_id == interaction.user.id


async def press(interaction: Interaction, draft_id: int, step: Step, action: str) -> None:
    if action == "back":
        await run(interaction, draft_id, step, lambda draft: Turn(draft, step.previous))
    elif action == "next":
        await run(interaction, draft_id, step, next_step(step))
    elif action == "write":
        await write(interaction, draft_id, step)
    elif action == "cancel":
        await cancel(interaction, draft_id)
    else:
        await create(interaction, draft_id)


# -- forms -------------------------------------------------------------------------------


async def name_taken(interaction: Interaction, name: str) -> bool:
    try:
        await interaction.client.storage.characters.get_by_name(guild_id_of(interaction), name)
    except NotFoundError:
        return False
    return True


async def submitted(interaction: Interaction, draft_id: int, step: Step, values: dict[str, str]) -> None:
    taken = step is Step.CONCEPT and await name_taken(interaction, values.get("name", ""))
    typed = {field: text for field, text in values.items() if field in FORM_FIELDS[step]}
    await run(interaction, draft_id, step, wrote(step, values, taken), typed)


# -- entry points --------------------------------------------------------------------------


async def start(interaction: Interaction, name: str) -> None:
    """``/character create`` with only a name: resume the member's draft, or start one and
    open the first form. A draft that holds nothing but a name (its form was closed unsent)
    simply takes the new name: there is nothing in it to lose."""
    guild_id, user_id = guild_id_of(interaction), interaction.user.id
    storage = interaction.client.storage
    existing = await storage.drafts.of_member(guild_id, user_id)
    empty = existing is not None and typed_dropped(
        at_step(existing.draft, Step.CONCEPT), existing.draft.typed
    ) == new_draft(existing.draft.name, user_id)
    if existing is not None and not empty:
        notice = "Here is your Hero as you left them."
        if existing.draft.name != name:
            notice = (
                f"You are making {plain(existing.draft.name)}: finish or cancel them before {plain(name)}."
            )
        await show(interaction, existing, existing.draft.step, notice)
        return
    if await name_taken(interaction, name):
        raise BotError(
            f"There is already a character named {plain(name)} in this server; choose another name."
        )
    if existing is None:
        stored = await storage.drafts.start(guild_id, user_id, new_draft(name, user_id))
    else:
        stored = await storage.drafts.save(existing, new_draft(name, user_id))
    await replies.send_modal(interaction, form(stored.id, stored.draft, Step.CONCEPT))


class HeroButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON):
    def __init__(self, draft_id: int, step: Step, action: str) -> None:
        super().__init__(discord.ui.Button(custom_id=button_id(draft_id, step, action)))
        self.draft_id, self.step, self.action = draft_id, step, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "HeroButton":
        return cls(int(match["draft"]), Step(match["step"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await press(interaction, self.draft_id, self.step, self.action)


class HeroSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT):
    def __init__(self, draft_id: int, step: Step, part: str, chunk: str = "") -> None:
        super().__init__(
            discord.ui.Select(custom_id=select_id(draft_id, step, part, int(chunk) if chunk else None))
        )
        self.draft_id, self.step, self.part = draft_id, step, part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "HeroSelect":
        return cls(int(match["draft"]), Step(match["step"]), match["part"], match["chunk"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        value = first_picked(interaction, "")
        await run(interaction, self.draft_id, self.step, chose(self.part, value, self.step))


class HeroBuilder(commands.Cog):
    """Holds the builder's buttons and menus (``DynamicItem``s) and the listener for its forms:
    discord.py keeps no form in memory, so a form sent before a restart still lands here."""

    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HeroButton, HeroSelect)
        self.bot.forms.add(MODAL_ID, self.form_sent)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HeroButton, HeroSelect)
        self.bot.forms.remove(MODAL_ID)

    async def form_sent(self, interaction: Interaction, sent: SentForm) -> None:
        """A sent step's form: its typing applied to the draft (``run``)."""
        await submitted(interaction, int(sent.found["draft"]), Step(sent.found["step"]), sent.values)
