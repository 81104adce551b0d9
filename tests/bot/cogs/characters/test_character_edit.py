"""``/edit`` through the real dispatch: every part of a sheet, the permission matrix, and
refusals that leave the stored sheet and its version untouched."""

from collections.abc import Callable
from typing import Any

import pytest

from bot.client import Interaction
from bot.inputs import sheet_changes
from bot.inputs.characters import named_or_active
from fake_discord.commandline import CommandLineError
from rules.burdens import Severity
from rules.character import Character, CharacterKind, PowerType, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv


async def make(env: BotEnv, name: str = "Vin", owner: str = "player1", **fields: Any) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    character = make_character(name=name, owner_id=env.user_id(owner), **fields)
    return await env.storage.characters.create(env.guild_id, character)


async def stored(env: BotEnv, name: str = "Vin") -> StoredCharacter:
    return await env.storage.characters.get_by_name(env.guild_id, name)


async def make_full(env: BotEnv) -> StoredCharacter:
    return await make(
        env,
        standings={"resources": 4},
        spent={"resources": 2},
        traits={"drive": "Survive", "extras": ["Quick"]},
        powers=[
            {"type": "allomancy", "name": "Steel", "rating": 4, "stunts": ["Coinshot"]},
            {"type": "feruchemy", "name": "Steel", "rating": 2},
        ],
        props=[{"name": "Dagger", "weapon": 1}],
    )


EDITS = [
    ("/edit attribute attribute:Wits value:7", lambda c: c.attributes.wits == 7),
    ("/edit standing standing:Spirit value:9", lambda c: c.standings.spirit == 9),
    ('/edit trait slot:Profession text:"Street thief"', lambda c: c.traits.profession == "Street thief"),
    ("/edit trait slot:Drive", lambda c: c.traits.drive == ""),
    ("/edit trait-add text:Stubborn", lambda c: c.traits.extras == ("Quick", "Stubborn")),
    ("/edit trait-remove text:quick", lambda c: c.traits.extras == ()),
    ('/edit text field:Concept value:"Half-skaa thief"', lambda c: c.concept == "Half-skaa thief"),
    ('/edit text field:Destiny value:"Kill the Lord Ruler"', lambda c: c.destiny == "Kill the Lord Ruler"),
    ('/edit text field:Notes value:"one\\ntwo"', lambda c: c.notes == "one\ntwo"),
    ("/edit power-add type:Allomancy power:pewter rating:3", lambda c: c.powers[-1].name == "Pewter"),
    (
        '/edit power-add type:Other power:"Sense the Well" rating:2',
        lambda c: c.powers[-1].type is PowerType.OTHER,
    ),
    (
        '/edit power-remove power:"Steel (Feruchemy)"',
        lambda c: [p.type for p in c.powers] == [PowerType.ALLOMANCY],
    ),
    ('/edit power-rating power:"steel (allomancy)" rating:6', lambda c: c.powers[0].rating == 6),
    (
        '/edit stunt-add power:"Steel (Allomancy)" stunt:"Coin wall"',
        lambda c: c.powers[0].stunts[-1] == "Coin wall",
    ),
    ('/edit stunt-remove power:"Steel (Allomancy)" stunt:coinshot', lambda c: c.powers[0].stunts == ()),
    ("/edit prop-add prop:Mail armour:2", lambda c: c.props[-1].armour == 2),
    ("/edit prop-remove prop:dagger", lambda c: c.props == ()),
    (
        "/edit build attributes:Strong standings:Weak powers:Average",
        lambda c: c.build is not None and c.build.powers.value == "average",
    ),
]


@pytest.mark.parametrize(
    ("line", "check"), EDITS, ids=[line.split(" ")[1] + str(i) for i, (line, _) in enumerate(EDITS)]
)
async def test_each_edit_is_stored(bot_env: BotEnv, line: str, check: Callable[[Character], bool]) -> None:
    before = await make_full(bot_env)
    reply = await bot_env.slash(f"{line} name:Vin", user="player1")
    assert reply.ephemeral and reply.embeds[0]["title"] == "Vin", reply.content
    after = await stored(bot_env)
    assert check(after.character) and after.version == before.version + 1


