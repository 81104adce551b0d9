"""At 0 Health every burn ends, and all storing (docs/rulings.md §9.2, §9.4), through the real
dispatch: a Conflict's blow that knocks a Tineye out puts out their Tin on the sheet and the board
alike and stops their storing, and so does ``/sheet damage``; Pewter's boost keeps its burner
awake and burning."""

import random
from typing import Any

import pytest

from rules.character import CharacterKind, make_character
from rules.conflict import Conflict
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv, refused


class Faces(random.Random):
    """Dice that fall as told, in turn, then at random (the bot's generator is injected)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else super().randint(a, b)


HEALTH = 7  # Physique 4 + Resources 3


async def make_vin(env: BotEnv, burning: list[str], damage: int, *, storing: bool = False) -> None:
    """Vin, burning ``burning``; ``storing``: a Copper Ferring too, storing into her Coppermind."""
    keeper: dict[str, Any] = {}
    if storing:
        mind = {"kind": "metalmind", "metal": "Copper", "size": "average"}
        keeper = {
            "props": [{"name": "Coppermind", "implement": mind}],
            "feruchemy": {"storing": [{"metal": "Copper", "rate": 2}]},
        }
    character = make_character(
        name="Vin",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        attributes={"physique": 4, "charm": 3, "wits": 4},
        standings={"resources": 3, "influence": 3, "spirit": 3},
        powers=[
            *({"type": "allomancy", "name": m, "rating": 3} for m in ("Tin", "Pewter")),
            {"type": "feruchemy", "name": "Copper", "rating": 3},
        ],
        allomancy={"burning": burning},
        damage={"health": damage},
        **keeper,
    )
    stored = await env.storage.characters.create(env.guild_id, character)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), stored.id)


async def vin_burns(env: BotEnv) -> Any:
    return (await env.storage.characters.get_by_name(env.guild_id, "Vin")).character.allomancy.burning


async def vin_stores(env: BotEnv) -> Any:
    return (await env.storage.characters.get_by_name(env.guild_id, "Vin")).character.feruchemy.storing


async def state(env: BotEnv) -> Conflict:
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    return conflict


@pytest.mark.parametrize(("burning", "out"), [(["Tin"], True), (["Tin", "Pewter"], False)])
async def test_sheet_damage_to_zero_puts_every_metal_out(
    bot_env: BotEnv, burning: list[str], out: bool
) -> None:
    await make_vin(bot_env, burning, HEALTH - 1)
    pewter = " pewter:true" if "Pewter" in burning else ""
    hit = await bot_env.slash(f"/sheet damage amount:1 name:Vin{pewter}", user="narrator")
    assert not refused(hit), hit.content
    assert ("Vin is knocked out: every metal stops burning." in str(hit.messages)) is out
    assert (await vin_burns(bot_env)) == (() if out else tuple(burning))


async def test_sheet_damage_to_zero_ends_storing_and_an_unconscious_keeper_cannot_start(
    bot_env: BotEnv,
) -> None:
    """Storing needs a waking mind as burning does (§9.4): a Keeper burning nothing stops storing
    when knocked out, and is refused, privately, storing again until healed."""
    await make_vin(bot_env, [], HEALTH - 1, storing=True)
    hit = await bot_env.slash("/sheet damage amount:1 name:Vin", user="narrator")
    assert "Vin is knocked out: storing stops." in str(hit.messages)
    assert (await vin_stores(bot_env)) == ()
    again = await bot_env.slash("/power store metal:Copper name:Vin", user="player1")
    assert refused(again) and "unconscious (0 Health): storing needs a waking mind" in again.content
    assert (await vin_stores(bot_env)) == ()


async def test_a_blow_that_knocks_a_tineye_out_ends_the_burn(bot_env: BotEnv) -> None:
    """The Conflict's blow ends her storing too (§9.4)."""
    env = bot_env
    await make_vin(env, ["Tin"], HEALTH - 1, storing=True)
    thug = make_character(
        name="Thug",
        kind=CharacterKind.VILLAIN,
        owner_id=env.user_id("narrator"),
        attributes={"physique": 5, "wits": 2},
    )
    await env.storage.characters.create(env.guild_id, thug)
    kell = make_character(
        name="Kell", kind=CharacterKind.HERO, owner_id=env.user_id("player2"), attributes={"wits": 5}
    )
    kept = await env.storage.characters.create(env.guild_id, kell)
    await env.storage.active.set(env.guild_id, env.user_id("player2"), kept.id)
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"A brawl"'),
            ("player1", "/conflict join"),
            ("player2", "/conflict join"),
            ("narrator", "/conflict add character:Thug"),
            ("narrator", "/conflict begin"),
            ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
            ("player1", "/declare action:full-defence stat:Physique"),
            ("player2", "/declare action:no-roll"),
        ]
    )
    [vin] = [p for p in (await state(env)).participants if p.name == "Vin"]
    assert vin.burning == ("Tin",)
    acted = await env.slash("/act dice:5 who:Thug", user="narrator")
    assert not refused(acted), acted.content
    env.bot.rng = Faces(4, 4, 2, 3, 5)
    defended = await env.slash("/defend dice:0", user="player1")
    assert not refused(defended), defended.content
    await env.bot.conflicts.idle()
    assert "Vin is knocked out: every metal stops burning and storing stops." in str(defended.messages)
    assert (await vin_burns(env)) == () and (await vin_stores(env)) == ()
    [vin] = [p for p in (await state(env)).participants if p.name == "Vin"]
    assert vin.defeated and vin.burning == ()  # the board reads it so


async def test_a_spike_torn_out_to_zero_health_ends_every_burn_and_storing(bot_env: BotEnv) -> None:
    """Any Power's change that leaves 0 Health knocks the sheet out as a blow does (§9.2, §9.5):
    the spike's 5 Health took Vin from 5 to 0 and left her Tin lit and her Coppermind filling."""
    env = bot_env
    await make_vin(env, ["Tin"], HEALTH - 5, storing=True)
    spiked = await env.slash("/power spike metal:Iron rating:3 name:Vin", user="narrator")
    assert not refused(spiked), spiked.content
    assert await vin_burns(env) == ("Tin",) and await vin_stores(env)
    torn = await env.slash("/power spike metal:Iron remove:true name:Vin", user="narrator")
    assert not refused(torn), torn.content
    assert "Vin is knocked out: every metal stops burning and storing stops." in str(torn.embeds)
    assert await vin_burns(env) == () and await vin_stores(env) == ()
