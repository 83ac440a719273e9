"""The application service the faces call: workspaces, turns, summaries, exports, approvals, settings.

Faces import from here (and the records and events of `domain`) and nothing
lower: they never touch the store, the model server or the tools directly.
"""

from __future__ import annotations

from app.approvals import edit_diff
from app.mcp_servers import McpPool
from app.packages import PackageError, PackagePdf, PackageStatus, SignoffError
from app.service import ServerStatus, SwitchOutcome, WorkspaceService
from app.settings import Settings, SettingsError, configure_logging, load_settings
from app.startup import open_service, start
from store import HistoryError
from tools import tool_kind
from tools.documents.readers import DOCUMENT_SUFFIXES, DOCUMENT_TYPES_NAMED

__all__ = [
    "DOCUMENT_SUFFIXES",
    "DOCUMENT_TYPES_NAMED",
    "HistoryError",
    "McpPool",
    "PackageError",
    "PackagePdf",
    "PackageStatus",
    "ServerStatus",
    "Settings",
    "SettingsError",
    "SignoffError",
    "SwitchOutcome",
    "WorkspaceService",
    "configure_logging",
    "edit_diff",
    "load_settings",
    "open_service",
    "start",
    "tool_kind",
]
