"""The tools' specs kept between runs (`tools.spec_cache`): read back exactly as derived, derived anew when a source
changes, and kept only where Python keeps compiled modules."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import tools
from tools import ToolContext, spec_cache
from tools.listing import CATALOGUE
from tools.registry import invoke

FIELDS = ("name", "description", "input_schema", "context_parameter", "pure", "kind", "words", "always_offered",
          "module")  # fmt: skip


@pytest.fixture
def kept_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache in the test's folder, written as a user's Python writes it (PYTHONDONTWRITEBYTECODE aside)."""
    path = tmp_path / "__pycache__" / "tool-specs.json"
    monkeypatch.setattr(spec_cache, "cache_file", lambda: path)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return path


def test_the_specs_read_back_are_those_derived_and_run_the_same(kept_in: Path) -> None:
    derived = spec_cache.specs()
    assert kept_in.is_file()
    read = spec_cache.specs()
    assert list(read) == [function.__name__ for function in CATALOGUE] == list(derived)
    for name, spec in read.items():
        assert not spec.loaded, f"{name}: read back, its function is loaded only when it runs"
        assert [getattr(spec, field) for field in FIELDS] == [getattr(derived[name], field) for field in FIELDS], name
    assert read["sqrt"].function is derived["sqrt"].function
    assert read["steel_beam_check"].arguments_model.model_json_schema() == (
        derived["steel_beam_check"].arguments_model.model_json_schema()
    )
    assert invoke(read["sqrt"], {"x": "144"}, ToolContext()).output == invoke(derived["sqrt"], {"x": 144},
                                                                            ToolContext()).output  # fmt: skip
    assert "Invalid arguments for sqrt" in invoke(read["sqrt"], {"y": 1}, ToolContext()).output


def test_the_process_s_own_specs_are_every_tool_s(kept_in: Path) -> None:
    assert list(tools.tool_specs) == [function.__name__ for function in CATALOGUE]


def test_a_source_changed_since_makes_the_specs_derived_anew(
    tmp_path: Path, kept_in: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "beams.py").write_text("# a tool\n")
    monkeypatch.setattr(spec_cache, "SOURCES", (sources,))
    spec_cache.specs()
    key = spec_cache.sources_key()
    assert spec_cache._read(kept_in, key) is not None  # noqa: SLF001 - what the next process finds
    info = (sources / "beams.py").stat()
    os.utime(sources / "beams.py", ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    assert spec_cache.sources_key() != key
    assert spec_cache._read(kept_in, spec_cache.sources_key()) is None  # noqa: SLF001
    spec_cache.specs()
    assert spec_cache._read(kept_in, spec_cache.sources_key()) is not None, "derived and kept again"  # noqa: SLF001


def test_nothing_is_kept_where_python_writes_no_bytecode(kept_in: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert list(spec_cache.specs()) == list(tools.tool_specs)
    assert not kept_in.exists()


def test_a_cache_that_cannot_be_read_is_derived_again(kept_in: Path) -> None:
    kept_in.parent.mkdir(parents=True)
    kept_in.write_text('{"key": "', encoding="utf-8")
    assert list(spec_cache.specs()) == list(tools.tool_specs)
    assert spec_cache._read(kept_in, spec_cache.sources_key()) is not None  # noqa: SLF001
