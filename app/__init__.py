"""The application the faces call: one entry (`Application`) with a part per concern, and how to open it.

Faces import from here (and the records and events of `domain`) and nothing
lower: they never touch the store, the model server or the tools directly.
"""

from __future__ import annotations

from app.approvals import edit_diff
from app.assembly import open_application, start
from app.mcp_servers import McpPool
from app.packages import PackageError, PackagePdf, PackageStatus, SignoffError
from app.service import Application
from app.settings import Settings, SettingsError, configure_logging, load_settings
from app.summaries import SwitchOutcome
from app.turns import Consent
from engine.ollama_server import ServerStatus
from engine.server_pool import ServerPools
from store import HistoryError
from tools import tool_kind
from tools.documents.readers import DOCUMENT_SUFFIXES, DOCUMENT_TYPES_NAMED

__all__ = [
    "Application",
    "Consent",
    "DOCUMENT_SUFFIXES",
    "DOCUMENT_TYPES_NAMED",
    "HistoryError",
    "McpPool",
    "PackageError",
    "PackagePdf",
    "PackageStatus",
    "ServerPools",
    "ServerStatus",
    "Settings",
    "SettingsError",
    "SignoffError",
    "SwitchOutcome",
    "configure_logging",
    "edit_diff",
    "load_settings",
    "open_application",
    "start",
    "tool_kind",
]
