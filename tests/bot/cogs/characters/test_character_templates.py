"""Quick opposition from templates through ``/character create`` (docs/rulings.md §6.11): one
command, the template's example numbers, and whatever the Narrator gives replaces them."""

import pytest

from rules.character import CharacterKind, Standing
from rules.character.feruchemy import Metalmind
from testbed.bot_env import BotEnv, refused
from testbed.cards import card_text
from tests.bot.cogs.characters.test_character_manage import snapshot


async def test_a_narrator_makes_each_template_in_one_command(bot_env: BotEnv) -> None:
    made = {}
    for line in [
        "/character create name:Thug template:thug",
        "/character create name:Guards template:guards size:6",
        "/character create name:Obligator kind:Villain template:obligator",
        "/character create name:Inquisitor template:inquisitor",
        "/character create name:Kelsier template:coinshot",
        "/character create name:Ham template:pewterarm",
    ]:
        reply = await bot_env.slash(line)
        assert reply.message is not None and reply.ephemeral
        assert "template: example numbers, change them with `/edit`" in card_text(reply.message)
        name = line.split("name:")[1].split()[0]
        made[name] = (await bot_env.storage.characters.get_by_name(bot_env.guild_id, name)).character
    assert (made["Thug"].kind, made["Thug"].size, made["Thug"].attributes.physique) == (
        CharacterKind.EXTRA,
        1,
        4,
    )
    assert (made["Guards"].kind, made["Guards"].size) == (CharacterKind.EXTRA, 6)
    assert made["Obligator"].kind is CharacterKind.VILLAIN and made["Obligator"].powers[0].name == "Bronze"
    assert len(made["Inquisitor"].powers) == 8 and made["Inquisitor"].hemalurgy.spikes[0].metal == "Steel"
    assert made["Kelsier"].allomancy.charges("Steel") == 3 and made["Ham"].allomancy.burning == ("Pewter",)
    assert all(c.owner_id == bot_env.user_id("narrator") for c in made.values())
    listed = await bot_env.slash("/character list", user="player1")
    assert "Thug" not in str(listed.embeds), "the Narrator's new sheets stay secret (§7.1)"


async def test_options_given_replace_the_templates_numbers(bot_env: BotEnv) -> None:
    await bot_env.slash('/character create name:Brute template:thug physique:6 spirit:4 concept:"A giant"')
    brute = (await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Brute")).character
    assert (brute.attributes.physique, brute.standings.get(Standing.SPIRIT), brute.concept) == (
        6,
        4,
        "A giant",
    )
    assert brute.props[0].name == "Cudgel", "the rest of the template stays"


@pytest.mark.parametrize(
    ("line", "user", "message"),
    [
        (
            "/character create name:Thug template:thug",
            "player1",
            "Only a Narrator can create Villains and Extras",
        ),
        (
            "/character create name:Thug kind:Villain template:thug",
            "narrator",
            "The Thug template makes an Extra: leave `kind` out",
        ),
        ("/character create name:Twins template:inquisitor size:2", "narrator", "Only Extras come in groups"),
    ],
)
async def test_template_refusals_store_nothing(bot_env: BotEnv, line: str, user: str, message: str) -> None:
    reply = await bot_env.slash(line, user=user)
    assert reply.ephemeral and message in reply.content, reply.content
    assert await snapshot(bot_env) == []


async def test_a_template_discord_does_not_offer_is_refused(bot_env: BotEnv) -> None:
    """Discord offers only the listed templates; a raw payload may still carry another."""
    options = [
        {"type": 3, "name": "name", "value": "Thug"},
        {"type": 3, "name": "template", "value": "dragon"},
    ]
    reply = await bot_env.slash_overriding_visibility(
        "character", [{"type": 1, "name": "create", "options": options}], user="narrator"
    )
    assert reply.ephemeral and "'dragon' is not a template" in reply.content
    assert await snapshot(bot_env) == []


async def test_a_templated_steward_taps_and_stores_copper(bot_env: BotEnv) -> None:
    """The steward's Copper bracers are a Copper metalmind holding memories (§6.11, §9.4): a tap
    spends from them, and storing Copper fills them."""
    await bot_env.slash("/character create name:Tindwyl template:steward")
    roll = await bot_env.slash("/roll stat:Wits character:Tindwyl tap:Copper tap_charges:10", user="narrator")
    [narrators] = [m for m in roll.messages if int(m.get("flags") or 0) & 64]  # a hidden Villain's (§7.1)
    assert "10 charges of Copper tapped." in card_text(narrators), roll.content
    steward = (await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Tindwyl")).character
    [bracers] = [p.implement for p in steward.props if p.name == "Copper bracers"]
    assert isinstance(bracers, Metalmind) and (bracers.metal, bracers.charges) == ("Copper", 40)
    stored = await bot_env.slash("/power store metal:Copper name:Tindwyl", user="narrator")
    assert not refused(stored), stored.content
    assert "Storing: Copper 3 an hour" in str(stored.messages)
