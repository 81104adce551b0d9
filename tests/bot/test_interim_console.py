"""The interim dice console behind ``python -m bot``."""

import io
import random

from bot.__main__ import console, handle


def test_roll_line_reads_a_seeded_roll():
    text = handle("/roll dice:12 difficulty:2", random.Random(3))
    assert "Dice 12 = 12 -> 10 dice" in text and "vs Difficulty 2" in text


def test_bad_input_is_an_error_line_not_a_crash():
    assert handle("/roll dice:50", random.Random(0)).startswith("Error: Dice rating")
    assert handle("/roll dice:x", random.Random(0)).startswith("Error:")
    assert handle("/nope", random.Random(0)).startswith("Unknown command")


def test_console_reads_a_script_until_eof():
    out = io.StringIO()
    console(io.StringIO("/odds\n/help\n"), out)
    assert "10 dice:  99.9%" in out.getvalue() and out.getvalue().count("Commands:") == 2
