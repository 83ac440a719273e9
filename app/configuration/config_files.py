"""The JSON files some settings name (HOOKS_CONFIG, MCP_CONFIG): read, validated, and wrong in one sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

Model = TypeVar("Model", bound=BaseModel)


def read_config(path: Path, model: type[Model], setting: str) -> Model:
    """`path` as `model`; ValueError names the setting, the file, the line or field, and what is wrong."""
    try:
        return model.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{setting} {path} cannot be read ({error})") from None
    except RecursionError:
        raise ValueError(f"{setting} {path}: the JSON is nested too deeply to be read") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{setting} {path}, line {error.lineno}: not valid JSON ({error.msg})") from None
    except ValidationError as error:
        first = error.errors()[0]
        raise ValueError(f"{setting} {path}: {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