async def test_edit_uses_the_active_character_and_reports_build_advice(bot_env: BotEnv) -> None:
    vin = await make(bot_env)
    await bot_env.storage.active.set(bot_env.guild_id, bot_env.user_id("player1"), vin.id)
    reply = await bot_env.slash("/edit attribute attribute:Physique value:8", user="player1")
    embed = reply.embeds[0]
    assert embed["description"] == "Physique is now 8."
    advice = next(f["value"] for f in embed["fields"] if f["name"].startswith("Hero build check"))
    assert "Physique runs from 2 to 6; it is 8" in advice
    assert (await stored(bot_env)).character.attributes.physique == 8


async def test_villains_get_no_build_advice(bot_env: BotEnv) -> None:
    await make(bot_env, "Straff", owner="narrator", kind=CharacterKind.VILLAIN)
    reply = await bot_env.slash("/edit attribute attribute:Physique value:10 name:Straff")
    assert not [f for f in reply.embeds[0]["fields"] if f["name"].startswith("Hero build")]


async def test_text_is_escaped_in_the_confirmation(bot_env: BotEnv) -> None:
    await make(bot_env)
    reply = await bot_env.slash('/edit trait slot:Feature text:"**bold** <@1> `x`" name:Vin', user="player1")
    assert "\\*\\*bold\\*\\*" in reply.embeds[0]["description"]
    assert (await stored(bot_env)).character.traits.feature == "**bold** <@1> `x`"


async def test_size_for_extras_and_kind_changes_by_a_narrator(bot_env: BotEnv) -> None:
    await make(bot_env, "Guards", owner="narrator", kind=CharacterKind.EXTRA, size=5, members_down=4)
    shrink = await bot_env.slash("/edit size size:3 name:Guards")
    assert "Group of 3, 0 standing" in shrink.embeds[0]["description"]
    assert (await stored(bot_env, "Guards")).character.members_down == 3
    await bot_env.slash("/edit size size:6 down:1 name:Guards")
    assert (await stored(bot_env, "Guards")).character.members_left == 5
    villain = await bot_env.slash("/edit kind kind:Villain name:Guards")
    assert villain.embeds[0]["description"] == "Now a Villain."
    changed = (await stored(bot_env, "Guards")).character
    assert changed.kind is CharacterKind.VILLAIN and changed.size == 1
    await bot_env.slash("/edit owner owner:@player2 name:Guards")
    assert (await stored(bot_env, "Guards")).character.owner_id == bot_env.user_id("player2")


REFUSALS = [
    ("player2", "/edit attribute attribute:Wits value:5 name:Vin", "not yours"),
    ("player2", "/edit text field:Notes value:Mine name:Vin", "not yours"),
    ("player1", "/edit kind kind:Villain name:Vin", "Only a Narrator can change what kind"),
    ("player1", "/edit owner owner:@player2 name:Vin", "Only a Narrator can give a character"),
    ("player1", "/edit standing standing:Resources value:2 name:Vin", "cannot have 2 spent"),
    ("player1", "/edit size size:4 name:Vin", "Only Extras come in groups"),
    ("player1", "/edit build attributes:Strong name:Vin", "Give all three labels"),
    ("player1", "/edit build attributes:Strong standings:Strong powers:Weak name:Vin", "one each"),
    ("player1", "/edit power-add type:Allomancy power:Wood rating:3 name:Vin", "needs a metal"),
    ("player1", "/edit power-add type:Allomancy power:Steel rating:3 name:Vin", "listed twice"),
    ("player1", "/edit power-rating power:Steel rating:5 name:Vin", "more than one Steel"),
    ("player1", "/edit power-remove power:Iron name:Vin", "no Power called 'Iron'"),
    (
        "player1",
        '/edit stunt-add power:"Steel (Allomancy)" stunt:coinshot name:Vin',
        "already has that Stunt",
    ),
    ("player1", "/edit prop-remove prop:Sword name:Vin", "no Prop called 'Sword'"),
    ("player1", "/edit trait-add text:quick name:Vin", "already has that Trait"),
    ("player1", "/edit text field:Concept value:" + "x" * 121 + " name:Vin", "at most 120"),
    ("player1", "/edit attribute attribute:Wits value:5 name:Nobody", "no character named Nobody"),
    ("player2", "/edit attribute attribute:Wits value:5", "no active character"),
]


