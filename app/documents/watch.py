"""Following the workspace folder, so that the document index stays current without /reindex.

One watch per folder in the process, whatever the number of libraries following it (the web app
has a library per tab): watchdog's observer (inotify, FSEvents, ReadDirectoryChangesW; chosen over
watchfiles by the measurement in bench/README.md) where the folder's file system reports changes, and
a stat walk every few seconds where it does not (a network share, where inotify sees only this
machine's writes) or when the observer cannot start (the system's limit of watches reached). One
thread for all folders gathers the changes: the followers are asked to refresh once a folder has been
quiet for QUIET_SECONDS (at most LONGEST_WAIT_SECONDS after its first change), so a burst of changes
is read once. A folder nobody follows any more is let go; all of them stop when the app ends.
"""

from __future__ import annotations

import atexit
import logging
import os
import statistics
import threading
import time
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.documents.readers import DOCUMENT_SUFFIXES
from tools.workspace_walk import walk_files

logger = logging.getLogger(__name__)

QUIET_SECONDS = 0.5  # a change is acted on once the folder has been quiet this long…
LONGEST_WAIT_SECONDS = 2.0  # …or this long after the first change, for a folder that never rests
POLL_SECONDS = 2.0  # the shortest time between two walks of a folder whose changes are not reported
POLL_SHARE = 50  # …and at least this many times as long as a walk takes (the median of the last five): 2 % of a CPU
NETWORK_FILE_SYSTEMS = frozenset(
    "nfs nfs4 cifs smb3 smbfs ncpfs afs 9p virtiofs vboxsf davfs fuse.sshfs fuse.rclone fuse.s3fs "
    "glusterfs fuse.glusterfs ceph fuse.ceph lustre gpfs".split()
)
Follower = weakref.WeakMethod[Callable[[], None]]


def wanted(name: str) -> bool:
    """A document's name: one of the suffixes the index reads."""
    return Path(name).suffix.lower() in DOCUMENT_SUFFIXES


def quiet_watchdog() -> None:
    """Keep watchdog's own warnings off the user's screen. Its inotify observer warns "Callback with id … already
    exists" for every folder it is told about twice, which happens whenever a tree of folders is copied in while
    it is being watched (the folders are found both by its walk of the new tree and by their own events), each
    warning with every watched folder in it: hundreds of kilobytes in the terminal. The watch is right either
    way (the callback is replaced by itself), so nothing needs saying."""
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"watchdog(\.|$)")


def file_system(path: Path) -> str:
    """The type of the file system `path` is on ("ext4", "nfs4"), from /proc/self/mountinfo; "" where unknown."""
    try:
        lines = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    target, best, kind = str(path), "", ""
    for line in lines:
        left, _, right = line.partition(" - ")
        fields = left.split()
        if len(fields) < 5 or not right:
            continue
        mount = fields[4].encode().decode("unicode_escape")  # "\040" is a space in a mount point's name
        inside = target == mount or target.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best):
            best, kind = mount, right.split()[0]
    return kind


@dataclass
class WatchedFolder:
    """One folder: who follows it, how its changes are learnt, and the changes not acted on yet."""

    root: Path
    followers: list[Follower] = field(default_factory=list)
    how: str = "events"  # "events", or "polling" with the reason in `why_polling`
    why_polling: str = ""
    watch: Any = None  # watchdog's ObservedWatch
    first_change: float | None = None
    last_change: float = 0.0
    next_walk: float = 0.0
    walks: list[float] = field(default_factory=list)  # the last walks' durations, in seconds
    seen: dict[str, tuple[int, int, int]] | None = None  # polling: each document's (size, mtime, inode)

    def changed(self) -> None:
        now = time.monotonic()
        self.first_change = self.first_change if self.first_change is not None else now
        self.last_change = now

    def due(self, now: float) -> bool:
        if self.first_change is None:
            return False
        return now - self.last_change >= QUIET_SECONDS or now - self.first_change >= LONGEST_WAIT_SECONDS

    def walk_interval(self) -> float:
        """Polling: the time between two walks, so that walking takes at most 1/POLL_SHARE of the time."""
        return max(POLL_SECONDS, POLL_SHARE * statistics.median(self.walks)) if self.walks else POLL_SECONDS

    def deadline(self) -> float | None:
        """When this folder next needs the thread: to act on its changes, or to walk it."""
        times = []
        if self.first_change is not None:
            times.append(min(self.last_change + QUIET_SECONDS, self.first_change + LONGEST_WAIT_SECONDS))
        if self.how == "polling":
            times.append(self.next_walk)
        return min(times) if times else None


