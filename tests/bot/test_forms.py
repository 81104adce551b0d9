"""A submitted form reaches the handler its cog registered, by its custom id alone
(``bot.forms``), through the door clicks come through too (``bot.door``): what the form holds is
read there, so even a body Discord would never send is answered privately, and a custom id no
cog registered is left to the deadline's answer (``bot.replies.guard``)."""

from fake_discord import payloads
from testbed.bot_env import BotEnv

THINKING_PRIVATELY = {"type": 5, "data": {"flags": 64}}
"""What ``bot.replies.guard`` answers, at Discord's deadline, a form a command opened that nothing
answered: such a form has no message to update silently (a click's deferral, type 6, is refused)."""


async def opened_say(vin: BotEnv) -> dict[str, object]:
    opened = await vin.slash("/say", user="player1")
    assert opened.modal is not None
    return opened.modal


async def test_a_sent_form_reaches_its_cog(vin: BotEnv) -> None:
    modal = await opened_say(vin)
    [field] = [c for row in modal["components"] for c in row["components"]]  # type: ignore[attr-defined]
    said = await vin.harness.submit({field["custom_id"]: "Ash falls."}, modal=modal, user="player1")
    assert said.ephemeral and "Said as Vin." in said.content


async def test_a_form_whose_parts_are_not_a_list_is_answered_privately(vin: BotEnv) -> None:
    modal = await opened_say(vin)
    payload = payloads.modal_submit(vin.world, vin.harness.actor("player1"), modal, {})
    payload["data"]["components"] = 5
    answered = await vin.harness.send(payload)
    assert answered.ephemeral and answered.content == "Nothing was said: type the line in the form."


async def test_a_form_no_cog_registered_is_left_to_the_deadlines_private_thinking(vin: BotEnv) -> None:
    modal = await opened_say(vin)
    payload = payloads.modal_submit(vin.world, vin.harness.actor("player1"), modal, {})
    payload["data"]["custom_id"] = "nobody:1"
    answered = await vin.harness.send(payload)
    assert answered.response == THINKING_PRIVATELY and not answered.errors
