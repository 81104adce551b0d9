"""``/power`` through the real dispatch: burning, vials, time moving on, storing, the
Narrator's hand, and what a hidden Villain's table never sees (docs/rulings.md §9)."""

from pathlib import Path
from typing import Any

from rules.character import CharacterKind, make_character
from rules.journal import EntryKind
from storage import StoredCharacter
from testbed.bot_env import BotEnv, refused
from testbed.cards import card_text

STATS: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}


async def make(env: BotEnv, name: str, *powers: tuple[str, str, int], **fields: Any) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    fields.setdefault("owner_id", env.user_id("player1"))
    listed = [{"type": t, "name": m, "rating": r} for t, m, r in powers]
    character = make_character(name=name, powers=listed, **{**STATS, **fields})
    return await env.storage.characters.create(env.guild_id, character)


async def sheet(env: BotEnv, name: str) -> Any:
    return (await env.storage.characters.get_by_name(env.guild_id, name)).character


def described(reply: Any) -> str:
    embed = reply.embeds[0]
    return str(embed["description"]) + "".join(
        f"\n{f['name']}\n{f['value']}" for f in embed.get("fields", [])
    )


async def test_a_coinshot_drinks_burns_and_pays_as_time_moves_on(bot_env: BotEnv) -> None:
    kel = await make(bot_env, "Kel", ("allomancy", "Steel", 5))
    added = await bot_env.slash("/power vial kind:misting metal:steel name:Kel", user="player1")
    assert "Kel carries Steel vial." in described(added)
    drunk = await bot_env.slash("/power drink vial:Steel vial name:Kel", user="player1")
    assert not drunk.ephemeral and "Reserves: Steel 3" in described(drunk)
    burning = await bot_env.slash("/power burn metal:Steel flare:true name:Kel", user="player1")
    assert "Burning: Steel (flared)" in described(burning)
    early = await bot_env.slash("/power time minutes:2 name:Kel", user="player1")
    assert refused(early) and "Only a Narrator can move time on" in early.content
    later = await bot_env.slash("/power time minutes:2 name:Kel", user="narrator")
    assert "Reserves: Steel 2" in described(later)
    character = await sheet(bot_env, "Kel")
    assert character.allomancy.charges("Steel") == 2 and character.allomancy.flared == ("Steel",)
    story = [s.entry for s in await bot_env.storage.journal.of_character(bot_env.guild_id, kel.id)]
    metals = [e.text for e in story if e.kind is EntryKind.METALS]
    assert metals == ["Kel: Steel vial drunk; +3 Steel (drunk).", "Kel: -1 Steel (flared)."]


async def test_a_thug_runs_dry_and_pewter_stops(bot_env: BotEnv) -> None:
    await make(bot_env, "Ham", ("allomancy", "Pewter", 4))
    await bot_env.slash("/power reserve metal:Pewter charges:1 name:Ham", user="narrator")
    await bot_env.slash("/power burn metal:Pewter name:Ham", user="player1")
    dry = await bot_env.slash("/power time minutes:10 name:Ham", user="narrator")
    assert "Ham's Pewter runs out." in described(dry)
    assert (await sheet(bot_env, "Ham")).allomancy.burning == ()