@pytest.mark.parametrize(("user", "line", "message"), REFUSALS)
async def test_refused_edits_change_nothing(bot_env: BotEnv, user: str, line: str, message: str) -> None:
    before = await make_full(bot_env)
    reply = await bot_env.slash(line, user=user)
    assert reply.ephemeral and message in reply.content, reply.content
    after = await stored(bot_env)
    assert after.character == before.character and after.version == before.version


async def test_destiny_on_an_extra_is_refused(bot_env: BotEnv) -> None:
    before = await make(bot_env, "Guards", owner="narrator", kind=CharacterKind.EXTRA, size=3)
    reply = await bot_env.slash('/edit text field:Destiny value:"Rise" name:Guards')
    assert reply.ephemeral and "Extras have no Destiny" in reply.content
    assert (await stored(bot_env, "Guards")).version == before.version


async def test_narrator_edits_any_sheet(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin")
    await bot_env.slash("/edit attribute attribute:Charm value:5 name:Vin", user="narrator")
    assert (await stored(bot_env)).character.attributes.charm == 5


async def test_narrator_only_subcommands_refuse_even_when_made_visible(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin")
    with pytest.raises(CommandLineError, match="missing required"):
        await bot_env.slash("/edit owner name:Vin", user="player1")
    options = [{"name": "kind", "type": 1, "options": [{"name": "kind", "type": 3, "value": "extra"}]}]
    reply = await bot_env.slash_overriding_visibility("edit", options, user="player1")
    assert reply.ephemeral and "Only a Narrator" in reply.content
    assert (await stored(bot_env)).version == 1


async def test_part_autocomplete_reads_the_named_sheet(bot_env: BotEnv) -> None:
    await make_full(bot_env)
    await make(bot_env, "Elend", owner="player2", burdens=[{"name": "Gut wound", "severity": Severity.GRAVE}])
    powers = await bot_env.harness.autocomplete("/edit power-rating name:Vin power:st", user="player1")
    assert [c["value"] for c in powers.choices] == ["Steel (Allomancy)", "Steel (Feruchemy)"]
    stunts = await bot_env.harness.autocomplete(
        '/edit stunt-remove name:Vin power:"Steel (Allomancy)" stunt:', user="player1"
    )
    assert [c["value"] for c in stunts.choices] == ["Coinshot"]
    props = await bot_env.harness.autocomplete("/edit prop-remove name:Vin prop:d", user="player1")
    assert [c["value"] for c in props.choices] == ["Dagger"]
    traits = await bot_env.harness.autocomplete("/edit trait-remove name:Vin text:", user="player1")
    assert [c["value"] for c in traits.choices] == ["Quick"]
    metals = await bot_env.harness.autocomplete("/edit power-add type:Allomancy power:b", user="player1")
    assert [c["value"] for c in metals.choices] == ["Brass", "Bronze", "Bendalloy"]
    burdens = await bot_env.harness.autocomplete("/burden remove name:Elend burden:g", user="player1")
    assert [c["value"] for c in burdens.choices] == ["Gut wound"]
    nobody = await bot_env.harness.autocomplete("/burden remove name:Nobody burden:", user="player1")
    assert nobody.choices == []


async def test_a_sheet_changed_meanwhile_is_not_overwritten(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    vin = await make(bot_env)
    real_load = named_or_active

    async def load_then_someone_else_saves(
        interaction: Interaction, given: StoredCharacter | None
    ) -> StoredCharacter:
        loaded = await real_load(interaction, given)
        other = loaded.character.model_copy(update={"notes": "theirs"})
        await bot_env.storage.characters.update(bot_env.guild_id, loaded, other)
        return loaded

    monkeypatch.setattr(sheet_changes, "named_or_active", load_then_someone_else_saves)
    reply = await bot_env.slash("/edit attribute attribute:Wits value:5 name:Vin", user="player1")
    assert reply.ephemeral and "Someone else changed Vin just now" in reply.content
    after = await stored(bot_env)
    assert after.version == vin.version + 1 and after.character.notes == "theirs"
    assert after.character.attributes.wits == 2
