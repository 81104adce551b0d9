"""What a real group tripped over in a Conflict (issue 17), each through the real dispatch."""

from rules.character import Standing
from rules.character.stats import standing_available
from rules.conflict import Conflict
from storage.conflict_moves import current_conflict
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, board_message, refused
from testbed.cards import card_text


async def state(env: BotEnv) -> Conflict:
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    return conflict


PEWTER_DUEL = [
    ("player1", "/character create name:Vin physique:4 wits:3 resources:3"),
    ("player1", "/edit power-add type:allomancy power:Pewter rating:5"),
    ("player2", "/character create name:Kell physique:3 wits:4"),
    ("narrator", "/character create name:Thug kind:Villain physique:5"),
    ("narrator", '/conflict start kind:physical stakes:"A brawl"'),
    ("player1", "/conflict join"),
    ("player2", "/conflict join"),
    ("narrator", "/conflict add character:Thug"),
    ("player1", "/burn metal:Pewter"),
    ("narrator", "/conflict begin"),
]


async def test_pewter_ending_at_no_health_defeats_the_hero_then_and_says_so(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(PEWTER_DUEL)
    hurt = await env.slash(
        "/sheet damage amount:9 pewter:true name:Vin", user="narrator"
    )  # 12 → 3 while burning
    assert not refused(hurt), hurt.content
    stop = await env.slash("/burn metal:Pewter burning:false", user="player1")
    assert not refused(stop), stop.content
    [vin] = [p for p in (await state(env)).participants if p.name == "Vin"]
    assert vin.defeated
    assert "Vin" in stop.text and "defeated" in stop.text.lower()
    assert stop.message is not None and str(env.user_id("player1")) in stop.content  # told, by a ping
    again = await env.slash("/declare action:full-defence stat:Physique", user="player1")
    assert refused(again) and "defeated" in again.content and "/conflict join" not in again.content


async def test_an_attack_uses_the_characters_weapon_unless_told_otherwise(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            ("player1", "/character create name:Vin physique:4 wits:3"),
            ("player1", "/edit prop-add prop:Dagger weapon:1"),
            ("player1", "/edit prop-add prop:Spear weapon:2"),
            ("narrator", "/character create name:Thug kind:Villain physique:5 wits:2"),
            ("narrator", "/character create name:Brute kind:Villain physique:5 wits:2"),
            ("narrator", '/conflict start kind:physical stakes:"A brawl"'),
            ("player1", "/conflict join"),
            ("narrator", "/conflict add character:Thug"),
            ("narrator", "/conflict add character:Brute"),
            ("narrator", "/conflict begin"),
            ("narrator", "/declare who:Thug action:attack target:Vin stat:Physique"),
            ("narrator", "/declare who:Brute action:attack target:Vin stat:Physique weapon:none"),
            ("player1", "/declare action:attack target:Thug stat:Physique"),
        ]
    )
    declared = {p.name: p.round.declaration for p in (await state(env)).participants}
    vin, brute = declared["Vin"], declared["Brute"]
    # Not retyped: the best weapon is taken when the blow lands, if it is still physical (§5.1;
    # tests/bot/test_conflict_words_h2.py shows the damage).
    assert vin is not None and vin.action.weapon is None and vin.action.weapon_bonus is None
    assert brute is not None and brute.action.weapon is None and brute.action.weapon_bonus == 0


