"""The tool registry: schemas and validators derived from typed, documented functions."""

from __future__ import annotations

from typing import Literal

import pytest

import tools
from tools import ToolContext, run_tool, tool_registry
from tools.catalogue import tool
from tools.registry import MAX_OUTPUT_CHARS, ToolDefinitionError, build_spec, cap_output, invoke


def beam(
    span: float,
    support: Literal["simply_supported", "cantilever"] = "simply_supported",
    label: str | None = None,
    count: int = 1,
) -> dict[str, float]:
    """A beam used to test schema derivation.

    Args:
        span: The span in metres.
        support: How the beam is held.
        label: An optional name,
            written on two lines.
        count: How many beams.
    """
    return {"span": span, "count": count}


def test_seed_contract_holds() -> None:
    assert {"add", "subtract", "multiply", "divide", "sqrt", "power", "read_file", "list_files", "edit_file"} <= set(
        tool_registry
    )
    for entry in tool_registry.values():
        assert set(entry) == {"function", "input_schema", "description"}
        assert callable(entry["function"]) and entry["description"]
        assert entry["input_schema"]["type"] == "object"


def test_schema_keeps_types_defaults_enums_and_descriptions() -> None:
    schema = build_spec(beam).input_schema
    assert schema["required"] == ["span"]
    props = schema["properties"]
    assert props["span"] == {"type": "number", "description": "The span in metres."}
    assert props["support"]["enum"] == ["simply_supported", "cantilever"]
    assert props["support"]["default"] == "simply_supported"
    assert 'Default: "simply_supported"' in props["support"]["description"]
    assert props["label"]["type"] == "string" and "two lines" in props["label"]["description"]
    assert props["count"]["type"] == "integer" and props["count"]["default"] == 1


def test_context_parameter_is_not_in_the_schema() -> None:
    assert "context" not in tool_registry["read_file"]["input_schema"]["properties"]


def test_undocumented_argument_is_refused_at_registration() -> None:
    def area(length: float, width: float) -> float:
        """Area of a rectangle.

        Args:
            length: The length.
        """
        return length * width

    with pytest.raises(ToolDefinitionError, match="'width' of area is not documented"):
        build_spec(area)


def test_missing_docstring_and_hints_are_refused() -> None:
    def bare(x: float) -> float:
        return x

    def untyped(x):
        """Untyped.

        Args:
            x: A value.
        """
        return x

    with pytest.raises(ToolDefinitionError, match="no docstring"):
        build_spec(bare)
    with pytest.raises(ToolDefinitionError, match="no type hint"):
        build_spec(untyped)


def test_arguments_are_coerced_and_validated() -> None:
    spec = build_spec(beam)
    context = ToolContext()
    assert invoke(spec, {"span": "12.5", "count": "3"}, context).output == '{"span": 12.5, "count": 3}'
    assert invoke(spec, '{"span": 4}', context).output == '{"span": 4.0, "count": 1}'
    refused = invoke(spec, {"span": 4, "support": "propped"}, context)
    assert refused.error and "support:" in refused.output and "simply_supported|cantilever" in refused.output
    assert "must be a JSON object" in (invoke(spec, "[1, 2]", context).error or "")
    assert invoke(spec, {"span": "inf"}, context).error


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("add", {"a": 2, "b": "3.5"}, "5.5"),
        ("subtract", {"a": 10, "b": 4}, "6.0"),
        ("multiply", {"a": 2.5, "b": 4}, "10.0"),
        ("divide", {"a": 9, "b": 2}, "4.5"),
        ("sqrt", {"x": 2025}, "45.0"),
        ("power", {"base": 2, "exponent": 10}, "1024.0"),
    ],
)
def test_maths_tools(name: str, arguments: dict[str, object], expected: str) -> None:
    outcome = run_tool(name, arguments, ToolContext())
    assert (outcome.output, outcome.error) == (expected, None)


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("divide", {"a": 1, "b": 0}, "cannot divide by zero"),
        ("sqrt", {"x": -4}, "negative number"),
        ("power", {"base": 10, "exponent": 1000}, "too large"),
        ("power", {"base": -8, "exponent": 0.5}, "whole-number exponent"),
        ("power", {"base": 0, "exponent": -1}, "negative power"),
    ],
)
def test_maths_tools_refuse_with_a_reason(name: str, arguments: dict[str, object], message: str) -> None:
    outcome = run_tool(name, arguments, ToolContext())
    assert outcome.error and message in outcome.output and outcome.output.startswith("Error:")


