"""``/power time everyone:true``: the Narrator moves time on for the whole table at once
(docs/rulings.md §9.2): the Heroes at the table, or the channel's Conflict's cast, each paying
for what burns, one journal line each; a hidden Villain's figures to the Narrator only (§7.1)."""

from rules.character import CharacterKind
from rules.journal import EntryKind
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.powers.test_power_commands import make, sheet


async def test_time_moves_on_for_every_hero_at_the_table(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, "Kel", ("allomancy", "Steel", 5))
    await make(env, "Ham", ("allomancy", "Pewter", 4), owner_id=env.user_id("player2"))
    await env.play(
        [
            ("player1", "/character use name:Kel"),
            ("player2", "/character use name:Ham"),
            ("narrator", "/power reserve metal:Steel charges:5 name:Kel"),
            ("narrator", "/power reserve metal:Pewter charges:5 name:Ham"),
            ("player1", "/power burn metal:Steel name:Kel"),
            ("player2", "/power burn metal:Pewter name:Ham"),
        ]
    )
    early = await env.slash("/power time minutes:20 everyone:true", user="player1")
    assert refused(early) and "Only a Narrator" in early.content
    both = await env.slash("/power time minutes:20 everyone:true name:Kel", user="narrator")
    assert refused(both) and "not both" in both.content
    moved = await env.slash("/power time minutes:20 everyone:true", user="narrator")
    assert not refused(moved), moved.content
    assert "20 minutes pass for the table (2 characters)" in moved.content
    kel, ham = await sheet(env, "Kel"), await sheet(env, "Ham")
    assert kel.allomancy.charges("Steel") == 4  # 20 minutes: one charge of Steel
    assert ham.allomancy.charges("Pewter") == 1  # 5 minutes a charge: four of Pewter
    stored = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    story = [s.entry for s in await env.storage.journal.of_character(env.guild_id, stored.id)]
    assert [e.text for e in story if e.kind is EntryKind.METALS][-1] == "Kel: -1 Steel (burned)."


async def test_time_moves_for_a_conflicts_cast_a_hidden_villains_figures_to_the_narrator(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    await make(env, "Kel", ("allomancy", "Steel", 5))
    owner = env.user_id("narrator")
    await make(env, "Inquisitor", ("allomancy", "Steel", 6), kind=CharacterKind.VILLAIN, owner_id=owner)
    await env.play(
        [
            ("narrator", "/power reserve metal:Steel charges:9 name:Inquisitor"),
            ("narrator", "/power burn metal:Steel name:Inquisitor"),
            ("narrator", "/power reserve metal:Steel charges:5 name:Kel"),
            ("player1", "/power burn metal:Steel name:Kel"),
            ("narrator", '/conflict start kind:physical stakes:"The keep"'),
            ("player1", "/character use name:Kel"),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Inquisitor"),
        ]
    )
    moved = await env.slash("/power time minutes:40 everyone:true", user="narrator")
    assert not refused(moved), moved.content
    public = [m for m in moved.messages if not int(m.get("flags") or 0) & 64]
    private = [m for m in moved.messages if int(m.get("flags") or 0) & 64]
    # Joining the Conflict lit paid 1 each (§9.2); 40 minutes cost 2 more.
    # The table is told the hidden sheet changed, nothing more (§9.9).
    assert all("Steel 6" not in str(m) for m in public)
    assert any("Inquisitor**'s sheet changes" in str(m) for m in public)
    assert any("Reserves: Steel 6" in str(m) for m in private)
    assert (await sheet(env, "Inquisitor")).allomancy.charges("Steel") == 6
    assert (await sheet(env, "Kel")).allomancy.charges("Steel") == 2
