"""The two cache stores. Both are thread-safe; neither ever raises on a missing or unreadable entry.

Disk layout is the JS client's (one ``<encoded id>.json`` per template, same entry format), so a JS
and a Python service on one machine may share a folder.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import threading
import time
from collections import OrderedDict
from typing import Optional, Protocol
from urllib.parse import unquote

from ._core.entry import CacheEntry
from ._core.entry_file import cache_file_name, parse_entry, serialize_entry


def wall_clock_ms() -> int:
    """Now as a cache time: whole milliseconds since the epoch, floored (``_core.freshness``). The
    wall clock, not a monotonic one, because processes sharing a disk cache compare their times."""
    return time.time_ns() // 1_000_000


class CacheStore(Protocol):
    #: True when calls touch the filesystem (the async client then runs them off the event loop).
    blocking: bool

    def get(self, template_id: str) -> Optional[CacheEntry]: ...
    def set(self, entry: CacheEntry) -> None: ...
    def delete(self, template_id: str) -> bool: ...
    def list(self) -> builtins.list[str]: ...
    def clear(self) -> None: ...


class MemoryCache:
    """In-process; evicts the entry fetched longest ago (a 304 renewal counts as a fetch)."""

    blocking = False

    def __init__(self, max_entries: int) -> None:
        self._max = max_entries
        self._entries: OrderedDict[str, CacheEntry] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, template_id: str) -> Optional[CacheEntry]:
        with self._lock:
            return self._entries.get(template_id)

    def set(self, entry: CacheEntry) -> None:
        with self._lock:
            self._entries.pop(entry.template_id, None)
            self._entries[entry.template_id] = entry
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)

    def delete(self, template_id: str) -> bool:
        with self._lock:
            return self._entries.pop(template_id, None) is not None

    def list(self) -> builtins.list[str]:
        with self._lock:
            return list(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_SUFFIX = ".json"
_TEMP_SUFFIX = ".tmp"


def _is_entry_file(name: str) -> bool:
    return name.endswith(_SUFFIX) and not name.startswith(".")


class DiskCache:
    """One JSON file per template in a folder several processes may share.

    - Writes go to a unique temp file in the same folder, then ``os.replace`` over the target: a reader
      sees the old file or the new one, never half of one. Racing writers both write a valid entry.
    - A missing, unreadable or malformed file is a miss (the next fetch rewrites it).
    - Parsed entries are memoised by (mtime, size, inode), so a hot template is not re-parsed per render
      while a file another process rewrote is still picked up.
    """

    blocking = True

    def __init__(self, path: str, max_entries: int) -> None:
        self.dir = os.path.abspath(path)
        self._max = max_entries
        self._lock = threading.Lock()
        self._memo: dict[str, tuple[tuple[int, int, int], CacheEntry]] = {}

    def _file(self, template_id: str) -> str:
        return os.path.join(self.dir, cache_file_name(template_id))

    def get(self, template_id: str) -> Optional[CacheEntry]:
        path = self._file(template_id)
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
            with self._lock:
                memo = self._memo.get(path)
            if memo is not None and memo[0] == stamp:
                return memo[1]
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return None
        entry = parse_entry(data, template_id)
        if entry is not None:
            with self._lock:
                self._memo[path] = (stamp, entry)
        return entry

    def set(self, entry: CacheEntry) -> None:
        os.makedirs(self.dir, exist_ok=True)
        name = cache_file_name(entry.template_id)
        temp = os.path.join(self.dir, f".{name}.{os.getpid()}.{os.urandom(6).hex()}{_TEMP_SUFFIX}")
        try:
            with open(temp, "w", encoding="utf-8") as f:
                f.write(serialize_entry(entry))
            os.replace(temp, os.path.join(self.dir, name))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
        self._evict()

    def delete(self, template_id: str) -> bool:
        path = self._file(template_id)
        with self._lock:
            self._memo.pop(path, None)
        try:
            os.unlink(path)
            return True
        except FileNotFoundError:
            return False

    def list(self) -> builtins.list[str]:
        try:
            names = sorted(n for n in os.listdir(self.dir) if _is_entry_file(n))
        except FileNotFoundError:
            return []
        ids: list[str] = []
        for name in names:
            if not name.startswith("~"):
                ids.append(unquote(name[: -len(_SUFFIX)]))
                continue
            # A hashed name does not give the id back: it is read from the file (unreadable = not listed).
            try:
                with open(os.path.join(self.dir, name), "rb") as f:
                    entry = parse_entry(f.read())
            except OSError:
                entry = None
            if entry is not None:
                ids.append(entry.template_id)
        return ids

    def clear(self) -> None:
        """Removes every entry and temp file; files another process removed first are skipped."""
        with self._lock:
            self._memo.clear()
        try:
            names = os.listdir(self.dir)
        except FileNotFoundError:
            return
        for name in names:
            if _is_entry_file(name) or (name.startswith(".") and name.endswith(_TEMP_SUFFIX)):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(self.dir, name))

    def _evict(self) -> None:
        """Keeps at most max_entries files, dropping those written longest ago (a write is a fetch or a 304)."""
        names = [n for n in os.listdir(self.dir) if _is_entry_file(n)]
        if len(names) <= self._max:
            return
        aged: list[tuple[int, str]] = []
        for name in names:
            with contextlib.suppress(FileNotFoundError):  # removed meanwhile by another process
                aged.append((os.stat(os.path.join(self.dir, name)).st_mtime_ns, name))
        aged.sort()
        for _, name in aged[: max(0, len(aged) - self._max)]:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(self.dir, name))


def make_cache(kind: str, path: str, max_entries: int) -> CacheStore:
    return DiskCache(path, max_entries) if kind == "disk" else MemoryCache(max_entries)
