"""The builder's forms that do more per step (docs/rulings.md §6.10): the first form picks the
labels and the Power template (a radio group, with a Misting's metal), the story form may create
the Hero at once, and each new part keeps its checks: a refused form opens again with every
field typed and picked, a forged pick is refused and not saved."""

from pathlib import Path

from fake_discord import modal_parts, payloads
from fake_discord.records import InteractionRecord
from rules.character.creation import PowerTemplate
from rules.character.draft import HeroDraft, Step
from testbed.bot_env import BotEnv
from testbed.console import run_console
from tests.bot.cogs.characters.builder_support import LABELS, STORY, TRAITS, Builder

LABELS_VALUE = "strong.average.weak"


def opened(record: InteractionRecord) -> dict[str, object]:
    """Every field of the form ``record`` opened, typed or picked, as it opens."""
    assert record.modal is not None, record.text
    typed: dict[str, object] = {i["custom_id"]: i["value"] for i in payloads.text_inputs(record.modal)}
    return typed | {p["custom_id"]: p["value"] for p in modal_parts.fields(record.modal)}


async def draft(env: BotEnv) -> HeroDraft:
    stored = await env.storage.drafts.of_member(env.guild_id, env.user_id("player1"))
    assert stored is not None
    return stored.draft


async def test_a_refused_first_form_opens_again_with_all_that_was_typed_and_picked(bot_env: BotEnv) -> None:
    builder = Builder(bot_env)
    await builder.slash("/character create name:Vin")
    first = {
        "name": "Vin",
        "concept": "Street urchin",
        "Strong, average and weak": LABELS,
        "Powers": "Misting",
    }
    refused = await builder.submit(first)
    assert "Not saved" in refused.content and "A Misting burns one metal" in refused.content
    assert (await draft(bot_env)).concept == "", "nothing of a refused form is saved but its text"
    again = await builder.click("Write the concept")
    assert opened(again) == {
        "name": "Vin",
        "concept": "Street urchin",
        "labels": [LABELS_VALUE],
        "powers": ["misting"],
        "metal": [],
    }
    fixed = await builder.submit({"A Misting's metal": "Tin"})
    assert "step 3 of 7: Attributes and Standings" in fixed.content, fixed.content
    made = await draft(bot_env)
    assert made.powers is not None and (made.powers.template, made.powers.metal) == (
        PowerTemplate.MISTING,
        "Tin",
    )
    assert made.labels is not None and made.concept == "Street urchin" and made.typed == {}


async def test_the_first_form_skips_the_steps_it_filled(bot_env: BotEnv) -> None:
    builder = Builder(bot_env)
    await builder.slash("/character create name:Vin")
    shown = await builder.submit(
        {"concept": "Street urchin", "Strong, average and weak": LABELS, "Powers": "Keeper"}
    )
    assert "step 3 of 7" in shown.content and "Keeper" in str(shown.embeds)
    await builder.choose("standings", "Resources 4 · Influence 4 · Spirit 3")
    traits = await builder.choose("attributes", "Physique 3 · Charm 4 · Wits 6")
    assert traits.modal is not None and traits.modal["title"] == "Traits", "the Powers step is done already"
    story = await builder.submit(TRAITS)
    assert "step 6 of 7" in story.content


async def test_a_metal_is_read_only_for_a_misting(bot_env: BotEnv) -> None:
    builder = Builder(bot_env)
    await builder.slash("/character create name:Vin")
    await builder.submit({"concept": "Street urchin", "Powers": "Mistborn", "A Misting's metal": "Tin"})
    made = await draft(bot_env)
    assert (
        made.powers is not None
        and made.powers.template is PowerTemplate.MISTBORN
        and made.powers.metal is None
    )
    assert made.labels is None and made.step is Step.LABELS, "labels not picked: their menu comes next"


async def test_a_forged_pick_is_refused_and_not_saved(bot_env: BotEnv) -> None:
    builder = Builder(bot_env)
    first = await builder.slash("/character create name:Vin")
    assert first.modal is not None
    harness = bot_env.harness
    for forged in (
        {"powers": "feruchemist"},
        {"labels": "strong.strong.weak"},
        {"powers": "misting", "metal": "Lerasium"},
    ):
        record = await harness.send(
            payloads.modal_submit(
                harness.world, harness.actor("player1"), first.modal, {"concept": "Urchin", **forged}
            )
        )
        assert "Not saved" in record.content, record.text
        assert (await draft(bot_env)).concept == ""


async def to_story(env: BotEnv, template: str) -> Builder:
    builder = Builder(env)
    await builder.slash("/character create name:Vin")
    await builder.submit({"concept": "Street urchin", "Strong, average and weak": LABELS, "Powers": template})
    await builder.choose("attributes", "Physique 3 · Charm 4 · Wits 6")
    await builder.choose("standings", "Resources 4 · Influence 4 · Spirit 3")
    await builder.submit(TRAITS)
    await builder.click("Write Destiny, Tragedy and Props")
    return builder


async def test_unticked_the_story_form_leads_to_the_review(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env, "Mistborn")
    review = await builder.submit(STORY)
    assert "step 7 of 7" in review.content and await bot_env.storage.drafts.of_member(
        bot_env.guild_id, bot_env.user_id("player1")
    )


async def test_ticked_create_still_checks_the_name_and_keeps_the_draft(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env, "Mistborn")
    await bot_env.slash("/character create name:Vin physique:4", user="player2")  # taken meanwhile
    refused = await builder.submit({**STORY, "Create the Hero when this is sent": True})
    assert "step 7 of 7" in refused.content and "already a character named Vin" in refused.content
    kept = await draft(bot_env)
    assert kept.destiny == STORY["destiny"] and kept.step is Step.REVIEW


async def test_a_hero_without_powers_writes_two_more_traits_one_per_line(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env, "No Powers")
    three = "Lucky\nQuiet\nTall"
    refused = await builder.submit({**STORY, "extras": three, "Create the Hero when this is sent": True})
    assert "Not saved: That is 3 Traits" in refused.content
    again = await builder.click("Write Destiny, Tragedy and Props")
    assert opened(again) == {**STORY, "extras": three, "create": True}
    made = await builder.submit({"extras": "Lucky\nQuiet"})
    assert made.content.startswith("Created **Vin**"), made.content
    vin = (await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")).character
    assert vin.traits.extras == ("Lucky", "Quiet") and vin.powers == ()


def test_the_console_fills_the_new_parts_by_their_names(tmp_path: Path) -> None:
    """The offline console shows the radio group and menus of the first form and fills them
    from one ``!submit`` line, as it fills text; the Hero is made in seven lines."""
    script = (
        "!as player1\n"
        "/character create name:Vin\n"
        "!submit concept:Street urchin labels:Strong Attributes, average Standings, weak Powers "
        "powers:Misting metal:Tin\n"
        '!select "Attributes: strong, 13 points" "Physique 3 · Charm 4 · Wits 6"\n'
        '!select "Standings: average, 11 points" "Resources 4 · Influence 4 · Spirit 3"\n'
        "!submit drive:Keep her crew safe profession:Thief specialty:Hiding feature:Small personality:Wary\n"
        "!click Write Destiny, Tragedy and Props\n"
        "!submit destiny:Hero of Ages tragedy:Reen create:yes\n"
    )
    ran = run_console(script, tmp_path / "forms.sqlite3")
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr
    assert "Powers: field powers (pick one, optional)" in ran.stdout
    assert "Created **Vin**. It is now your active character." in ran.stdout
    assert "Misting: Tin" in ran.stdout