async def test_conflict_status_refuses_without_a_conflict_and_replaces_the_board_once_a_while(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    nothing = await env.slash("/conflict status", user="player1")
    assert refused(nothing) and "no Conflict" in nothing.content
    await env.play(PEWTER_DUEL[:6])
    await env.bot.conflicts.idle()
    channel = env.world.guild.channels[0].id
    first = await env.storage.boards.get(env.guild_id, channel)
    assert first is not None and env.harness.fake.messages[first]["pinned"]
    again = await env.slash("/conflict status", user="player1")
    assert not refused(again) or again.content == "The board is posted below."
    await env.bot.conflicts.idle()
    second = await env.storage.boards.get(env.guild_id, channel)
    assert second is not None and second != first and first not in env.harness.fake.messages
    spam = await env.slash("/conflict status", user="player2")
    assert refused(spam)  # the cooldown: one board, not a feed
    await env.bot.conflicts.idle()
    assert await env.storage.boards.get(env.guild_id, channel) == second


async def test_a_bot_that_may_not_pin_says_so_once(bot_env: BotEnv) -> None:
    env = bot_env
    bot_role = next(r for r in env.world.guild.roles if r.name == "Mistborn Bot")
    bot_role.permissions &= ~(1 << 13)  # no Manage Messages
    await env.play(PEWTER_DUEL[:6])
    await env.bot.conflicts.idle()
    await env.slash("/conflict status", user="narrator")
    await env.bot.conflicts.idle()
    said = [m for m in env.harness.fake.messages.values() if "may not pin" in m["content"]]
    assert len(said) == 1


async def test_a_hero_made_for_a_player_is_their_active_one_and_the_join_hint_is_right(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    made = await env.slash("/character create name:Vin physique:4 wits:3 owner:player1", user="narrator")
    assert made.message is not None and "its player's active character" in card_text(made.message)
    await env.play([("narrator", '/conflict start kind:physical stakes:"A brawl"')])
    joined = await env.slash("/conflict join", user="player1")
    assert not refused(joined), joined.content
    lost = await env.slash("/conflict join", user="player2")
    assert refused(lost) and "`/character use`" in lost.content and "name one" not in lost.content


async def test_a_defeated_heros_player_is_told_so_not_sent_to_join(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(PEWTER_DUEL)
    await env.slash("/sheet damage amount:9 pewter:true name:Vin", user="narrator")
    await env.slash("/burn metal:Pewter burning:false", user="player1")
    told = await env.slash("/pass", user="player1")
    assert refused(told) and "Vin is defeated" in told.content


async def test_a_rename_shows_in_the_conflict_and_a_combatant_cannot_be_deleted(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(PEWTER_DUEL[:8])
    renamed = await env.slash("/character rename name:Thug new_name:Brute", user="narrator")
    assert not refused(renamed), renamed.content
    await env.bot.conflicts.idle()
    board = await board_message(env)
    assert "Brute" in card_text(board) and "Thug" not in card_text(board)
    await env.slash("/conflict begin", user="narrator")
    declared = await env.slash("/declare action:attack target:Kell stat:Physique", user="narrator")
    assert not refused(declared), declared.content
    gone = await env.slash("/character delete name:Brute", user="narrator")
    assert refused(gone) and "/conflict remove" in gone.content
    assert {p.name for p in (await state(env)).participants} == {"Vin", "Kell", "Brute"}


async def test_every_conflict_roll_is_logged_and_a_secret_villains_is_secret(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play([*DUEL, THUG_ATTACKS])
    await env.harness.click("Don't defend", user="player1")
    logged = await env.storage.rolls.recent(env.guild_id, limit=10)
    thug = [r for r in logged if r.label.startswith("Thug")]
    assert thug and all(r.secret and r.user_id == env.user_id("narrator") for r in thug)


async def test_a_contest_from_sheets_spends_the_standing_and_is_logged(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play(
        [
            ("player1", "/character create name:Vin physique:4 wits:3 resources:4"),
            ("player2", "/character create name:Kell physique:3 wits:4"),
        ]
    )
    reply = await env.slash(
        "/contest actor:Vin actor_stat:Resources opponent:Kell opponent_stat:Wits", user="player1"
    )
    assert not refused(reply), reply.content
    vin = next(s for s in await env.storage.characters.list_by_guild(env.guild_id) if s.name == "Vin")
    assert standing_available(vin.character, Standing.RESOURCES) < 4
    assert len(await env.storage.rolls.recent(env.guild_id, limit=10)) == 2


async def test_a_typed_defence_after_a_restart_still_gives_the_player_their_moment(bot_env: BotEnv) -> None:
    env = bot_env
    await env.play([*DUEL, THUG_ATTACKS])
    await env.bot.conflicts.idle()
    await env.restart()
    early = await env.slash("/defend dice:0", user="narrator")
    assert refused(early) and "Give the player a moment" in early.content
