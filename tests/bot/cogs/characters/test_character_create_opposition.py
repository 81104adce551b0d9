"""``/character create`` of a Villain or Extra with only a name (docs/rulings.md §6.11): the
builder is a player's, so the Narrator is told how to fill the sheet, and nothing is made."""

import pytest

from testbed.bot_env import BotEnv
from testbed.cards import card_text


@pytest.mark.parametrize("kind", ["Villain", "Extra"])
async def test_a_villain_or_extra_with_only_a_name_says_how_to_fill_the_sheet(
    bot_env: BotEnv, kind: str
) -> None:
    reply = await bot_env.slash(f"/character create name:Straff kind:{kind}")
    assert reply.ephemeral and reply.modal is None
    assert reply.content.startswith("Nothing was made: give Straff its numbers"), reply.content
    assert "`template`" in reply.content and "`physique`" in reply.content
    assert await bot_env.storage.characters.summaries(bot_env.guild_id) == []
    made = await bot_env.slash(f"/character create name:Straff kind:{kind} wits:5")
    assert made.message is not None and made.ephemeral and f"## Straff — {kind}" in card_text(made.message)
