"""``/template``: a Narrator's own Villain saved as a template, listed, renamed, made again
in another channel and fought there (docs/rulings.md §10.4), through the real dispatch."""

from rules.burdens import Severity
from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text


async def test_a_saved_villain_is_made_again_whole_and_fights_in_another_channel(bot_env: BotEnv) -> None:
    env = bot_env
    straff = make_character(
        name="Straff",
        kind=CharacterKind.VILLAIN,
        owner_id=env.user_id("narrator"),
        concept="Warlord of the Central Dominance",
        powers=[{"type": "allomancy", "name": "Tin", "rating": 5, "stunts": ["Focused Sense"]}],
        props=[{"name": "Warhammer", "weapon": 2}],
        burdens=[{"name": "Tineye's headaches", "severity": Severity.GRAVE}],
        damage={"health": 3},
    )
    await env.storage.characters.create(env.guild_id, straff)
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"))
    await env.storage.characters.create(env.guild_id, vin)
    player = await env.slash("/template save name:Straff template:Warlord", user="player1")
    assert player.ephemeral and "only a narrator" in player.content.lower()
    hero = await env.slash("/template save name:Vin template:Girl")
    assert hero.ephemeral and "a Hero is a player's" in hero.content
    saved = await env.slash("/template save name:Straff template:Warlord")
    assert saved.ephemeral and "Saved **Warlord**" in saved.content
    taken = await env.slash("/template save name:Straff template:warlord")
    assert taken.ephemeral and "already saved here" in taken.content
    hidden = await env.harness.autocomplete("/template make template:War", user="player1")
    assert hidden.choices == []
    listed = await env.slash("/template list")
    assert "**Warlord**: Villain, Warlord of the Central Dominance" in listed.content
    await env.slash("/template rename template:Warlord new_name:Venture")
    channel = env.world.guild.channel("ooc")
    assert channel is not None
    env.harness.channel = channel
    made = await env.slash("/template make template:Venture name:Jastes")
    assert made.message is not None and "Created **Jastes** from your template Venture" in card_text(
        made.message
    )
    jastes = (await env.storage.characters.get_by_name(env.guild_id, "Jastes")).character
    assert jastes.kind is CharacterKind.VILLAIN and jastes.concept == "Warlord of the Central Dominance"
    assert jastes.powers[0].stunts == ("Focused Sense",) and jastes.props[0].name == "Warhammer"
    assert jastes.burdens == () and jastes.damage.health == 0  # the wear of play is not kept
    await env.slash('/conflict start kind:physical stakes:"The keep"')
    added = await env.slash("/conflict add character:Jastes side:opposition")
    assert not added.ephemeral or "Jastes" in (added.content or ""), added.content
    stored = await env.storage.conflicts.get(env.guild_id, channel.id)
    assert stored is not None and "Jastes" in stored.document
    offered = await env.harness.autocomplete("/character create name:Kredik template:Ven")
    assert [c["name"] for c in offered.choices] == ["Venture (saved)"]
    player_offered = await env.harness.autocomplete(
        "/character create name:Kredik template:Ven", user="player1"
    )
    assert player_offered.choices == []
    created = await env.slash("/character create name:Kredik template:Venture size:1")
    assert created.ephemeral and created.message is not None
    assert "From the Venture template" in card_text(created.message)
    kredik = (await env.storage.characters.get_by_name(env.guild_id, "Kredik")).character
    assert kredik.powers[0].stunts == ("Focused Sense",)
    gone = await env.slash("/template delete template:Venture")
    assert gone.ephemeral and "Deleted the template Venture" in gone.content
    again = await env.slash("/template make template:Venture name:Other")
    assert again.ephemeral and "no template called Venture" in again.content