class FolderWatches:
    """The process's watches, one per folder, and the one thread that turns their changes into refreshes."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._folders: dict[Path, WatchedFolder] = {}
        self._observer: Any = None
        self._thread: threading.Thread | None = None
        self._stopping = False

    def follow(self, root: Path, refresh: Callable[[], None]) -> WatchedFolder:
        """Call `refresh` (a bound method, held weakly) soon after documents under `root` change."""
        root = root.resolve()
        with self._condition:
            folder = self._folders.get(root)
            if folder is None:
                folder = self._folders[root] = WatchedFolder(root)
                self._start_watching(folder)
            folder.followers.append(weakref.WeakMethod(refresh))
            self._start_thread()
            self._condition.notify()
            return folder

    def unfollow(self, root: Path, refresh: Callable[[], None] | None = None) -> None:
        """`refresh` follows `root` no more (None: only those gone are forgotten); an unfollowed folder is let go."""
        root = root.resolve()
        with self._condition:
            folder = self._folders.get(root)
            if folder is not None:
                folder.followers = [f for f in folder.followers if f() is not None and f() != refresh]
                self._drop_if_unfollowed(folder)

    def watching(self, root: Path) -> WatchedFolder | None:
        with self._condition:
            return self._folders.get(root.resolve())

    def stop(self) -> None:
        """Stop every watch and the thread (at exit)."""
        with self._condition:
            self._stopping = True
            self._condition.notify()
            observer, self._observer = self._observer, None
            self._folders.clear()
        if observer is not None:
            observer.stop()
            observer.join(5)

    # Learning of changes -------------------------------------------------------------

    def _start_watching(self, folder: WatchedFolder) -> None:
        kind = file_system(folder.root)
        if kind in NETWORK_FILE_SYSTEMS:
            self._poll(folder, f"a {kind} share does not report other machines' changes")
            return
        try:
            folder.watch = self._observed().schedule(
                _Changes(self, folder), str(folder.root), recursive=True, event_filter=_event_kinds()
            )
        except OSError as error:  # the system's limit of watches or instances, or the folder is not there yet
            self._poll(folder, f"changes cannot be followed by events ({error.strerror or error})")

    def _observed(self) -> Any:
        if self._observer is None:
            from watchdog.observers import Observer

            quiet_watchdog()
            self._observer = Observer()
            self._observer.start()
        return self._observer

    def _poll(self, folder: WatchedFolder, why: str) -> None:
        folder.how, folder.why_polling = "polling", why
        folder.next_walk = time.monotonic()

    def _drop_if_unfollowed(self, folder: WatchedFolder) -> None:
        if any(follower() is not None for follower in folder.followers):
            return
        self._folders.pop(folder.root, None)
        if folder.watch is not None and self._observer is not None:
            try:
                self._observer.unschedule(folder.watch)
            except (KeyError, OSError):  # already gone with its folder
                pass

    def note_change(self, folder: WatchedFolder) -> None:
        with self._condition:
            folder.changed()
            self._condition.notify()

    # The thread -----------------------------------------------------------------------

    def _start_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="document-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._condition:
                if self._stopping or not self._folders:
                    self._thread = None
                    return
                now = time.monotonic()
                due = [f for f in self._folders.values() if f.due(now)]
                walks = [f for f in self._folders.values() if f.how == "polling" and f.next_walk <= now]
                if not due and not walks:
                    deadlines = [d for f in self._folders.values() if (d := f.deadline()) is not None]
                    self._condition.wait(max(0.0, min(deadlines) - now) if deadlines else None)
                    continue
                for folder in due:
                    folder.first_change = None
            for folder in walks:
                self._walk(folder)
            for folder in due:
                self._tell(folder)

    def _walk(self, folder: WatchedFolder) -> None:
        """Polling: list the folder's documents with their stat; a difference from the last walk is a change."""
        started = time.monotonic()
        try:
            found = {
                path: (info.st_size, info.st_mtime_ns, info.st_ino) for path, info in walk_files(folder.root, wanted)
            }
        except OSError as error:
            logger.info("walking %s failed: %s", folder.root, error)
            found = folder.seen or {}
        took = time.monotonic() - started
        with self._condition:
            if folder.seen is not None and found != folder.seen:
                folder.changed()
            folder.seen, folder.walks = found, [*folder.walks[-4:], took]
            folder.next_walk = time.monotonic() + folder.walk_interval()

    def _tell(self, folder: WatchedFolder) -> None:
        for follower in list(folder.followers):
            refresh = follower()
            if refresh is not None:
                try:
                    refresh()
                except Exception:  # noqa: BLE001 - one follower's failure must not stop the others' watch
                    logger.exception("refreshing after a change in %s failed", folder.root)
        with self._condition:
            self._drop_if_unfollowed(folder)


class _Changes:
    """watchdog's handler for one folder: a document created, written, closed, moved or deleted, or a folder
    created, moved or deleted, is a change; hidden names (uploads being written, `.~lock` files) are not."""

    def __init__(self, watches: FolderWatches, folder: WatchedFolder) -> None:
        self.watches, self.folder = watches, folder

    def dispatch(self, event: Any) -> None:
        paths = [os.fsdecode(p) for p in (event.src_path, getattr(event, "dest_path", "")) if p]
        if any(self._matters(path, event.is_directory) for path in paths):
            self.watches.note_change(self.folder)

    def _matters(self, path: str, is_directory: bool) -> bool:
        try:
            relative = Path(path).relative_to(self.folder.root)
        except ValueError:
            return False
        if any(part.startswith(".") for part in relative.parts):
            return False
        return bool(relative.parts) and (is_directory or wanted(relative.name))


def _event_kinds() -> list[Any]:
    from watchdog.events import (
        DirCreatedEvent,
        DirDeletedEvent,
        DirMovedEvent,
        FileClosedEvent,
        FileCreatedEvent,
        FileDeletedEvent,
        FileModifiedEvent,
        FileMovedEvent,
    )

    return [
        FileCreatedEvent,
        FileModifiedEvent,
        FileClosedEvent,
        FileMovedEvent,
        FileDeletedEvent,
        DirCreatedEvent,
        DirMovedEvent,
        DirDeletedEvent,
    ]


watches = FolderWatches()
atexit.register(watches.stop)
