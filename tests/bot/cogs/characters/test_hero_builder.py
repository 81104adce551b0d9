"""The guided Hero builder through the real discord.py path (docs/rulings.md §6.10): every Power
template end to end with its interaction count, and only valid splits offered.

Components and forms go as Discord sends them (``harness.select``, ``click``, ``submit``); the
fake refuses anything Discord would (more than 25 options, 5 rows, 5 inputs), and ``bot_env``
fails the test on any such refusal.
"""

from itertools import permutations, product

import pytest

from fake_discord import payloads
from fake_discord.commandline import CommandLineError
from rules.character import BuildLabels, CharacterKind, PowerType, check_hero_build, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.characters.builder_support import Builder, make_hero, make_hero_by_menus

BUDGET = {"mistborn": 7, "misting": 7, "keeper": 7, "none": 7}
"""Interactions from ``/character create name:Vin`` to the created Hero (docs/rulings.md §6.10),
the shortest way: the labels and Powers in the first form, Create ticked in the story form.
Before those form parts every template took 10, which one step at a time still takes."""
BY_MENUS = {"mistborn": 10, "misting": 10, "keeper": 10, "none": 10}


@pytest.mark.parametrize(("template", "way"), [(t, w) for t in BUDGET for w in ("forms", "menus")])
async def test_each_template_makes_a_hero_within_its_interactions(
    bot_env: BotEnv, template: str, way: str
) -> None:
    make, budget = (make_hero, BUDGET) if way == "forms" else (make_hero_by_menus, BY_MENUS)
    builder = await make(bot_env, template)
    assert builder.interactions == budget[template]
    stored = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")
    vin = stored.character
    assert vin.kind is CharacterKind.HERO and vin.owner_id == bot_env.user_id("player1")
    assert check_hero_build(vin) == [], "the builder cannot make a wrong sheet"
    assert vin.attributes.model_dump() == {"physique": 3, "charm": 4, "wits": 6}
    assert vin.standings.model_dump() == {"resources": 4, "influence": 4, "spirit": 3}
    assert vin.traits.drive == "Keep her crew safe" and vin.destiny == "Hero of Ages"
    assert [(p.name, p.weapon) for p in vin.props if p.implement is None] == [("Glass knives", 1)]
    implements = {"mistborn": ["Mistborn vial"], "keeper": ["Pewtermind", "Steelmind", "Tinmind"]}
    assert [p.name for p in vin.props if p.implement is not None] == implements.get(
        template, [f"{vin.powers[0].name} vial"] if vin.powers else []
    )  # docs/rulings.md §9.8
    kinds = {p.type for p in vin.powers}
    expected = {
        "mistborn": (8, {PowerType.ALLOMANCY}, {4}),
        "misting": (1, {PowerType.ALLOMANCY}, {5}),
        "keeper": (8, {PowerType.FERUCHEMY}, {3}),
        "none": (0, set(), set()),
    }[template]
    assert (len(vin.powers), kinds, {p.rating for p in vin.powers}) == expected
    assert vin.traits.extras == (("Lucky", "Quiet") if template == "none" else ())
    active = await bot_env.storage.active.get(bot_env.guild_id, bot_env.user_id("player1"))
    assert active is not None and active.id == stored.id
    assert await bot_env.storage.drafts.of_member(bot_env.guild_id, bot_env.user_id("player1")) is None
    created, announced = builder.records[-1].original, builder.records[-1].followups
    assert created is not None and "Created **Vin**" in created["content"]
    offered = [c["label"] for row in created["components"] for c in row["components"]]
    assert offered == ["Add a portrait"]  # the one thing left: an optional portrait (issue 32)
    assert len(announced) == 1 and not announced[0]["flags"] & payloads.EPHEMERAL
    assert "made **Vin**" in card_text(announced[0]) and "## Vin — Hero" in card_text(announced[0])


async def test_every_step_is_one_private_message_edited_in_place(bot_env: BotEnv) -> None:
    builder = await make_hero(bot_env, "mistborn")
    edited = {r.payload["message"]["id"] for r in builder.records if "message" in r.payload}
    first = builder.records[1].original
    assert first is not None and first["flags"] & payloads.EPHEMERAL
    assert edited == {first["id"]}, "every later step edits the message the first form made"


LABELS = list(permutations(["strong", "average", "weak"]))


def ratings(label: str) -> tuple[int, int, int]:
    return tuple(int(part.split()[-1]) for part in label.split(" · "))  # type: ignore[return-value]


@pytest.mark.parametrize("labels", LABELS, ids=["-".join(labels) for labels in LABELS])
async def test_only_valid_splits_can_be_chosen(bot_env: BotEnv, labels: tuple[str, str, str]) -> None:
    """Under each labelling, the menus offer every split the build check accepts and no other:
    all ratings 1–10 are tried against the check."""
    attributes, standings, powers = labels
    builder = Builder(bot_env)
    await builder.slash("/character create name:Vin")
    await builder.submit({"concept": "Street urchin"})
    await builder.choose(
        "labels", f"{attributes.capitalize()} Attributes, {standings} Standings, {powers} Powers"
    )
    build = BuildLabels.model_validate({"attributes": attributes, "standings": standings, "powers": powers})

    def accepted(attribute_split: tuple[int, ...], standing_split: tuple[int, ...]) -> bool:
        hero = make_character(
            name="Vin",
            kind="hero",
            owner_id=1,
            attributes=dict(zip(("physique", "charm", "wits"), attribute_split, strict=True)),
            standings=dict(zip(("resources", "influence", "spirit"), standing_split, strict=True)),
            build=build.model_dump(),
        )
        return not check_hero_build(hero)

    offered = {
        part: [ratings(o["label"]) for s in builder.selects(part) for o in s["options"]]
        for part in ("attributes", "standings")
    }
    some_standings, some_attributes = offered["standings"][0], offered["attributes"][0]
    every = range(1, 11)
    assert set(offered["attributes"]) == {
        t for t in product(every, every, every) if accepted(t, some_standings)
    }
    two_up = range(2, 11)
    assert set(offered["standings"]) == {
        t for t in product(two_up, two_up, two_up) if accepted(some_attributes, t)
    }
    for select in builder.selects("attributes") + builder.selects("standings"):
        assert len(select["options"]) <= 25
    with pytest.raises(CommandLineError, match="is not an option"):
        await bot_env.harness.select(
            builder.selects("attributes")[0]["custom_id"], ["Physique 6 · Charm 6 · Wits 1"], user="player1"
        )


async def test_a_forged_split_is_refused_and_not_saved(bot_env: BotEnv) -> None:
    """A raw payload can carry any value: the rules refuse it, and the step is shown again."""
    builder = Builder(bot_env)
    await builder.slash("/character create name:Vin")
    await builder.submit({"concept": "Street urchin"})
    await builder.choose("labels", "Strong Attributes, average Standings, weak Powers")
    (select,) = builder.selects("attributes")
    harness = bot_env.harness
    forged = payloads.component_click(
        harness.world, harness.actor("player1"), builder.message(), select, ["6-6-1"]
    )
    reply = await harness.send(forged)
    assert "Not saved" in reply.content and "one of the Attributes they allow" in reply.content
    stored = await bot_env.storage.drafts.of_member(bot_env.guild_id, bot_env.user_id("player1"))
    assert stored is not None and stored.draft.attributes is None