async def test_bad_input_is_refused_privately_and_changes_nothing(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin", ("allomancy", "Tin", 4))
    before = await sheet(bot_env, "Vin")
    for line in (
        "/power burn metal:Steal name:Vin",
        "/power burn metal:Steel name:Vin",
        "/power drink vial:Tin vial name:Vin",
        "/power stop metal:Tin name:Vin",
        "/power vial kind:nail name:Vin",
        "/power metalmind metal:Tin charges:20 name:Vin",
        '/power vial kind:misting metal:Tin label:"   " name:Vin',
    ):
        reply = await bot_env.slash(line, user="player1")
        assert refused(reply), (line, reply.content)
    assert (
        "is not a metal" in (await bot_env.slash("/power burn metal:Steal name:Vin", user="player1")).content
    )
    assert await sheet(bot_env, "Vin") == before


async def test_a_keeper_stores_by_the_hour(bot_env: BotEnv) -> None:
    """A player stores by the hour; storing through a Breather is the Narrator's, who calls
    Breathers (docs/rulings.md §9.4, §5.12): a player asking is refused privately."""
    await make(bot_env, "Sazed", ("feruchemy", "Pewter", 3))
    await bot_env.slash("/power metalmind metal:Pewter size:Small name:Sazed", user="player1")
    stored = await bot_env.slash("/power store metal:Pewter name:Sazed", user="player1")
    assert "Storing: Pewter 3 an hour" in described(stored)
    hours = await bot_env.slash("/power time minutes:150 name:Sazed", user="narrator")
    assert "Pewtermind 6/25" in described(hours)
    before = await sheet(bot_env, "Sazed")
    own = await bot_env.slash("/power store metal:Pewter breather:Long name:Sazed", user="player1")
    assert refused(own) and "Only a Narrator can store through a Breather" in own.content
    assert await sheet(bot_env, "Sazed") == before
    breather = await bot_env.slash("/power store metal:Pewter breather:Long name:Sazed", user="narrator")
    assert "Pewtermind 25/25" in described(breather)
    assert (await sheet(bot_env, "Sazed")).feruchemy.storing == ()


async def test_a_hidden_villains_reserves_stay_the_narrators(bot_env: BotEnv) -> None:
    owner = bot_env.user_id("narrator")
    inquisitor = await make(
        bot_env, "Inquisitor", ("allomancy", "Steel", 6), kind=CharacterKind.VILLAIN, owner_id=owner
    )
    reply = await bot_env.slash("/power reserve metal:Steel charges:7 name:Inquisitor", user="narrator")
    public = [m for m in reply.messages if not int(m.get("flags") or 0) & 64]
    private = [m for m in reply.messages if int(m.get("flags") or 0) & 64]
    assert public and all("Steel" not in str(m) for m in public)
    assert any("Reserves: Steel 7" in str(m) for m in private)
    story = [s.entry for s in await bot_env.storage.journal.of_character(bot_env.guild_id, inquisitor.id)]
    [metals] = [e for e in story if e.kind is EntryKind.METALS]
    assert metals.text == "Inquisitor: +7 Steel (set by the Narrator)." and metals.public is None


async def test_a_long_breather_brings_a_drunk_vial_back(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin", ("allomancy", "Tin", 4))
    await bot_env.slash("/power vial kind:misting metal:Tin name:Vin", user="player1")
    await bot_env.slash("/power drink vial:Tin vial name:Vin", user="player1")
    again = await bot_env.slash("/power drink vial:Tin vial name:Vin", user="player1")
    assert refused(again) and "Long Breather" in again.content
    await bot_env.slash("/sheet breather kind:Long name:Vin", user="narrator")
    drunk = await bot_env.slash("/power drink vial:Tin vial name:Vin", user="player1")
    assert "Reserves: Tin 6" in described(drunk)


async def test_the_narrator_drives_a_spike_blesses_and_makes_a_savant(bot_env: BotEnv) -> None:
    await make(bot_env, "Marsh", ("allomancy", "Steel", 7))
    refusal = await bot_env.slash("/power spike metal:Steel rating:5 stolen:Steel name:Marsh", user="player1")
    assert refused(refusal) and "Only a Narrator can drive spikes" in refusal.content
    spiked = await bot_env.slash("/power spike metal:Steel rating:5 stolen:Steel name:Marsh", user="narrator")
    assert "Spikes: Steel spike (Allomantic Steel) 5" in described(spiked)
    roll = await bot_env.slash("/roll stat:Steel character:Marsh", user="narrator")
    assert roll.message is not None and "Steel spike" in str(roll.message)
    wrong = await bot_env.slash("/power spike metal:Steel rating:5 name:Marsh", user="narrator")
    assert refused(wrong) and "steals a physical Allomancy Power" in wrong.content
    await bot_env.slash("/power blessing blessing:Awareness name:Marsh", user="narrator")
    savant = await bot_env.slash("/power savant metal:Steel name:Marsh", user="narrator")
    assert "Blessings: Awareness" in described(savant) and "Savant of Steel" in described(savant)
    torn = await bot_env.slash("/power spike metal:Steel remove:true name:Marsh", user="narrator")
    assert "5 Health lost" in described(torn)
    character = await sheet(bot_env, "Marsh")
    assert character.hemalurgy.spikes == () and character.damage.health == 5


async def test_a_spikes_rating_is_figured_from_its_victim(bot_env: BotEnv) -> None:
    await make(bot_env, "Marsh", ("allomancy", "Steel", 7))
    cases = [
        ("metal:Steel stolen:Steel victim:7", "(rating 6: the victim's 7 less 1)", 6),
        ("metal:Bronze stolen:Bronze victim:6 weeks:2", "(rating 3: the victim's 6 less 1, less 2 weeks", 3),
        ("metal:Pewter stolen:Pewter victim:3 weeks:4", "at least 2)", 2),
        ("metal:Tin victim:9 rating:4", "(rating 4, as the Narrator gave it (the victim's 9 less 1", 4),
        ("metal:Zinc rating:5", "(rating 5, as the Narrator gave it)", 5),
    ]
    for options, said, rating in cases:
        reply = await bot_env.slash(f"/power spike {options} name:Marsh", user="narrator")
        assert said in described(reply), (options, described(reply))
        assert (await sheet(bot_env, "Marsh")).hemalurgy.spikes[-1].rating == rating
    for options in ["metal:Iron", "metal:Iron weeks:3"]:
        neither = await bot_env.slash(f"/power spike {options} name:Marsh", user="narrator")
        assert refused(neither) and "Give the victim's rating (victim:)" in neither.content
    assert len((await sheet(bot_env, "Marsh")).hemalurgy.spikes) == len(cases)


async def test_pewter_heals_with_its_hours_and_the_narrator_sets_its_drag(bot_env: BotEnv) -> None:
    await make(bot_env, "Ham", ("allomancy", "Pewter", 4), damage={"health": 5})
    await bot_env.slash("/power burn metal:Pewter name:Ham", user="player1")
    healed = await bot_env.slash("/power time minutes:480 name:Ham", user="narrator")
    assert "Pewter has burnt its 8 hours: Ham heals 2 Health." in described(healed)
    assert (await sheet(bot_env, "Ham")).damage.health == 3
    refusal = await bot_env.slash("/power drag name:Ham", user="player1")
    assert refused(refusal) and "Only a Narrator can set Pewter drag" in refusal.content
    dragged = await bot_env.slash("/power drag name:Ham", user="narrator")
    assert "Ham is in Pewter drag." in described(dragged)
    assert "Pewter drag: Physique halved, until 8 h more of Pewter" in described(dragged)
    roll = await bot_env.slash("/roll stat:Physique character:Ham", user="narrator")
    assert roll.message is not None and "Pewter drag" in str(roll.message)
    rested = await bot_env.slash("/power time minutes:90 name:Ham", user="narrator")
    assert "until 6 h 30 min more of Pewter" in described(rested)
    lifted = await bot_env.slash("/power drag dragged:false name:Ham", user="narrator")
    assert "Ham is out of Pewter drag." in described(lifted) and "Pewter drag:" not in described(lifted)
    await make(bot_env, "Vin", ("allomancy", "Tin", 4))
    tin = await bot_env.slash("/power drag name:Vin", user="narrator")
    assert refused(tin) and "Vin burns no Pewter" in tin.content


async def test_in_a_live_conflict_a_players_burn_goes_through_the_conflict(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin", ("allomancy", "Tin", 4))
    for user, line in [
        ("narrator", '/conflict start kind:physical stakes:"The keep"'),
        ("player1", "/character use name:Vin"),
        ("player1", "/conflict join"),
    ]:
        reply = await bot_env.slash(line, user=user)
        assert not refused(reply), (line, reply.content)
    channel = bot_env.world.guild.channels[0].id
    burn = await bot_env.slash("/power burn metal:Tin name:Vin", user="player1")
    assert refused(burn) and f"Vin is in the Conflict in <#{channel}>" in burn.content
    assert (await sheet(bot_env, "Vin")).allomancy.burning == ()


async def test_impure_metal_cannot_flare_and_poison_costs_health(bot_env: BotEnv) -> None:
    await make(bot_env, "Vin", ("allomancy", "Steel", 4))
    await bot_env.slash("/power vial kind:misting metal:Steel name:Vin", user="player1")
    impure = await bot_env.slash('/power impure vial:"Steel vial" name:Vin', user="narrator")
    assert "Steel vial: 3 Steel (impure)" in described(impure)
    drunk = await bot_env.slash('/power drink vial:"Steel vial" name:Vin', user="player1")
    assert "Reserves: Steel 3 (impure)" in described(drunk) and "cannot be flared" in described(drunk)
    flare = await bot_env.slash("/power burn metal:Steel flare:true name:Vin", user="player1")
    assert refused(flare) and "impure" in flare.content
    poisoned = await bot_env.slash("/power poison metal:Steel name:Vin", user="narrator")
    assert "3 unburnt Steel poisons Vin: 3 Health lost." in described(poisoned)
    assert (await sheet(bot_env, "Vin")).damage.health == 3


async def test_pewters_hours_and_drag_go_out_and_back_with_the_sheet_file(
    bot_env: BotEnv, tmp_path: Path
) -> None:
    """The Roll20 sheet has no field for Pewter's clock (its Power rows hold charges only), so the
    bot's own file is where it travels: what ``/power time`` and ``/power drag`` counted comes back
    whole from ``/character export`` through ``/character import`` (docs/rulings.md §9.3)."""
    await make(bot_env, "Ham", ("allomancy", "Pewter", 4), damage={"health": 5})
    await bot_env.slash("/power burn metal:Pewter name:Ham", user="player1")
    await bot_env.slash("/power time minutes:300 name:Ham", user="narrator")
    await bot_env.slash("/power drag name:Ham", user="narrator")
    await bot_env.slash("/power time minutes:75 name:Ham", user="narrator")
    clock = (await sheet(bot_env, "Ham")).allomancy.pewter
    assert clock.drag and clock.burnt == 375 and clock.rested == 75
    exported = await bot_env.slash("/character export name:Ham", user="player1")
    assert exported.message is not None
    path = tmp_path / "ham.json"
    path.write_bytes(bot_env.harness.fake.file_bytes(exported.message["attachments"][0]))
    await bot_env.slash(f'/character import file:"{path}" name:Hammond', user="player1")
    assert (await sheet(bot_env, "Hammond")).allomancy.pewter == clock
    shown = await bot_env.slash("/character show name:Hammond", user="player1")
    assert shown.message is not None and "Pewter drag" in card_text(shown.message)
