"""The builder's Back, Next and Cancel, its draft across a restart, and who may use it
(docs/rulings.md §6.10): a half-made Hero is kept, resumable, private to its player, never a
character until created, and gone after a week unused."""

import copy
from datetime import timedelta

from fake_discord import payloads
from rules.character.draft import KEPT_FOR, Step
from storage.sql import execute, to_text, utc_now
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.characters.builder_support import STORY, TRAITS, Builder


async def to_ratings(bot_env: BotEnv) -> Builder:
    builder = Builder(bot_env)
    await builder.slash("/character create name:Vin")
    await builder.submit({"concept": "Street urchin"})
    await builder.choose("labels", "Strong Attributes, average Standings, weak Powers")
    await builder.choose("attributes", "Physique 3 · Charm 4 · Wits 6")
    return builder


async def draft_step(bot_env: BotEnv, user: str = "player1") -> Step | None:
    stored = await bot_env.storage.drafts.of_member(bot_env.guild_id, bot_env.user_id(user))
    return stored.draft.step if stored else None


async def test_back_walks_every_step_and_next_returns_without_losing_anything(bot_env: BotEnv) -> None:
    builder = await to_ratings(bot_env)
    await builder.choose("standings", "Resources 4 · Influence 4 · Spirit 3")
    await builder.choose("powers", "Mistborn")
    await builder.submit(TRAITS)
    await builder.click("Write Destiny, Tragedy and Props")
    await builder.submit(STORY)
    assert await draft_step(bot_env) is Step.REVIEW
    for expected in ["Destiny, Tragedy and Props", "Traits", "Powers", "Attributes and Standings"]:
        shown = await builder.click("Back")
        assert expected in shown.content
    assert "Physique 3 · Charm 4 · Wits 6" in str(builder.message()["components"]), "the choice stays shown"
    for expected in ["Powers", "Traits", "Destiny, Tragedy and Props", "Review"]:
        shown = await builder.click("Next")
        assert expected in shown.content, shown.content
    for _ in range(4):
        await builder.click("Back")
    shown = await builder.click("Back")
    assert "Strong, average, weak" in shown.content
    shown = await builder.click("Back")
    assert "step 1 of 7: Concept" in shown.content
    back = next(
        c for row in builder.message()["components"] for c in row["components"] if c.get("label") == "Back"
    )
    assert back["disabled"], "nothing comes before the first step"
    await builder.click("Write the concept")
    renamed = await builder.submit({"name": "Valette", "concept": "Noblewoman in disguise"})
    assert "Making Valette" in renamed.content and "step 2 of 7" in renamed.content
    for _ in range(5):
        await builder.click("Next")
    await builder.click("Create Valette")
    made = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Valette")
    assert made.character.concept == "Noblewoman in disguise" and len(made.character.powers) == 8
    vial = next(p for p in made.character.props if p.name == "Mistborn vial")  # §9.8: the template's
    assert vial.implement is not None and len(vial.implement.metals) == 8  # type: ignore[union-attr]


async def test_changing_the_labels_drops_only_the_split_that_no_longer_fits(bot_env: BotEnv) -> None:
    builder = await to_ratings(bot_env)
    await builder.click("Back")
    shown = await builder.choose("labels", "Strong Attributes, weak Standings, average Powers")
    assert "Physique **3**" in str(shown.embeds) and "step 3 of 7" in shown.content
    stored = await bot_env.storage.drafts.of_member(bot_env.guild_id, bot_env.user_id("player1"))
    assert stored is not None and stored.draft.attributes == (3, 4, 6) and stored.draft.standings is None


async def test_cancel_discards_the_draft_and_old_buttons_say_so(bot_env: BotEnv) -> None:
    builder = await to_ratings(bot_env)
    old = copy.deepcopy(builder.message())  # as a second copy of the message would still show it
    cancelled = await builder.click("Cancel")
    assert "Cancelled: **Vin** was not made" in cancelled.content and not cancelled.components
    assert await draft_step(bot_env) is None
    with_old = payloads.component_click(
        bot_env.harness.world, bot_env.harness.actor("player1"), old, old["components"][-1]["components"][0]
    )
    stale = await bot_env.harness.send(with_old)
    assert "is gone" in stale.content and "/character create" in stale.content
    again = await bot_env.slash("/character create name:Vin", user="player1")
    assert again.modal is not None, "a new draft starts at the first form"


