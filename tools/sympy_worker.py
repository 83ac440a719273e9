"""The maths worker: a separate process that turns checked syntax trees into sympy and evaluates them.

Run as `python -m tools.sympy_worker`; it reads one JSON request per line and
answers one JSON line each. The parent kills it when an answer takes too long
(see `tools.sandbox`), and on Linux it cannot use more than 2 GB of memory.
"""

from __future__ import annotations

import ast
import json
import math
import sys
from typing import Any

import sympy

from tools.expressions import CONSTANTS, FUNCTIONS, check_symbol_name, parse_checked, split_equation

MEMORY_LIMIT_BYTES = 2 * 1024**3
MAX_RESULT_DIGITS = 4_000  # Python refuses to print longer integers, and nobody reads them
MAX_RESULT_CHARS = 4_000

_FUNCTIONS: dict[str, Any] = {name: getattr(sympy, target) for name, target in FUNCTIONS.items()}
_CONSTANTS: dict[str, Any] = {name: getattr(sympy, target) for name, target in CONSTANTS.items()}
_OPERATORS: dict[type, Any] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Mod: lambda a, b: a % b,
}


def _power(base: Any, exponent: Any) -> Any:
    if base.is_Number and exponent.is_Number and exponent > 1 and abs(base) > 1:
        digits = float(exponent) * math.log10(float(abs(base)))
        if digits > MAX_RESULT_DIGITS:
            raise ValueError(f"the result would have about {digits:.3g} digits: too expensive to evaluate")
    return base**exponent


def build(node: ast.AST) -> Any:
    """A sympy object from an allowlisted syntax tree (already checked by `parse_checked`)."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else sympy.Number(node.value)
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        return sympy.Symbol(check_symbol_name(node.id))
    if isinstance(node, ast.BinOp):
        left, right = build(node.left), build(node.right)
        return _power(left, right) if isinstance(node.op, ast.Pow) else _OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp):
        operand = build(node.operand)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Tuple):
        return tuple(build(element) for element in node.elts)
    if isinstance(node, ast.Call):
        return _FUNCTIONS[node.func.id](*(build(argument) for argument in node.args))  # type: ignore[attr-defined]
    raise ValueError(f"{type(node).__name__} is not allowed")


def _text(value: Any) -> str:
    text = str(sympy.sstr(value))
    return text if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS] + " … [cut]"


def _decimal(value: Any, digits: int) -> str | None:
    if not getattr(value, "is_number", False) or value.is_Integer:
        return None
    number = sympy.N(value, digits)
    return sympy.sstr(number) if number.is_Float or (number.is_number and not number.is_Rational) else None


def evaluate(expression: str) -> dict[str, Any]:
    value = build(parse_checked(expression).body)
    if hasattr(value, "doit"):
        value = value.doit()
    if getattr(value, "has", None) and value.has(sympy.zoo, sympy.nan):
        raise ValueError("it divides by zero or is otherwise undefined")
    return {"result": _text(value), "decimal": _decimal(value, 4), "decimal_precise": _decimal(value, 15)}


def solve(equation: str, variable: str) -> dict[str, Any]:
    left, right = (build(parse_checked(side).body) for side in split_equation(equation))
    unknown = sympy.Symbol(check_symbol_name(variable, "variable"))
    unknowns: set[Any] = getattr(left - right, "free_symbols", set())
    if unknown not in unknowns:
        others = f"; solve for {', '.join(sorted(map(str, unknowns)))}" if unknowns else ""
        raise ValueError(f"{variable} does not appear in the equation{others}")
    solutions = sympy.solve(sympy.Eq(left, right), unknown)
    return {
        "solutions": [_text(solution) for solution in solutions],
        "decimals": [_decimal(solution, 4) for solution in solutions],
        "decimals_precise": [_decimal(solution, 15) for solution in solutions],
    }


def answer(request: dict[str, Any]) -> dict[str, Any]:
    try:
        if request.get("op") == "evaluate":
            return {"ok": evaluate(str(request["expression"]))}
        if request.get("op") == "solve":
            return {"ok": solve(str(request["equation"]), str(request["variable"]))}
        return {"error": "unknown request"}
    except (ValueError, TypeError, ZeroDivisionError, NotImplementedError, AttributeError) as error:
        return {"error": str(error) or type(error).__name__}
    except MemoryError:
        return {"error": "it needs too much memory: too expensive to evaluate"}
    except RecursionError:
        return {"error": "it is nested too deeply to evaluate"}
    except Exception as error:  # noqa: BLE001 - sympy raises many kinds; the user gets the message
        return {"error": f"sympy could not evaluate it ({type(error).__name__}: {error})"}


def _limit_memory() -> None:
    try:
        import resource
    except ImportError:  # not on Windows
        return
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


def main() -> None:
    _limit_memory()
    sys.setrecursionlimit(5_000)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            request = {}
        print(json.dumps(answer(request)), flush=True)


if __name__ == "__main__":
    main()
