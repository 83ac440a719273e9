"""Checking maths text before anything evaluates it: Python's `ast`, an allowlist, and limits.

`sympify`, `parse_expr` and `eval` run arbitrary Python, so they are never used.
The text is parsed into a syntax tree, and only numbers, names of symbols,
+ − × ÷ ** and calls of allowlisted functions pass; the tree is then turned into
sympy objects node by node (in the worker process, `tools.sympy_worker`).

Products are written as engineers write them: before parsing, a `*` goes between a
number or a closing bracket and what follows it (`5x`, `2(x+1)`, `(a+b)(a-b)`,
`2 pi`, `3sin(x)`), and between two names (`pi r`), never after a function's name
(`sin x` stays an error) and never between two numbers. A one-letter name or a
constant before a bracket multiplies (`x(x+1)`); any other name there is a call.
"""

from __future__ import annotations

import ast
import keyword
import re

MAX_EXPRESSION_CHARS = 500
MAX_NODES = 400
MAX_DEPTH = 40
MAX_INTEGER_DIGITS = 30

# The allowlist: each name the text may use and the sympy name it stands for (looked up in the worker).
_SAME_NAME = (
    "sqrt cbrt root exp log sin cos tan sec csc cot asin acos atan atan2 sinh cosh tanh asinh acosh atanh Abs "
    "floor ceiling factorial binomial gcd lcm Min Max diff integrate limit solve simplify expand factor Rational "
    "N summation"
)
FUNCTIONS: dict[str, str] = {name: name for name in _SAME_NAME.split()} | {"ln": "log", "abs": "Abs"}
CONSTANTS: dict[str, str] = {"pi": "pi", "E": "E", "I": "I", "oo": "oo", "inf": "oo"}
_SYMBOL = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,15}$")
_BINARY = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.Mod)
_UNARY = (ast.UAdd, ast.USub)


# The pieces implicit products are found between, as Python reads them (a string is skipped whole).
_TOKEN = re.compile(
    r"""(?P<string>'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*")
    |(?P<number>0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+
        |(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?)
    |(?P<name>[^\W\d]\w*)
    |(?P<space>\s+)
    |(?P<other>.)""",
    re.VERBOSE | re.DOTALL,
)


def normalise(text: str) -> str:
    """Engineers' spellings: `^` for powers, `×` and `·` for products, `−` for minus, `5x` for 5*x."""
    return implicit_products(text.strip().replace("^", "**").replace("×", "*").replace("·", "*").replace("−", "-"))


def implicit_products(text: str) -> str:
    """`text` with a `*` wherever two pieces side by side mean a product (see the module's docstring)."""
    pieces: list[str] = []
    before: re.Match[str] | None = None
    for token in _TOKEN.finditer(text):
        if token.lastgroup == "space":
            pieces.append(token.group())
            continue
        if before is not None and _multiplies(before, token):
            pieces.append("*")
        pieces.append(token.group())
        before = token
    return "".join(pieces)


def _multiplies(before: re.Match[str], after: re.Match[str]) -> bool:
    left, right = before.group(), after.group()
    if keyword.iskeyword(left) or keyword.iskeyword(right):
        return False
    if before.lastgroup == "number":
        return after.lastgroup == "name" or right == "("
    if left == ")":
        return after.lastgroup in ("name", "number") or right == "("
    if before.lastgroup != "name" or left in FUNCTIONS:
        return False
    return after.lastgroup == "name" or (right == "(" and (left in CONSTANTS or len(left) == 1))


def check_symbol_name(name: str, what: str = "name") -> str:
    if not _SYMBOL.match(name) or "__" in name:
        raise ValueError(f"{what} {name[:20]!r} is not allowed: use letters, digits and _ (starting with a letter)")
    return name


def parse_checked(text: str) -> ast.Expression:
    """The syntax tree of `text` if every part of it is allowed; otherwise a ValueError saying why."""
    if not text or not text.strip():
        raise ValueError("the expression is empty")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ValueError(f"the expression is too long ({len(text)} characters; at most {MAX_EXPRESSION_CHARS})")
    try:
        tree = ast.parse(normalise(text), mode="eval")
    except SyntaxError as error:
        raise ValueError(f"the expression is not valid maths ({error.msg})") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise ValueError(f"the expression is too large ({len(nodes)} parts; at most {MAX_NODES})")
    _check(tree.body, depth=0)
    return tree


def _check(node: ast.AST, depth: int, in_call: bool = False) -> None:
    if depth > MAX_DEPTH:
        raise ValueError("the expression is nested too deeply")
    if isinstance(node, ast.Constant):
        _check_constant(node.value, in_call)
    elif isinstance(node, ast.Name):
        if node.id not in FUNCTIONS and node.id not in CONSTANTS:
            check_symbol_name(node.id)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, _BINARY):
        _check(node.left, depth + 1)
        _check(node.right, depth + 1)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, _UNARY):
        _check(node.operand, depth + 1)
    elif isinstance(node, ast.Call):
        _check_call(node, depth)
    elif isinstance(node, ast.Tuple) and in_call:
        for element in node.elts:
            _check(element, depth + 1)
    else:
        raise ValueError(f"{_describe(node)} is not allowed in an expression")


def _check_constant(value: object, in_call: bool) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{type(value).__name__} values are not allowed in an expression")
    if isinstance(value, str) and not (in_call and value in ("+", "-")):
        raise ValueError("text is not allowed in an expression")
    if isinstance(value, int) and len(str(abs(value))) > MAX_INTEGER_DIGITS:
        raise ValueError(f"numbers may have at most {MAX_INTEGER_DIGITS} digits")


def _check_call(node: ast.Call, depth: int) -> None:
    if not isinstance(node.func, ast.Name):
        raise ValueError(f"{_describe(node.func)} is not allowed in an expression")
    if node.func.id not in FUNCTIONS:
        raise ValueError(f"the function {node.func.id} is not available; allowed: {', '.join(sorted(FUNCTIONS))}")
    if node.keywords:
        raise ValueError("keyword arguments are not allowed; give arguments in order")
    for argument in node.args:
        _check(argument, depth + 1, in_call=True)


def _describe(node: ast.AST) -> str:
    names = {
        ast.Attribute: "attribute access (a.b)",
        ast.Lambda: "a lambda",
        ast.Subscript: "indexing (a[b])",
        ast.Compare: "a comparison",
        ast.BoolOp: "and/or",
        ast.ListComp: "a comprehension",
        ast.GeneratorExp: "a generator",
        ast.Starred: "*arguments",
        ast.JoinedStr: "an f-string",
    }
    return names.get(type(node), type(node).__name__)


def split_equation(equation: str) -> tuple[str, str]:
    """ "x**2 - 4 = 0" → ("x**2 - 4", "0"); an expression alone means "= 0"."""
    text = normalise(equation)
    parts = re.split(r"(?<![<>!=])==?(?!=)", text)
    if len(parts) == 1:
        return text, "0"
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        raise ValueError("an equation has one '=' with an expression on each side, such as 'x**2 - 4 = 0'")
    return parts[0].strip(), parts[1].strip()