async def test_a_draft_survives_a_restart_and_the_same_command_resumes_it(bot_env: BotEnv) -> None:
    builder = await to_ratings(bot_env)
    await builder.choose("standings", "Resources 4 · Influence 4 · Spirit 3")
    opened = await builder.choose("powers", "Keeper")
    assert opened.modal is not None and opened.modal["title"] == "Traits"
    await bot_env.restart()
    traits = await builder.submit(TRAITS)
    assert "step 6 of 7" in traits.content, "a form opened before the restart still lands"
    await bot_env.restart()
    resumed = await bot_env.slash("/character create name:Vin", user="player1")
    assert resumed.ephemeral and "Here is your Hero as you left them" in resumed.content
    assert "step 6 of 7" in resumed.content and "Keeper" in str(resumed.embeds)
    await builder.click("Back")
    assert "step 5 of 7: Traits" in builder.message()["content"], "buttons work after the restart"
    other = await bot_env.slash("/character create name:Spook", user="player1")
    assert "You are making Vin: finish or cancel them before Spook" in other.content


async def test_only_the_player_making_the_hero_may_use_it(bot_env: BotEnv) -> None:
    builder = await to_ratings(bot_env)
    select = builder.selects("standings")[0]
    harness = bot_env.harness
    for user in ("player2", "narrator"):
        forged = payloads.component_click(
            harness.world, harness.actor(user), builder.message(), select, ["4-4-3"]
        )
        refused = await harness.send(forged)
        assert refused.ephemeral and "Only the member making this Hero" in refused.content
    stored = await bot_env.storage.drafts.of_member(bot_env.guild_id, bot_env.user_id("player1"))
    assert stored is not None and stored.draft.standings is None


async def test_a_draft_is_never_a_character_in_lists_lookups_or_conflicts(bot_env: BotEnv) -> None:
    await to_ratings(bot_env)
    listed = await bot_env.slash("/character list")
    assert "Vin" not in str(listed.embeds)
    found = await bot_env.harness.autocomplete("/character show name:Vi", user="player1")
    assert found.choices == []
    await bot_env.slash('/conflict start kind:physical stakes:"A brawl"')
    joined = await bot_env.slash("/conflict add character:Vin")
    assert joined.ephemeral and "no character named Vin" in joined.content


async def test_a_draft_unused_for_a_week_is_gone(bot_env: BotEnv) -> None:
    builder = await to_ratings(bot_env)
    async with bot_env.storage.database.writing() as conn:
        stamp = to_text(utc_now() - KEPT_FOR - timedelta(minutes=1))
        await execute(conn, "UPDATE hero_drafts SET updated_at = ?", (stamp,))
    stale = await bot_env.harness.click("Back", user="player1")
    assert "is gone" in stale.content
    assert builder.interactions == 4
    fresh = await bot_env.slash("/character create name:Vin", user="player1")
    assert fresh.modal is not None and fresh.modal["title"] == "Who they are"


async def test_names_are_checked_when_starting_and_when_creating(bot_env: BotEnv) -> None:
    await bot_env.slash("/character create name:Kelsier physique:4", user="player2")
    taken = await bot_env.slash("/character create name:Kelsier", user="player1")
    assert taken.ephemeral and "already a character named Kelsier" in taken.content
    builder = Builder(bot_env)
    await builder.slash("/character create name:Vin")
    renamed = await builder.submit({"name": "kelsier", "concept": "Street urchin"})
    assert "Not saved" in renamed.content and "already a character named kelsier" in renamed.content
    assert await draft_step(bot_env) is Step.CONCEPT


async def test_a_form_the_rules_refuse_is_shown_again_with_the_reason(bot_env: BotEnv) -> None:
    builder = await to_ratings(bot_env)
    await builder.choose("standings", "Resources 4 · Influence 4 · Spirit 3")
    await builder.choose("powers", "No Powers")
    await builder.submit(TRAITS)
    await builder.click("Write Destiny, Tragedy and Props")
    too_many = await builder.submit(STORY | {"props": "a\nb\nc\nd\ne", "extras": "Lucky\nQuiet"})
    assert "Not saved: That is 5 Props; a new Hero has at most 4" in too_many.content
    assert "step 6 of 7" in too_many.content
    done = await builder.submit(STORY | {"extras": "Lucky\nQuiet"})
    assert "step 7 of 7" in done.content and "ready to create" in str(done.embeds)


async def test_a_closed_first_form_leaves_nothing_to_resume_but_the_name(bot_env: BotEnv) -> None:
    """Closing the first form sends nothing; the empty draft simply takes the next name."""
    first = await bot_env.slash("/character create name:Vin", user="player1")
    assert first.modal is not None
    again = await bot_env.slash("/character create name:Spook", user="player1")
    assert again.modal is not None and "'Spook'" in again.text
    stored = await bot_env.storage.drafts.of_member(bot_env.guild_id, bot_env.user_id("player1"))
    assert stored is not None and stored.draft.name == "Spook" and stored.version == 2
    taken = await bot_env.slash("/character create name:Thug template:thug")
    assert taken.message is not None and "Created **Thug**" in card_text(taken.message)
    refused = await bot_env.slash("/character create name:Thug", user="player1")
    assert refused.ephemeral and "already a character named Thug" in refused.content
