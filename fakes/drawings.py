"""A project's drawings, made on the spot: a DXF sheet (title block, notes, a dimension's override) and an IFC
model of a small steel frame (storeys, beams and columns with their sections, materials and property sets)."""

from __future__ import annotations

from pathlib import Path

DXF_NOTE = "ALL BOLTED CONNECTIONS SHALL USE 3/4 INCH A325-N BOLTS UNLESS NOTED OTHERWISE."
DXF_TITLE = {"DWG-NO": "S-101", "TITLE": "SECOND FLOOR FRAMING PLAN", "PROJECT": "RIVERSIDE PARKING GARAGE"}
DXF_DIMENSION = "<> CLEAR TO FACE OF GRADE BEAM"

# (GUID-free) elements of the model: (entity, name, section, storey, material)
IFC_ELEMENTS = [
    ("IFCBEAM", "B-12", "W18X50", "Level 2", "S355"),
    ("IFCBEAM", "B-13", "W16X26", "Level 2", "S355"),
    ("IFCBEAM", "B-21", "W21X44", "Level 3", "S355"),
    ("IFCCOLUMN", "C-1", "W14X90", "Level 1", "S355"),
    ("IFCSLAB", "SL-2", "200 mm slab", "Level 2", "C30/37"),
]


def write_dxf(path: Path, extra_entities: int = 0) -> None:
    """A DXF sheet: the general note in model space (layer S-NOTES), a dimension with an override, and layout
    S-101 holding the title block, a block whose attributes name the drawing. `extra_entities` lines pad it."""
    from ezdxf.filemanagement import new

    document = new("R2018", setup=True)
    document.layers.add("S-NOTES")
    document.layers.add("S-DIMS")
    model = document.modelspace()
    model.add_mtext(f"GENERAL NOTE:\\P{DXF_NOTE}", dxfattribs={"layer": "S-NOTES", "char_height": 2.5}).set_location(
        (0, 100)
    )
    model.add_text("GRID LINE A", dxfattribs={"layer": "S-GRID", "height": 2.5}).set_placement((0, 80))
    dimension = model.add_linear_dim(base=(0, 20), p1=(0, 0), p2=(3000, 0), dxfattribs={"layer": "S-DIMS"})
    dimension.dimension.dxf.text = DXF_DIMENSION
    dimension.render()
    for number in range(extra_entities):
        model.add_line((number, 0), (number, 10), dxfattribs={"layer": "S-STEEL"})
    block = document.blocks.new("TITLE-BLOCK")
    block.add_text("SHEET", dxfattribs={"height": 2}).set_placement((0, 0))
    for number, tag in enumerate(DXF_TITLE):
        block.add_attdef(tag, (10, number * 5), dxfattribs={"height": 2})
    layout = document.layouts.new("S-101")
    insert = layout.add_blockref("TITLE-BLOCK", (200, 10))
    insert.add_auto_attribs(DXF_TITLE)
    document.saveas(path)


def _guid(number: int) -> str:
    return f"{number:022d}"


