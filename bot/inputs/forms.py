"""What a form's fields hold, read as the commands read the same options (a form's submission
reaches its cog through ``bot.forms``)."""

from bot.errors import BotError


def typed_traits(text: str) -> int:
    """Net Traits typed in a form's text input (empty: 0), bounded as ``/declare traits:``."""
    value = text.strip() or "0"
    try:
        traits = int(value.replace("−", "-").lstrip("+"))
    except ValueError:
        raise BotError("Traits: give a whole number, e.g. 2, or -1 when they hinder.") from None
    if not -10 <= traits <= 10:
        raise BotError("Traits: between -10 and 10.")
    return traits
