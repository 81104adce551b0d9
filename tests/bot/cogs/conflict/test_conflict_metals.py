"""Burning, flaring and drinking in a Conflict, through the real dispatch: the sheet's reserves pay
as docs/rulings.md §9.2 rules, in the move's one write, each charge a journal line (§9.9), a
hidden Villain's the Narrator's only, and the board shows what burns or flares but a hidden
sheet's."""

from typing import Any

from rules.character import CharacterKind, make_character
from rules.journal import EntryKind
from storage import StoredCharacter
from testbed.bot_env import BotEnv, board_message, refused
from testbed.cards import card_text

STATS: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}
VIAL = {"name": "Steel vial", "implement": {"kind": "vial", "metals": ["Steel"], "charges": 3}}


async def make(env: BotEnv, name: str, owner: str, **fields: Any) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    powers = [{"type": "allomancy", "name": m, "rating": 5} for m in ("Steel", "Pewter")]
    allomancy = {
        "tracked": True,
        "reserves": [{"metal": "Steel", "charges": 5}, {"metal": "Pewter", "charges": 2}],
    }
    character = make_character(
        name=name, owner_id=env.user_id(owner), powers=powers, allomancy=allomancy, **{**STATS, **fields}
    )
    return await env.storage.characters.create(env.guild_id, character)


async def reserve(env: BotEnv, name: str, metal: str) -> int:
    stored = await env.storage.characters.get_by_name(env.guild_id, name)
    return int(stored.character.allomancy.charges(metal))


async def metal_lines(env: BotEnv, character: StoredCharacter) -> list[Any]:
    story = [s.entry for s in await env.storage.journal.of_character(env.guild_id, character.id)]
    return [e for e in story if e.kind is EntryKind.METALS]


async def test_a_coinshot_pays_to_burn_and_each_flared_round_and_drinks_once_a_round(bot_env: BotEnv) -> None:
    env = bot_env
    kel = await make(env, "Kel", "player1", props=[VIAL, VIAL])
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"The keep"'),
            ("player1", "/character use name:Kel"),
            ("player1", "/conflict join"),
            ("narrator", "/conflict begin"),
        ]
    )
    burnt = await env.slash("/burn metal:Steel flare:true", user="player1")
    assert not refused(burnt), burnt.content
    assert "flares Steel" in str(burnt.embeds) and "-1 Steel (burned)" in str(burnt.embeds)
    assert await reserve(env, "Kel", "Steel") == 4
    stored = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    assert stored.character.allomancy.flared == ("Steel",)
    drunk = await env.slash("/drink vial:Steel vial", user="player1")
    assert not refused(drunk), drunk.content
    assert await reserve(env, "Kel", "Steel") == 7
    again = await env.slash("/drink vial:Steel vial", user="player1")
    assert refused(again) and "one a round" in again.content
    await env.play([("player1", "/declare action:no-roll"), ("narrator", "/conflict next-round")])
    assert await reserve(env, "Kel", "Steel") == 6
    lines = [e.text for e in await metal_lines(env, kel)]
    assert lines == [
        "Kel: -1 Steel (burned).",
        "Kel: Steel vial drunk; +3 Steel (drunk).",
        "Kel: -1 Steel (flared).",
    ]
    assert all(e.public == e.text for e in await metal_lines(env, kel))
    await env.bot.conflicts.idle()
    assert "**Kel** · flaring Steel" in card_text(await board_message(env))


async def test_a_hidden_villains_charges_are_the_narrators_only(bot_env: BotEnv) -> None:
    env = bot_env
    villain = await make(env, "Inquisitor", "narrator", kind=CharacterKind.VILLAIN)
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"The keep"'),
            ("narrator", "/conflict add character:Inquisitor"),
        ]
    )
    burnt = await env.slash("/burn metal:Steel who:Inquisitor", user="narrator")
    assert not refused(burnt), burnt.content
    assert await reserve(env, "Inquisitor", "Steel") == 4
    public = [m for m in burnt.messages if not int(m.get("flags") or 0) & 64]
    assert public and all("-1 Steel" not in str(m) for m in public)
    await env.bot.conflicts.idle()
    board = card_text(await board_message(env))
    assert "**Inquisitor**" in board and "Steel" not in board and "burning" not in board
    narrator = [m for m in burnt.messages if int(m.get("flags") or 0) & 64]
    assert any("-1 Steel (burned)" in str(m) for m in narrator)  # the Narrator's own figures
    [line] = await metal_lines(env, villain)
    assert line.text == "Inquisitor: -1 Steel (burned)." and line.public is None