def ifc_text(elements: list[tuple[str, str, str, str, str]] | None = None) -> str:
    """An IFC4 model in STEP text (ISO 10303-21), written by hand: project, site, building, storeys, and each
    element placed in its storey, with its section (in ObjectType and a profile set), material and a property set."""
    rows = elements if elements is not None else IFC_ELEMENTS
    lines: list[str] = []
    number = 0

    def add(text: str) -> int:
        nonlocal number
        number += 1
        lines.append(f"#{number}={text.replace('GUID', _guid(number))};")
        return number

    project = add("IFCPROJECT('GUID',$,'Riverside parking garage',$,$,$,$,$,$)")
    site = add("IFCSITE('GUID',$,'Site',$,$,$,$,$,.ELEMENT.,$,$,$,$,$)")
    building = add("IFCBUILDING('GUID',$,'Garage',$,$,$,$,$,.ELEMENT.,$,$,$)")
    add(f"IFCRELAGGREGATES('GUID',$,$,$,#{project},(#{site}))")
    add(f"IFCRELAGGREGATES('GUID',$,$,$,#{site},(#{building}))")
    storeys: dict[str, int] = {}
    for level in sorted({row[3] for row in rows}):
        storeys[level] = add(f"IFCBUILDINGSTOREY('GUID',$,'{level}',$,$,$,$,$,.ELEMENT.,0.)")
    add(f"IFCRELAGGREGATES('GUID',$,$,$,#{building},({','.join(f'#{s}' for s in storeys.values())}))")
    for entity, name, section, level, material in rows:
        element = add(f"{entity}('GUID',$,'{name}',$,'{section}',$,$,'{name}',$)")
        add(f"IFCRELCONTAINEDINSPATIALSTRUCTURE('GUID',$,$,$,(#{element}),#{storeys[level]})")
        steel = add(f"IFCMATERIAL('{material}',$,'Steel')")
        profile = add(f"IFCISHAPEPROFILEDEF(.AREA.,'{section}',$,0.2,0.45,0.009,0.014,0.01,$,$)")
        item = add(f"IFCMATERIALPROFILE($,$,#{steel},#{profile},$,$)")
        profiles = add(f"IFCMATERIALPROFILESET($,$,(#{item}),$)")
        usage = add(f"IFCMATERIALPROFILESETUSAGE(#{profiles},5,$)")
        add(f"IFCRELASSOCIATESMATERIAL('GUID',$,$,$,(#{element}),#{usage})")
        kind = entity.removeprefix("IFC").title()
        reference = add(f"IFCPROPERTYSINGLEVALUE('Reference',$,IFCIDENTIFIER('{section}'),$)")
        bearing = add("IFCPROPERTYSINGLEVALUE('LoadBearing',$,IFCBOOLEAN(.T.),$)")
        common = add(f"IFCPROPERTYSET('GUID',$,'Pset_{kind}Common',$,(#{reference},#{bearing}))")
        add(f"IFCRELDEFINESBYPROPERTIES('GUID',$,$,$,(#{element}),#{common})")
    header = (
        "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('ViewDefinition [DesignTransferView]'),'2;1');\n"
        "FILE_NAME('frame.ifc','2024-05-01T09:00:00',('Engineer'),('Office'),'','','');\n"
        "FILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n"
    )
    return header + "\n".join(lines) + "\nENDSEC;\nEND-ISO-10303-21;\n"


def write_ifc(path: Path, elements: list[tuple[str, str, str, str, str]] | None = None) -> None:
    path.write_text(ifc_text(elements), encoding="ascii")


def write_damaged_dxf(path: Path, damage: str) -> None:
    """The DXF sheet of `write_dxf`, damaged: "cut after entities" (a copy that stopped after the model space's
    entities: the notes are there, the end is not), "cut in half" (it stops in its header, before any text) or
    "garbled" (a group code replaced by letters, which ezdxf's recover mode cannot mend either)."""
    write_dxf(path)
    data = path.read_bytes()
    if damage == "cut after entities":
        data = data[: data.index(b"OBJECTS")]
    elif damage == "cut in half":
        data = data[: len(data) // 2]
    elif damage == "garbled":
        data = data.replace(b"\n  8\nS-NOTES", b"\nXX\nS-NOTES", 1)
    else:
        raise ValueError(f"no such damage: {damage}")
    path.write_bytes(data)


def damaged_ifc_text() -> str:
    """The model of `ifc_text` with beam B-13's record damaged (an argument of stray characters)."""
    text = ifc_text()
    return text.replace("$,'B-13',$,", "$,'B-13',@@ ,", 1)


def write_huge_ifc(path: Path, size: int) -> None:
    """An IFC file of `size` bytes: the model of `ifc_text`, then zero bytes to `size` (a sparse file: cheap to make,
    as large as any other to whoever reads it)."""
    write_ifc(path)
    with path.open("r+b") as file:
        file.truncate(size)
