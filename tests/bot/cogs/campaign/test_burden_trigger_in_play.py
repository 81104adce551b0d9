"""The Burden trigger from play (docs/rulings.md §10.1): a declaration that counts a Hero's Burden
toward its dice leaves the journal entry the night's end reads, so the award offered for that
Hero is preset to 1 with the Burden named, through the real dispatch and no hand-made entry."""

from rules.burdens import Severity
from testbed.bot_env import BotEnv
from tests.bot.cogs.campaign.test_advancements import make
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL


async def test_a_burden_counted_in_a_declaration_presets_the_award_at_the_end(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, burdens=[{"name": "Lost an eye", "severity": Severity.GRAVE}])
    await env.slash("/character create name:Thug kind:Villain physique:5", user="narrator")
    await env.slash("/session start", user="narrator")
    await env.slash("/character use name:Vin", user="player1")
    for user, line in [
        ("narrator", '/conflict start kind:physical stakes:"A brawl"'),
        ("player1", "/conflict join"),
        ("narrator", "/conflict add character:Thug"),
        ("narrator", "/conflict begin"),
        ("player1", "/declare action:attack target:Thug stat:Physique"),
        ("narrator", '/declare who:Thug action:attack target:Vin stat:Physique burdens:"Lost an eye"'),
    ]:
        answered = await env.slash(line, user=user)
        assert not answered.ephemeral, (line, answered.content)
    await env.slash("/conflict end", user="narrator")
    ended = await env.slash("/session end", user="narrator")
    [panel] = [m for m in ended.messages if m["flags"] & EPHEMERAL and "Tonight's awards" in m["content"]]
    assert "**Vin**: 1" in panel["content"]
    assert "Burden trigger 1: Lost an eye" in panel["content"]
