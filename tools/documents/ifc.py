"""IFC models as passages: each structural element with its type, name, storey, section, material and property
sets ("IfcBeam B-12, Level 2, W18X50, S355"), and for each storey and kind a list ("Level 2: 14 beams …"), so
that "which beams are on level 2?" finds them.

Read with the small STEP reader beside it (`step.py`), not IfcOpenShell: IfcOpenShell 0.9 (LGPL-3.0) is a
55 MB wheel, 204 MB installed with its dependencies, more than the rest of the document readers together,
for the dozen entities read here (bench/README.md). Bounded by the record count (`step.MAX_RECORDS`), the
elements kept (MAX_ELEMENTS) and the reader worker's memory and time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tools.documents.step import Record, Ref, StepError, header_schema, records

MAX_ELEMENTS = 100_000
NAMES_IN_A_LIST = 300  # elements named in one storey's list of a kind; the rest are counted
SPELLED = [  # the structural entities read, as IFC spells them, and what an engineer calls them
    ("IfcBeam", "beam"),
    ("IfcBeamStandardCase", "beam"),
    ("IfcColumn", "column"),
    ("IfcColumnStandardCase", "column"),
    ("IfcMember", "member"),
    ("IfcMemberStandardCase", "member"),
    ("IfcSlab", "slab"),
    ("IfcSlabStandardCase", "slab"),
    ("IfcSlabElementedCase", "slab"),
    ("IfcWall", "wall"),
    ("IfcWallStandardCase", "wall"),
    ("IfcWallElementedCase", "wall"),
    ("IfcFooting", "footing"),
    ("IfcPile", "pile"),
    ("IfcPlate", "plate"),
    ("IfcPlateStandardCase", "plate"),
    ("IfcRoof", "roof"),
    ("IfcStair", "stair"),
    ("IfcRamp", "ramp"),
    ("IfcBearing", "bearing"),
    ("IfcTendon", "tendon"),
    ("IfcReinforcingBar", "reinforcing bar"),
    ("IfcReinforcingMesh", "reinforcing mesh"),
]
ELEMENTS = {spelled.upper(): kind for spelled, kind in SPELLED}
DISPLAY = {spelled.upper(): spelled for spelled, _ in SPELLED}
RELATIONS = {
    "IFCRELCONTAINEDINSPATIALSTRUCTURE",
    "IFCRELDEFINESBYPROPERTIES",
    "IFCRELASSOCIATESMATERIAL",
    "IFCRELDEFINESBYTYPE",
}
OTHERS = {
    "IFCBUILDINGSTOREY",
    "IFCBUILDING",
    "IFCSPACE",
    "IFCSITE",
    "IFCPROPERTYSET",
    "IFCPROPERTYSINGLEVALUE",
    "IFCELEMENTQUANTITY",
    "IFCMATERIAL",
    "IFCMATERIALLIST",
    "IFCMATERIALLAYERSETUSAGE",
    "IFCMATERIALLAYERSET",
    "IFCMATERIALLAYER",
    "IFCMATERIALPROFILESETUSAGE",
    "IFCMATERIALPROFILESET",
    "IFCMATERIALPROFILE",
    "IFCMATERIALCONSTITUENTSET",
    "IFCMATERIALCONSTITUENT",
}


def wanted(entity: str) -> bool:
    return (
        entity in ELEMENTS
        or entity in RELATIONS
        or entity in OTHERS
        or entity.endswith(("PROFILEDEF", "TYPE"))
        or entity.startswith("IFCQUANTITY")
    )


def display(entity: str) -> str:
    """IFCBEAM → IfcBeam."""
    return DISPLAY.get(entity, entity)


@dataclass
class Element:
    """One structural element, with what the relations say of it."""

    entity: str
    name: str
    object_type: str
    tag: str
    storey: str = ""
    type_name: str = ""
    materials: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)

    def section(self) -> str:
        return (self.sections or [self.object_type or self.type_name])[0]

    def heading(self) -> str:
        """IfcBeam B-12, Level 2, W18X50, S355."""
        parts = [f"{display(self.entity)} {self.name}".strip(), self.storey or "no storey", self.section()]
        return ", ".join(part for part in [*parts, ", ".join(dict.fromkeys(self.materials))] if part)

    def text(self) -> str:
        kind = ELEMENTS[self.entity]
        on = f"on {self.storey}" if self.storey else "in no storey"
        lines = [self.heading(), f"A {kind} {on}: {self.name or 'unnamed'}, section {self.section() or 'not given'}."]
        extra = [f"type {self.type_name}" if self.type_name else "", f"object type {self.object_type}"]
        extra += [f"tag {self.tag}" if self.tag and self.tag != self.name else ""]
        lines.append("; ".join(item for item in extra if item and not item.endswith(" ")))
        return "\n".join([line for line in lines if line] + self.properties)


class Model:
    """The records read, by id, and the elements built from them."""

    def __init__(self, found: Iterable[Record], damaged: list[str] | None = None) -> None:
        self.damaged = damaged if damaged is not None else []  # records passed over, each with why
        self.by_id: dict[int, Record] = {}
        self.elements: dict[int, Element] = {}
        for record in found:
            self.by_id[record.id] = record
            if record.entity in ELEMENTS and len(self.elements) < MAX_ELEMENTS:
                self.elements[record.id] = _element(record)
        self.left_out = sum(1 for r in self.by_id.values() if r.entity in ELEMENTS) - len(self.elements)
        for record in list(self.by_id.values()):
            if record.entity in RELATIONS:
                self._relate(record)

    def text(self, value: Any) -> str:
        return value.strip() if isinstance(value, str) else str(value) if isinstance(value, int | float) else ""

    def get(self, value: Any) -> Record | None:
        return self.by_id.get(value.id) if isinstance(value, Ref) else None

    def related(self, record: Record) -> list[Element]:
        targets = record.arguments[4] if len(record.arguments) > 4 and isinstance(record.arguments[4], list) else []
        return [self.elements[ref.id] for ref in targets if isinstance(ref, Ref) and ref.id in self.elements]

    def _relate(self, record: Record) -> None:
        elements = self.related(record)
        target = self.get(record.arguments[5]) if len(record.arguments) > 5 else None
        if not elements or target is None:
            return
        if record.entity == "IFCRELCONTAINEDINSPATIALSTRUCTURE":
            place = self._name(target)
            for element in elements:
                element.storey = element.storey or place
        elif record.entity == "IFCRELDEFINESBYTYPE":
            for element in elements:
                element.type_name = self._name(target)
        elif record.entity == "IFCRELASSOCIATESMATERIAL":
            materials, sections = self._materials(target, 0)
            for element in elements:
                element.materials += materials
                element.sections += sections
        else:
            lines = self._property_set(target)
            for element in elements:
                element.properties += lines

    def _name(self, record: Record) -> str:
        """A storey's, a building's or a type's name (a storey's long name when it has no name)."""
        arguments = record.arguments
        name = self.text(arguments[2]) if len(arguments) > 2 else ""
        if not name and record.entity == "IFCBUILDINGSTOREY" and len(arguments) > 7:
            name = self.text(arguments[7])
        return name

    def _materials(self, record: Record, depth: int) -> tuple[list[str], list[str]]:
        """(material names, section names) under a material association's target."""
        if depth > 4:
            return [], []
        arguments, entity = record.arguments, record.entity
        if entity == "IFCMATERIAL":
            return [self.text(arguments[0])], []
        if entity.endswith("PROFILEDEF"):
            return [], [self.text(arguments[1])] if len(arguments) > 1 and self.text(arguments[1]) else []
        children = {
            "IFCMATERIALLIST": (0,),
            "IFCMATERIALLAYERSETUSAGE": (0,),
            "IFCMATERIALLAYERSET": (0,),
            "IFCMATERIALLAYER": (0,),
            "IFCMATERIALPROFILESETUSAGE": (0,),
            "IFCMATERIALPROFILESET": (2,),
            "IFCMATERIALPROFILE": (2, 3),
            "IFCMATERIALCONSTITUENTSET": (2,),
            "IFCMATERIALCONSTITUENT": (2,),
        }.get(entity, ())
        materials: list[str] = []
        sections: list[str] = []
        for index in children:
            value = arguments[index] if index < len(arguments) else None
            for child in value if isinstance(value, list) else [value]:
                found = self.get(child)
                if found is not None:
                    more_materials, more_sections = self._materials(found, depth + 1)
                    materials += more_materials
                    sections += more_sections
        return [m for m in materials if m], [s for s in sections if s]

    def _property_set(self, record: Record) -> list[str]:
        """ "Pset_BeamCommon: Reference W18X50; LoadBearing true" (quantities likewise)."""
        arguments = record.arguments
        if record.entity not in ("IFCPROPERTYSET", "IFCELEMENTQUANTITY") or len(arguments) < 5:
            return []
        items = arguments[4] if record.entity == "IFCPROPERTYSET" else arguments[5] if len(arguments) > 5 else []
        shown = []
        for ref in items if isinstance(items, list) else []:
            item = self.get(ref)
            if item is None or not item.arguments:
                continue
            value_at = 2 if item.entity == "IFCPROPERTYSINGLEVALUE" else 3
            value = item.arguments[value_at] if len(item.arguments) > value_at else None
            shown.append(f"{self.text(item.arguments[0])} {_shown(value)}".strip())
        return [f"{self.text(arguments[2])}: {'; '.join(shown)}"] if shown else []


