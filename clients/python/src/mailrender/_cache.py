"""The two cache stores. Both are thread-safe; neither ever raises on a missing or unreadable entry.

Disk layout is the JS client's (one ``<encoded id>.json`` per template, same entry format), so a JS
and a Python service on one machine may share a folder; beside an entry, the engine's saved layouts
of its template, as the PHP client keeps them (spec/clients.md, "Saved layouts").
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Callable, Optional, Protocol
from urllib.parse import unquote

from ._core.entry import CacheEntry
from ._core.entry_file import (
    ENTRY_SUFFIX,
    LAYOUT_SUFFIX,
    cache_file_name,
    layout_file_name,
    layouts_prefix,
    parse_entry,
    serialize_entry,
)
from ._core.render_request import RenderRequest


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


_TEMP_SUFFIX = ".tmp"


def _is_entry_file(name: str) -> bool:
    return name.endswith(ENTRY_SUFFIX) and not name.startswith(".")


class DiskCache:
    """One JSON file per template in a folder several processes may share.

    - Writes go to a unique temp file in the same folder, then ``os.replace`` over the target: a reader
      sees the old file or the new one, never half of one. Racing writers both write a valid entry.
    - A missing, unreadable or malformed file is a miss (the next fetch rewrites it).
    - Parsed entries are memoised by (mtime, size, inode), so a hot template is not re-parsed per render
      while a file another process rewrote is still picked up.
    - Beside an entry, the engine's saved layouts of its template (one file per target and
      minification, written the same way) go with it: deleted, cleared and evicted together.
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
        self._write(cache_file_name(entry.template_id), serialize_entry(entry).encode("utf-8"))
        self._evict()

    def get_layout(self, template_id: str, target: str, minify: bool) -> Optional[str]:
        """The engine's saved layout of a template for a target and minification, as the engine wrote
        it; None when there is none. The engine checks it (a damaged one is ignored), not the cache."""
        try:
            with open(os.path.join(self.dir, layout_file_name(template_id, target, minify)), "rb") as f:
                data = f.read()
        except OSError:
            return None
        # Bytes that are not UTF-8 (a damaged file) become U+FFFD: the engine then finds the checksum wrong.
        return data.decode("utf-8", "replace") or None

    def set_layout(self, template_id: str, target: str, minify: bool, layout: str) -> None:
        self._write(layout_file_name(template_id, target, minify), layout.encode("utf-8", "surrogatepass"))

    def _write(self, name: str, content: bytes) -> None:
        """A unique temp file in the folder, renamed over ``name``: readers see the old file or the new one."""
        os.makedirs(self.dir, exist_ok=True)
        temp = os.path.join(self.dir, f".{name}.{os.getpid()}.{os.urandom(6).hex()}{_TEMP_SUFFIX}")
        try:
            with open(temp, "wb") as f:
                f.write(content)
            os.replace(temp, os.path.join(self.dir, name))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise

    def _delete_layouts(self, entry_name: str) -> None:
        prefix = layouts_prefix(entry_name)
        try:
            names = os.listdir(self.dir)
        except FileNotFoundError:
            return
        for name in names:
            if name.startswith(prefix) and name.endswith(LAYOUT_SUFFIX):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(self.dir, name))

    def delete(self, template_id: str) -> bool:
        path = self._file(template_id)
        with self._lock:
            self._memo.pop(path, None)
        self._delete_layouts(cache_file_name(template_id))
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
                ids.append(unquote(name[: -len(ENTRY_SUFFIX)]))
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
        """Removes every entry, saved layout and temp file; files another process removed first are skipped."""
        with self._lock:
            self._memo.clear()
        try:
            names = os.listdir(self.dir)
        except FileNotFoundError:
            return
        for name in names:
            temp = name.startswith(".") and name.endswith(_TEMP_SUFFIX)
            layout = not name.startswith(".") and name.endswith(LAYOUT_SUFFIX)
            if temp or layout or _is_entry_file(name):
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
            self._delete_layouts(name)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(self.dir, name))


def layout_loader(cache: CacheStore, request: RenderRequest) -> Optional[Callable[[], Optional[str]]]:
    """Reads a render's saved layout from a disk cache (spec/clients.md, "Saved layouts"); None when
    the render keeps none: a memory cache would not outlive the engine process, which keeps what it
    compiled, and a plain-text or component render is not one per recipient."""
    if not isinstance(cache, DiskCache) or not request.per_recipient:
        return None
    return functools.partial(cache.get_layout, request.template_id, request.target, request.minified)


def keep_layout(
    cache: CacheStore, request: RenderRequest, envelope: Mapping[str, object]
) -> Optional[Callable[[], None]]:
    """The write of the new saved layout the engine returned for a render, if it returned one."""
    layout = envelope.get("saved_layout")
    if not isinstance(cache, DiskCache) or not isinstance(layout, str):
        return None
    return functools.partial(cache.set_layout, request.template_id, request.target, request.minified, layout)


def make_cache(kind: str, path: str, max_entries: int) -> CacheStore:
    return DiskCache(path, max_entries) if kind == "disk" else MemoryCache(max_entries)
