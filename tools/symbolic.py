"""Exact and numeric maths with sympy, from checked text, in a time-limited worker process."""

from __future__ import annotations

from domain.calculations import CalcResult
from tools.catalogue import tool
from tools.expressions import check_symbol_name, parse_checked, split_equation
from tools.sandbox import worker


@tool("calculation", words=("integrate", "derivative", "differentiate", "simplify", "expand", "limit"))
def evaluate_expression(expression: str) -> CalcResult:
    """Exact or numeric maths: "sqrt(2025)", "integrate(x**2, (x, 0, 3))", "diff(sin(x)*x, x)".

    Args:
        expression: The maths, with ** for powers and functions such as sqrt, sin, log, diff, integrate, limit.
    """
    parse_checked(expression)
    answer = worker.request({"op": "evaluate", "expression": expression})
    results, precise = {"result": answer["result"]}, {"result": answer["result"]}
    if answer.get("decimal"):
        results["decimal"], precise["decimal"] = answer["decimal"], answer["decimal_precise"]
    return CalcResult(
        results=results,
        precise=precise,
        formula=expression.strip(),
        substituted=f"{expression.strip()} = {answer['result']}",
    )


@tool("calculation", words=("solve", "equation", "root", "unknown"))
def solve_equation(equation: str, variable: str = "x") -> CalcResult:
    """Solve an equation for one unknown: "x**2 - 4 = 0" gives -2, 2.

    Args:
        equation: The equation with one '=' (or an expression taken as equal to zero).
        variable: The unknown to solve for.
    """
    for side in split_equation(equation):
        parse_checked(side)
    check_symbol_name(variable, "variable")
    answer = worker.request({"op": "solve", "equation": equation, "variable": variable})
    solutions = answer["solutions"]
    shown = ", ".join(solutions) if solutions else "no solution"
    results: dict[str, str | list[str]] = {"solutions": shown}
    precise: dict[str, str | list[str]] = {"solutions": shown}
    if any(answer["decimals"]):
        results["decimals"] = ", ".join(d or s for d, s in zip(answer["decimals"], solutions, strict=True))
        precise["decimals"] = ", ".join(d or s for d, s in zip(answer["decimals_precise"], solutions, strict=True))
    return CalcResult(
        results=results,
        precise=precise,
        formula=f"{equation.strip()}, for {variable}",
        substituted=f"{variable} = {shown}",
    )
