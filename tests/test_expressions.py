"""Symbolic maths from model text: correct answers, no code execution, bounded time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from fakes.ollama import FakeOllama, Reply
from tests.agent_helpers import calls, make_agent
from tools import ToolContext, run_tool
from tools.expressions import parse_checked
from tools.sandbox import PROJECT_ROOT, worker

MARKER = "PWNED_BY_EXPRESSION"
PAYLOADS = [
    "().__class__.__base__.__subclasses__()",
    f"__import__('os').system('touch {MARKER}')",
    f"(lambda: __import__('os').system('touch {MARKER}'))()",
    "x.__class__",
    "[c for c in ().__class__.__base__.__subclasses__()]",
    f"open('{MARKER}', 'w')",
    "eval('1')",
    "exec('x=1')",
    "globals()",
    "x[0]",
    "f'{x}'",
    "sqrt(x, evaluate=False)",
    "__builtins__",
    "_x + 1",
    "lambda: 1",
    "x if x else y",
    "1 < 2",
    "'text'",
    "not x",
    "x; import os",
    "x" * 10_000,
    "",
]


def evaluate(expression: str) -> tuple[str, str | None]:
    outcome = run_tool("evaluate_expression", {"expression": expression}, ToolContext())
    return outcome.output, outcome.error


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("sqrt(2025)", "45"),
        ("integrate(x**2, (x, 0, 3))", "9"),
        ("diff(sin(x)*x, x)", "x*cos(x) + sin(x)"),
        ("limit(sin(x)/x, x, 0)", "1"),
        ("2^10", "1024"),
        ("Rational(1, 3) + Rational(1, 6)", "1/2"),
        ("expand((a + b)**2)", "a**2 + 2*a*b + b**2"),
    ],
)
def test_exact_results(expression: str, expected: str) -> None:
    outcome = run_tool("evaluate_expression", {"expression": expression}, ToolContext())
    assert outcome.error is None and outcome.calculation is not None, outcome.output
    assert outcome.calculation.results["result"] == expected


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("2x + 3", "2*x + 3"),
        ("x^2 - 5x + 6", "x**2 - 5*x + 6"),
        ("2(x+1)", "2*x + 2"),
        ("expand((a+b)(a-b))", "a**2 - b**2"),
        ("x(x+1)", "x*(x + 1)"),
        ("2pi", "2*pi"),
        ("2 pi r^2", "2*pi*r**2"),
        ("3sin(x)", "3*sin(x)"),
        ("x sqrt(x)", "x**(3/2)"),
        ("sqrt(2)x", "sqrt(2)*x"),
        ("(x+1)2", "2*x + 2"),
        ("1.5e3x", "1500.0*x"),
        ("2e", "2*e"),
        ("12 Mu/(0.9 fy)", "13.3333333333333*Mu/fy"),
    ],
)
def test_implicit_multiplication_as_engineers_write_it(expression: str, expected: str) -> None:
    outcome = run_tool("evaluate_expression", {"expression": expression}, ToolContext())
    assert outcome.error is None and outcome.calculation is not None, outcome.output
    assert outcome.calculation.results["result"] == expected


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        ("sin x", "not valid maths"),
        ("foo(x)", "the function foo is not available"),
        ("2 3", "not valid maths"),
        ("x if y else 2", "is not allowed"),
        ("f'{x}'", "is not allowed"),
    ],
)
def test_what_is_not_a_product_stays_refused(expression: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        parse_checked(expression)


def test_numeric_value_beside_an_exact_one() -> None:
    outcome = run_tool("evaluate_expression", {"expression": "sqrt(2)*pi"}, ToolContext())
    assert outcome.calculation is not None
    assert outcome.calculation.results == {"result": "sqrt(2)*pi", "decimal": "4.443"}
    assert outcome.calculation.precise["decimal"].startswith("4.44288293815837")


@pytest.mark.parametrize(
    ("equation", "variable", "solutions"),
    [
        ("x**2 - 4 = 0", "x", "-2, 2"),
        ("2*t + 6", "t", "-3"),
        ("x**2 = 2", "x", "-sqrt(2), sqrt(2)"),
        ("x^2 - 5x + 6 = 0", "x", "2, 3"),
        ("2(L - 1) = 10", "L", "6"),
    ],
)
def test_solve_equation(equation: str, variable: str, solutions: str) -> None:
    outcome = run_tool("solve_equation", {"equation": equation, "variable": variable}, ToolContext())
    assert outcome.error is None and outcome.calculation is not None
    assert outcome.calculation.results["solutions"] == solutions


@pytest.mark.parametrize(("equation", "unknowns"), [("x^2 = 4", "x"), ("a b = 2c", "a, b, c"), ("2 = 2", "")])
def test_a_variable_not_in_the_equation_is_said_so(equation: str, unknowns: str) -> None:
    outcome = run_tool("solve_equation", {"equation": equation, "variable": "y"}, ToolContext())
    assert outcome.error and "y does not appear in the equation" in outcome.output, outcome.output
    assert outcome.output.count(".") <= 1 and (not unknowns or f"solve for {unknowns}" in outcome.output)


async def test_a_model_solving_as_engineers_type_gets_the_roots(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("solve_equation", {"equation": "x^2 - 5x + 6 = 0"})), Reply.text("2 and 3."))
    agent = make_agent(fake_ollama)
    events = [event async for event in agent.stream(agent.request("Roots of x^2 - 5x + 6?"))]
    (call,) = calls(events)
    assert call.error is None and call.calculation is not None and call.calculation.results["solutions"] == "2, 3"


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_hostile_text_is_refused_before_evaluation(payload: str) -> None:
    with pytest.raises(ValueError):
        parse_checked(payload)


def test_hostile_text_through_the_tools_creates_nothing(isolated: Path) -> None:
    before_root = set(PROJECT_ROOT.iterdir())
    for payload in PAYLOADS:
        output, error = evaluate(payload)
        assert error and output.startswith("Error:"), payload
        outcome = run_tool("solve_equation", {"equation": f"{payload} = 0", "variable": "x"}, ToolContext())
        assert outcome.error, payload
    outcome = run_tool("solve_equation", {"equation": "x = 1", "variable": "__class__"}, ToolContext())
    assert outcome.error and "variable" in outcome.output
    for folder in (isolated, PROJECT_ROOT, Path("/tmp")):
        assert not (folder / MARKER).exists()
    assert set(PROJECT_ROOT.iterdir()) == before_root


@pytest.mark.parametrize("expression", ["expand((x+y)**5000)", "9**9**9", "factorial(10**6)", "N(pi, 10**7)"])
def test_expensive_expressions_stop_within_the_time_limit(expression: str, monkeypatch: pytest.MonkeyPatch) -> None:
    evaluate("1 + 1")  # the worker is started (its start-up is not part of the limit)
    # A quarter of the limit: each of these takes seconds here, so even a CPU several times faster hits it.
    monkeypatch.setattr(worker, "time_limit", worker.time_limit / 4)
    started = time.monotonic()
    output, error = evaluate(expression)
    assert time.monotonic() - started < worker.time_limit + 10  # stopped, not left to run (a hang's bound)
    assert error and "too expensive" in output
    assert evaluate("sqrt(16)")[0].startswith('{"results":{"result":"4"'), "the next call works"


def test_division_by_zero_is_explained() -> None:
    output, error = evaluate("1/0")
    assert error and "divides by zero" in output


def test_the_worker_checks_again_what_it_is_sent(isolated: Path) -> None:
    """Even text that skipped the parent's check is refused by the worker itself."""
    for payload in PAYLOADS[:3]:
        with pytest.raises(ValueError):
            worker.request({"op": "evaluate", "expression": payload})
        with pytest.raises(ValueError):
            worker.request({"op": "solve", "equation": payload, "variable": "x"})
    for folder in (isolated, PROJECT_ROOT, Path("/tmp")):
        assert not (folder / MARKER).exists()
    assert worker.request({"op": "evaluate", "expression": "sqrt(9)"})["result"] == "3"
