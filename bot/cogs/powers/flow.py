"""The one path of every ``/power`` change: load → check → pure change → save once (with the
charges it moved, for the journal) → answer, the figures of a hidden sheet to the Narrator only
(docs/rulings.md §7.1, §9.9)."""

from collections.abc import Callable

from bot.checks import caller
from bot.client import Interaction
from bot.hidden import tell_change
from bot.inputs.sheet_changes import load_to_change, save
from bot.render.common import plain
from bot.render.sheet import change_embed
from rules.character import Character
from rules.powers.burning import then_knocked_out
from rules.powers.ledger import Changed
from storage import StoredCharacter

DOING = "use their Powers"


async def apply(
    interaction: Interaction,
    given: StoredCharacter | None,
    edit: Callable[[Character], Changed],
    said: Callable[[Character], str],
    *,
    narrator: str | None = None,
) -> StoredCharacter:
    """Apply ``edit`` to the named (or active) sheet and answer with ``said`` (of the sheet
    before) and the change's notes; a change that leaves 0 Health ends the burns and storing.
    ``narrator``: only a Narrator may do it (what they do)."""
    stored = await load_to_change(interaction, given, DOING, in_play=True)
    if narrator is not None:
        (await caller(interaction)).require_narrator(narrator)
    changed = then_knocked_out(edit(stored.character))  # docs/rulings.md §9.2
    saved = await save(interaction, stored, changed.character, told=True, moves=changed.moves)
    text = "\n".join(plain(line) for line in (said(stored.character), *changed.notes))
    embed = change_embed(saved.character, text, sections=["metals"])
    await tell_change(interaction, interaction.client.storage, stored, saved.character, embed)
    return saved


def unchanged(edit: Callable[[Character], Character]) -> Callable[[Character], Changed]:
    """A change that moves no charges, as one that does."""
    return lambda character: Changed(character=edit(character))
