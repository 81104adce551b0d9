"""No function in ``bot/`` takes 9 or more parameters, but a slash command's callback, whose
parameters are its options (issue 40): a wider signature is a value waiting to be named (a move's
options, what a roll declares with it), and calls that pass a dozen positional arguments are
where two of them get swapped.

Read from the source, so a new module is covered without a list: every ``def`` in ``bot/``,
counting every parameter a caller passes (a method's ``self`` or ``cls`` is not one), except those
decorated as application commands (``@app_commands.command(...)``, ``@group.command(...)``).
"""

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
WIDEST = 8
"""The most parameters a function of ``bot/`` may take."""


def is_slash_command(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated with ``….command(...)``: an application command, its parameters its options."""
    return any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "command"
        for d in function.decorator_list
    )


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    given = function.args
    names = [a.arg for a in (*given.posonlyargs, *given.args, *given.kwonlyargs)]
    names += [a.arg for a in (given.vararg, given.kwarg) if a is not None]
    return [name for name in names if name not in ("self", "cls")]


def too_wide() -> list[str]:
    found = []
    for path in sorted(BOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or is_slash_command(node):
                continue
            if len(taken := parameters(node)) > WIDEST:
                where = path.relative_to(BOT.parent)
                found.append(f"{where}:{node.lineno} {node.name} takes {len(taken)}: {', '.join(taken)}")
    return found


def test_no_function_of_bot_but_a_slash_command_takes_nine_parameters_or_more() -> None:
    assert too_wide() == []


def test_the_scan_sees_a_wide_function_and_leaves_slash_commands_alone() -> None:
    """The scan itself: a wide helper is caught, a wide command callback and ``self`` are not."""
    source = """
class Cog:
    @app_commands.command(name="roll")
    async def roll(self, interaction, a, b, c, d, e, f, g, h, i): ...

    def helper(self, a, b, c, d, e, f, g, h): ...

def wide(a, b, c, d, e, f, g, h, *, i): ...
"""
    functions = {
        node.name: node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    assert is_slash_command(functions["roll"])
    assert len(parameters(functions["helper"])) == WIDEST
    assert len(parameters(functions["wide"])) == WIDEST + 1 and not is_slash_command(functions["wide"])
