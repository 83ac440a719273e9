"""Imported first by the CLI and the server, before anything imports httpx: keep httpx's command line unloaded.

httpx's `__init__` imports `httpx._main`, its command-line tool, whenever click, Rich and
Pygments are installed (here they are: Streamlit brings click, the CLI's Markdown brings
Rich). That is about 40 ms of every start-up for a module this program never runs; httpx
itself is moving the import out of `__init__` (encode/httpx pull request 3547). A None in
`sys.modules` makes that one import fail, and httpx then defines its stub `main`, as it does
when the tool's requirements are missing.
"""

import sys

if "httpx" not in sys.modules and "httpx._main" not in sys.modules:
    sys.modules["httpx._main"] = None  # type: ignore[assignment]  # None: "this module cannot be imported"
