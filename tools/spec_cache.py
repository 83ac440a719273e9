"""The tools' specs kept between runs, as Python keeps their compiled modules, so that a process describes the
tools to the model without importing every tool (about a hundred modules: a third of `python main.py --once`).

What `build_spec` derives from each function of the catalogue (its name, description, schema, kind, words and
flags, and the module that defines it) is written as JSON beside the compiled modules of `tools` and under the same
rules: not at all where Python writes no bytecode (PYTHONDONTWRITEBYTECODE, `-B`), under PYTHONPYCACHEPREFIX when
it is set, and never where the folder cannot be written (the specs are then derived in every process, as before).
It is read back only while every source file of `tools` and `domain` has the size and modification time it had
when it was written (as a compiled module is), in the same Python and pydantic; anything else derives it anew.
A spec read back loads its function and validator from its module when the tool first runs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from importlib.util import cache_from_source
from pathlib import Path
from typing import Any

from tools.catalogue import declaration
from tools.registry import ToolDefinitionError, ToolSpec, build_spec

logger = logging.getLogger(__name__)

TOOLS = Path(__file__).resolve().parent
SOURCES = (TOOLS, TOOLS.parent / "domain")  # what the specs are derived from: the tools and the types they take
FORMAT = 1
_FIELDS = ("name", "description", "input_schema", "context_parameter", "pure", "kind", "words", "always_offered",
           "module")  # fmt: skip


def specs_of(catalogue: Iterable[Callable[..., Any]]) -> dict[str, ToolSpec]:
    """Each tool's spec by name; a tool its module does not declare, or one listed twice, is refused."""
    specs: dict[str, ToolSpec] = {}
    for function in catalogue:
        if declaration(function) is None:
            raise ToolDefinitionError(f"{function.__name__} is listed as a tool but its module does not declare it")
        if function.__name__ in specs:
            raise ToolDefinitionError(f"{function.__name__} is listed twice")
        specs[function.__name__] = build_spec(function)
    return specs


def cache_file() -> Path:
    """Where the specs are kept: beside the compiled `tools/__init__.py`, wherever Python keeps that."""
    return Path(cache_from_source(str(TOOLS / "__init__.py"))).with_name("tool-specs.json")


def sources_key() -> str:
    """What the specs were derived from, as the compiled modules' checks see it: each source file's size and
    modification time, and the versions of Python and pydantic."""
    import pydantic.version

    digest = hashlib.sha256(f"{FORMAT} {sys.version} {pydantic.version.VERSION}".encode())
    for path, info in sorted(_files(SOURCES)):
        digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _files(folders: Iterable[Path]) -> Iterator[tuple[str, os.stat_result]]:
    for folder in folders:
        for root, names, files in os.walk(folder):
            names[:] = [name for name in names if name != "__pycache__"]
            for name in files:
                path = os.path.join(root, name)
                yield path, os.stat(path)


def specs() -> dict[str, ToolSpec]:
    """Every tool's spec: read back from the cache when its sources are unchanged, else derived and kept."""
    key = sources_key()
    kept = _read(cache_file(), key)
    if kept is not None:
        return kept
    from tools.listing import CATALOGUE

    derived = specs_of(CATALOGUE)
    if not sys.dont_write_bytecode:
        _write(cache_file(), key, derived)
    return derived


def _read(path: Path, key: str) -> dict[str, ToolSpec] | None:
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        if kept["key"] != key:
            return None
        return {entry["name"]: _spec(entry) for entry in kept["specs"]}
    except (OSError, ValueError, KeyError, TypeError):  # none yet, or one that cannot be read: derive them
        return None


def _spec(entry: dict[str, Any]) -> ToolSpec:
    values = {name: entry[name] for name in _FIELDS}
    return ToolSpec(**{**values, "words": tuple(values["words"])})


def _write(path: Path, key: str, derived: dict[str, ToolSpec]) -> None:
    entries = [{name: getattr(spec, name) for name in _FIELDS} for spec in derived.values()]
    text = json.dumps({"key": key, "specs": entries}, ensure_ascii=False)
    part = path.with_name(f"{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666), "w", encoding="utf-8") as written:
            written.write(text)  # readable as the compiled modules beside it are (the umask decides)
        os.replace(part, path)  # whole or not at all, whoever reads it meanwhile
    except OSError as error:  # a folder that cannot be written: the next process derives them again
        logger.debug("the tools' specs were not kept in %s: %s", path, error)
