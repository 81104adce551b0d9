"""The builder keeps what the player did (docs/rulings.md §6.10): a refused form opens again
with everything they wrote, a double tap on Create leaves the "Created" screen, and the preview
names a Misting's metal once."""

import asyncio
import copy

from fake_discord import payloads
from fake_discord.records import InteractionRecord
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.characters.builder_support import STORY, TRAITS, Builder

FIVE_PROPS = "Glass knives (weapon 1)\nCoin pouch\nCloak\nVials of metal\nA ribbon"


def opened_with(record: InteractionRecord) -> dict[str, str]:
    """The fields of the form ``record`` opened, as they open (pre-filled or empty)."""
    assert record.modal is not None, record.text
    return {i["custom_id"]: i["value"] for i in payloads.text_inputs(record.modal)}


async def to_story(env: BotEnv, powers: str = "Misting: Steel") -> Builder:
    builder = Builder(env)
    await builder.slash("/character create name:Vin")
    await builder.submit({"concept": "Street urchin"})
    await builder.choose("labels", "Strong Attributes, average Standings, weak Powers")
    await builder.choose("attributes", "Physique 3 · Charm 4 · Wits 6")
    await builder.choose("standings", "Resources 4 · Influence 4 · Spirit 3")
    await builder.choose("powers", powers)
    await builder.submit(TRAITS)
    return builder


async def test_a_refused_story_opens_again_with_all_that_was_written(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env)
    await builder.click("Write Destiny, Tragedy and Props")
    refused = await builder.submit({**STORY, "props": FIVE_PROPS})
    assert "Not saved" in refused.content and "at most 4" in refused.content
    again = await builder.click("Write Destiny, Tragedy and Props")
    assert opened_with(again) == {**STORY, "props": FIVE_PROPS}
    fixed = await builder.submit({"props": FIVE_PROPS.rsplit("\n", 1)[0]})
    assert "step 7 of 7" in fixed.content, fixed.content
    stored = await bot_env.storage.drafts.of_member(bot_env.guild_id, bot_env.user_id("player1"))
    assert stored is not None and stored.draft.destiny == STORY["destiny"] and len(stored.draft.props) == 4
    assert stored.draft.typed == {}, "once accepted, the form's text is the draft's own"
    await builder.click("Back")
    assert opened_with(await builder.click("Write Destiny, Tragedy and Props"))["props"].count("\n") == 3


async def test_a_refused_name_keeps_the_concept(bot_env: BotEnv) -> None:
    await bot_env.slash("/character create name:Kelsier charm:4", user="player2")
    builder = Builder(bot_env)
    await builder.slash("/character create name:Vin")
    refused = await builder.submit({"name": "Kelsier", "concept": "Street urchin with a gift"})
    assert "Not saved" in refused.content
    again = await builder.click("Write the concept")
    assert opened_with(again) == {"name": "Kelsier", "concept": "Street urchin with a gift"}


async def test_a_refused_trait_keeps_the_other_traits(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env)
    await builder.click("Back")
    first = await builder.click("Write the Traits")
    assert opened_with(first) == TRAITS and first.modal is not None
    forged = {**TRAITS, "drive": "x" * 61}  # longer than a Trait; a raw payload can send it
    record = await bot_env.harness.send(
        payloads.modal_submit(
            bot_env.harness.world,
            bot_env.harness.actor("player1"),
            first.modal,
            forged,
            message=builder.message(),
        )
    )
    assert "Not saved" in record.content, record.text
    again = await builder.click("Write the Traits")
    assert opened_with(again) == {**TRAITS, "drive": "x" * 60}  # as much as the form holds


async def test_a_double_tap_on_create_leaves_the_created_screen(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env)
    await builder.click("Write Destiny, Tragedy and Props")
    await builder.submit(STORY)
    review = copy.deepcopy(builder.message())
    first = await bot_env.harness.click("Create Vin", message=review, user="player1")
    second = await bot_env.harness.click("Create Vin", message=review, user="player1")  # the tap again
    for record in (first, second):
        assert record.response is not None and not record.errors, record.text
    shown = bot_env.harness.fake.messages[int(review["id"])]
    assert shown["content"].startswith("Created **Vin**"), shown["content"]
    assert not shown["components"]
    heroes = await bot_env.storage.characters.summaries(bot_env.guild_id)
    assert [h.name for h in heroes] == ["Vin"]
    announced = [m for m in bot_env.harness.fake.messages.values() if "made **Vin**" in card_text(m)]
    assert len(announced) == 1, "the sheet is shown once"


async def test_two_taps_at_once_on_create_make_one_hero_and_say_created(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env)
    await builder.click("Write Destiny, Tragedy and Props")
    await builder.submit(STORY)
    review = copy.deepcopy(builder.message())
    taps = await asyncio.gather(
        *(bot_env.harness.click("Create Vin", message=review, user="player1") for _ in range(2))
    )
    assert all(t.response is not None and not t.errors for t in taps)
    await asyncio.sleep(0)
    shown = bot_env.harness.fake.messages[int(review["id"])]
    assert shown["content"].startswith("Created **Vin**"), shown["content"]
    assert [h.name for h in await bot_env.storage.characters.summaries(bot_env.guild_id)] == ["Vin"]


async def test_the_preview_names_a_mistings_metal_once(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env, "Misting: Tin")
    powers = next(f for f in builder.message()["embeds"][0]["fields"] if f["name"] == "Powers")
    assert powers["value"] == "Misting: Tin at 5 (Allomancy)"


async def test_the_created_screen_says_the_hero_is_made_and_nothing_is_left_to_do(bot_env: BotEnv) -> None:
    """Created from the story form's checkbox, the last preview the player saw was the story
    step's ("Still to do: a Destiny, a Tragedy"): the Created screen must not keep it (issue 39)."""
    builder = await to_story(bot_env)
    await builder.click("Write Destiny, Tragedy and Props")
    made = await builder.submit({**STORY, "Create the Hero when this is sent": True})
    shown = made.original
    assert shown is not None, made.text
    text = card_text(shown)
    assert text.startswith("Created **Vin**"), text
    assert "in the making" not in text and "Still to do" not in text, text
    assert not shown["embeds"]
