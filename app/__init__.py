"""The application the faces call: one entry (`Application`) with a part per concern, and how to open it.

Faces import from here (and the records and events of `domain`) and nothing
lower: they never touch the store, the model server or the tools directly.
"""

from __future__ import annotations

from app.accounts.audit_trail import record_as_json
from app.accounts.policy import ForbiddenError, SignInError
from app.application import Application
from app.approvals import edit_diff
from app.assembly import open_application, start
from app.images import DEFAULT_QUESTION as DEFAULT_IMAGE_QUESTION
from app.images import IMAGE_SUFFIXES, MAX_IMAGES, ImageRefusedError, clean_image, read_images
from app.naming import AmbiguousWorkspaceError
from app.outside_tools.servers import McpPool
from app.packages import PackageError, PackagePdf, PackageStatus, SignoffError
from app.settings import Settings, SettingsError, configure_logging, load_settings, store_choice
from app.summaries import SwitchOutcome
from app.turns import Consent
from domain.accounts import User
from engine.ollama_server import ServerStatus
from engine.server_pool import ServerPools
from store import HistoryError
from tools import tool_kind
from tools.documents.readers import DOCUMENT_SUFFIXES, DOCUMENT_TYPES_NAMED

__all__ = [
    "Application",
    "AmbiguousWorkspaceError",
    "ForbiddenError",
    "SignInError",
    "User",
    "record_as_json",
    "Consent",
    "DEFAULT_IMAGE_QUESTION",
    "DOCUMENT_SUFFIXES",
    "DOCUMENT_TYPES_NAMED",
    "HistoryError",
    "IMAGE_SUFFIXES",
    "ImageRefusedError",
    "MAX_IMAGES",
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
    "clean_image",
    "configure_logging",
    "edit_diff",
    "load_settings",
    "open_application",
    "read_images",
    "start",
    "store_choice",
    "tool_kind",
]
