"""The ``template:`` option: a built-in template (docs/rulings.md §6.11) or one the server's
Narrators saved (§10.4), suggested and read alike; saved names are suggested to Narrators only."""

from discord import app_commands

from bot.access import caller_of
from bot.client import Interaction, MistbornClient
from bot.errors import BotError
from bot.render.common import plain
from bot.served import served_guild_id
from rules.character.opposition import TEMPLATES, Opposition
from rules.naming import did_you_mean, search_key
from storage.templates import StoredTemplate

BUILT_IN = {t.value: t for t in Opposition}
LABELS = {t.value: f"{TEMPLATES[t].label} ({TEMPLATES[t].kind.label})" for t in Opposition}


class TemplateTransformer(app_commands.Transformer[MistbornClient]):
    """A built-in :class:`Opposition`, or a :class:`StoredTemplate` of this server."""

    async def transform(self, interaction: Interaction, value: str) -> Opposition | StoredTemplate:
        key = value.strip().lower()
        if key in BUILT_IN:
            return BUILT_IN[key]
        guild_id = served_guild_id(interaction)
        found = None
        if guild_id is not None and (await caller_of(interaction, interaction.client.storage)).narrator:
            found = await interaction.client.storage.templates.named(guild_id, value)
        shown = [k for k in BUILT_IN if search_key(value) and search_key(value) in search_key(LABELS[k])]
        if found is None and len(shown) == 1:
            return BUILT_IN[shown[0]]  # a word of the label Discord's list shows ("guard")
        if found is None:
            hint = did_you_mean(value[:40], list(BUILT_IN))
            raise BotError(
                f"'{plain(value[:40])}' is not a template; choose one of {', '.join(BUILT_IN)}, or one "
                f"saved with `/template save`.{hint}"
            )
        return found

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        wanted = search_key(value)
        found = [
            app_commands.Choice(name=LABELS[k], value=k) for k in BUILT_IN if wanted in search_key(LABELS[k])
        ]
        guild_id = served_guild_id(interaction)
        if guild_id is not None and (await caller_of(interaction, interaction.client.storage)).narrator:
            saved = await interaction.client.storage.templates.names(guild_id, value)
            found += [app_commands.Choice(name=f"{n} (saved)"[:100], value=n) for n in saved]
        return found[:25]


TemplateChoice = app_commands.Transform[Opposition | StoredTemplate, TemplateTransformer()]