def _element(record: Record) -> Element:
    arguments = record.arguments + [None] * 8
    texts = [value.strip() if isinstance(value, str) else "" for value in arguments[:8]]
    return Element(record.entity, texts[2], texts[4], texts[7])


def _shown(value: Any) -> str:
    if value == "T":
        return "true"
    if value == "F":
        return "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value) if value is not None else ""


def read_model(text: str) -> tuple[Model, str]:
    """The model in `text` (a STEP file), and its schema ("IFC4"); StepError when it cannot be followed."""
    schema = header_schema(text)
    damaged: list[str] = []
    return Model(records(text, wanted, damaged), damaged), schema


def storey_lists(model: Model) -> list[tuple[str, str]]:
    """(location, text) for each storey and kind: "Level 2, beams", "Level 2: 2 beams: IfcBeam B-12 W18X50 …"."""
    groups: dict[tuple[str, str], list[Element]] = defaultdict(list)
    for element in model.elements.values():
        groups[(element.storey or "no storey", ELEMENTS[element.entity])].append(element)
    lists = []
    for (storey, kind), members in sorted(groups.items()):
        plural = f"{kind}s" if len(members) != 1 else kind
        named = "; ".join(f"{display(e.entity)} {e.name} {e.section()}".strip() for e in members[:NAMES_IN_A_LIST])
        more = f"; and {len(members) - NAMES_IN_A_LIST} more" if len(members) > NAMES_IN_A_LIST else ""
        lists.append((f"{storey}, {plural}", f"{storey}: {len(members)} {plural}: {named}{more}."))
    return lists


__all__ = ["Element", "Model", "StepError", "read_model", "storey_lists"]
