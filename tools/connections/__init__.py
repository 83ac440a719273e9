"""Connections: fillet welds and bolt groups to AISC 360-22 Chapter J and EN 1993-1-8.

`inputs` reads sizes, angles, loads and hole types; `bolt_data` holds the bolt tables; the clauses are in
`tools.codes` (`aisc360.connections`, `en1993_1_8.joints`); `welds` and `bolts` are the two tools the model calls.
"""

from tools.connections.bolts import bolt_check
from tools.connections.welds import fillet_weld_check

__all__ = ["bolt_check", "fillet_weld_check"]
