"""Every tool the model may call, once, in the order the model is shown them: `CATALOGUE`.

Importing this imports every tool's module: a process does so only to derive the tools' specs when they are not
kept from an earlier run (`tools.spec_cache`). A tool whose spec was kept imports its own module when it first runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tools import beams, continuous_beam, conversions, files, loads, maths, memory, past_work, symbolic, take_off
from tools.concrete import beams as concrete_beams
from tools.concrete import columns as concrete_columns
from tools.concrete import development, punching
from tools.connections import bolts, welds
from tools.documents import search
from tools.steel import beam_columns, columns, sections_and_checks

# Every tool, once. A new tool is a module that declares it (`@tool(...)`) and one line here.
CATALOGUE: tuple[Callable[..., Any], ...] = (
    maths.add,
    maths.subtract,
    maths.multiply,
    maths.divide,
    maths.sqrt,
    maths.power,
    conversions.convert_units,
    conversions.evaluate_quantity,
    conversions.slope,
    symbolic.evaluate_expression,
    symbolic.solve_equation,
    beams.beam_analysis,
    beams.column_buckling,
    beams.check_structural_integrity,
    sections_and_checks.section_properties,
    sections_and_checks.steel_beam_check,
    columns.steel_column_check,
    beam_columns.steel_beam_column_check,
    welds.fillet_weld_check,
    bolts.bolt_check,
    continuous_beam.continuous_beam,
    concrete_beams.concrete_beam_check,
    concrete_columns.concrete_column_check,
    punching.punching_shear_check,
    development.development_length,
    take_off.concrete_volume,
    take_off.rebar_weight,
    loads.load_combination,
    files.read_file,
    files.list_files,
    files.edit_file,
    search.search_documents,
    past_work.search_past_work,
    memory.memory_add,
    memory.memory_search,
    memory.memory_remove,
)
