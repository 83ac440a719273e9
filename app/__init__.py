"""The application the faces call: one entry (`Application`) with a part per concern, and how to open it.

Faces import from here (and the records and events of `domain`) and nothing
lower: they never touch the store, the model server or the tools directly.
Each name is imported where it lives when a face first asks for it, so that a
command pays only for what it uses (`python main.py verify` never loads the
agent, the tools or the document index).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.accounts.audit_trail import record_as_json
    from app.accounts.policy import ForbiddenError, SignInError
    from app.application import Application
    from app.approvals import edit_diff
    from app.assembly import open_application, start
    from app.configuration.settings import Settings, configure_logging, load_settings, store_choice
    from app.configuration.store_place import HistoryPlace, SettingsError, check_history_file, history_place
    from app.outside_tools.servers import McpPool
    from app.packages import PackageError, PackagePdf, PackageStatus, SignoffError
    from app.turns.images import DEFAULT_QUESTION as DEFAULT_IMAGE_QUESTION
    from app.turns.images import IMAGE_SUFFIXES, MAX_IMAGES, ImageRefusedError, clean_image, read_images
    from app.turns.turns import Consent
    from app.verification import issued_revision
    from app.workspaces.naming import AmbiguousWorkspaceError
    from app.workspaces.summary_writer import SwitchOutcome
    from domain.accounts import User
    from domain.issued import IssuedMatch
    from engine.ollama_server import ServerStatus
    from engine.server_pool import ServerPools
    from store import HistoryError
    from tools import tool_kind
    from tools.documents.readers import DOCUMENT_SUFFIXES, DOCUMENT_TYPES_NAMED

_WHERE = {
    "Application": "app.application",
    "AmbiguousWorkspaceError": "app.workspaces.naming",
    "DEFAULT_IMAGE_QUESTION": "app.turns.images:DEFAULT_QUESTION",
    "IMAGE_SUFFIXES": "app.turns.images",
    "ImageRefusedError": "app.turns.images",
    "MAX_IMAGES": "app.turns.images",
    "clean_image": "app.turns.images",
    "read_images": "app.turns.images",
    "ForbiddenError": "app.accounts.policy",
    "SignInError": "app.accounts.policy",
    "User": "domain.accounts",
    "record_as_json": "app.accounts.audit_trail",
    "Consent": "app.turns.turns",
    "DOCUMENT_SUFFIXES": "tools.documents.readers",
    "DOCUMENT_TYPES_NAMED": "tools.documents.readers",
    "HistoryError": "store",
    "McpPool": "app.outside_tools.servers",
    "PackageError": "app.packages",
    "PackagePdf": "app.packages",
    "PackageStatus": "app.packages",
    "ServerPools": "engine.server_pool",
    "ServerStatus": "engine.ollama_server",
    "Settings": "app.configuration.settings",
    "SettingsError": "app.configuration.store_place",
    "HistoryPlace": "app.configuration.store_place",
    "IssuedMatch": "domain.issued",
    "check_history_file": "app.configuration.store_place",
    "history_place": "app.configuration.store_place",
    "issued_revision": "app.verification",
    "SignoffError": "app.packages",
    "SwitchOutcome": "app.workspaces.summary_writer",
    "configure_logging": "app.configuration.settings",
    "edit_diff": "app.approvals",
    "load_settings": "app.configuration.settings",
    "open_application": "app.assembly",
    "start": "app.assembly",
    "store_choice": "app.configuration.settings",
    "tool_kind": "tools",
}

__all__ = [
    "Application",
    "AmbiguousWorkspaceError",
    "DEFAULT_IMAGE_QUESTION",
    "IMAGE_SUFFIXES",
    "ImageRefusedError",
    "MAX_IMAGES",
    "clean_image",
    "read_images",
    "Consent",
    "DOCUMENT_SUFFIXES",
    "DOCUMENT_TYPES_NAMED",
    "ForbiddenError",
    "HistoryError",
    "HistoryPlace",
    "IssuedMatch",
    "McpPool",
    "PackageError",
    "PackagePdf",
    "PackageStatus",
    "ServerPools",
    "ServerStatus",
    "Settings",
    "SettingsError",
    "SignInError",
    "SignoffError",
    "SwitchOutcome",
    "User",
    "check_history_file",
    "configure_logging",
    "edit_diff",
    "history_place",
    "issued_revision",
    "load_settings",
    "open_application",
    "record_as_json",
    "start",
    "store_choice",
    "tool_kind",
]


def __getattr__(name: str) -> Any:
    """`from app import X`: X from the module it lives in, imported now (and kept here for the next time)."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'app' has no attribute {name!r}")
    module, _, attribute = where.partition(":")  # "module:attribute" where the name is an alias
    found = getattr(import_module(module), attribute or name)
    globals()[name] = found
    return found