def test_unknown_and_disabled_tools_list_what_exists() -> None:
    unknown = run_tool("nope", {}, ToolContext())
    assert unknown.error and "no tool named 'nope'" in unknown.output and "sqrt" in unknown.output
    disabled = run_tool("read_file", {"path": "x"}, ToolContext(), enabled=["sqrt"])
    assert disabled.error and "Available tools: sqrt." in disabled.output


def test_long_output_is_cut_with_a_note() -> None:
    text = cap_output("x" * 20_000)
    assert len(text) < MAX_OUTPUT_CHARS + 100
    assert text.endswith("[output cut: showing the first 8,000 of 20,000 characters]")


def test_a_crashing_tool_becomes_text_for_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(x: float) -> float:
        """Always fails.

        Args:
            x: Ignored.
        """
        raise RuntimeError("bug")

    monkeypatch.setitem(tools.tool_specs, "broken", build_spec(broken))
    outcome = run_tool("broken", {"x": 1}, ToolContext())
    assert outcome.crashed and "crashed (RuntimeError: bug)" in outcome.output


def test_run_tool_cuts_long_output(monkeypatch: pytest.MonkeyPatch) -> None:
    def long_report(lines: int) -> str:
        """A long report.

        Args:
            lines: How many lines.
        """
        return "row of results\n" * lines

    monkeypatch.setitem(tools.tool_specs, "long_report", build_spec(long_report))
    outcome = run_tool("long_report", {"lines": 5_000}, ToolContext())
    assert outcome.error is None and len(outcome.output) < MAX_OUTPUT_CHARS + 100
    assert outcome.output.endswith("[output cut: showing the first 8,000 of 75,000 characters]")


def test_each_tool_is_declared_in_its_module_and_listed_once_and_the_catalogue_says_its_kind() -> None:
    assert [function.__name__ for function in tools.CATALOGUE] == list(tools.tool_specs)
    kinds = {name: spec.kind for name, spec in tools.tool_specs.items()}
    assert {name for name, kind in kinds.items() if kind == "file"} == {"read_file", "list_files", "edit_file"}
    assert {name for name, kind in kinds.items() if kind == "memory"} == {
        "memory_add",
        "memory_search",
        "memory_remove",
    }
    assert [name for name in tools.tool_specs if tools.edits_files(name)] == ["edit_file"]
    assert [name for name, kind in kinds.items() if kind == "documents"] == ["search_documents"]
    assert tools.is_calculation("steel_column_check") and tools.is_calculation("bolt_check")
    assert tools.is_calculation("office__lookup"), "a tool that is not ours is listed as it came"
    assert not tools.is_calculation("search_documents") and not tools.is_calculation("memory_add")
    assert not tools.tool_specs["memory_remove"].pure and tools.tool_specs["memory_search"].pure
    assert [name for name, spec in tools.tool_specs.items() if spec.always_offered] == ["evaluate_quantity"]
    assert "weld" in tools.tool_specs["fillet_weld_check"].words and "a325" in tools.tool_specs["bolt_check"].words


def test_a_function_its_module_does_not_declare_cannot_be_listed_nor_one_listed_twice() -> None:
    def girder(span: float) -> float:
        """A girder's span.

        Args:
            span: The span in metres.
        """
        return span

    with pytest.raises(ToolDefinitionError, match="^girder is listed as a tool but its module does not declare it$"):
        tools.specs_of([girder])
    declared = tool("calculation", words=("plate",))(girder)
    assert tools.specs_of([declared])["girder"].words == ("plate",)
    with pytest.raises(ToolDefinitionError, match="^girder is listed twice$"):
        tools.specs_of([declared, declared])
