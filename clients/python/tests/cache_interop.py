"""The Python side of the cross-language disk-cache test (clients/php/tests/Integration/CacheInteropTest.php).

write <dir> <entry.json>   writes the entry ({templateId, template, etag, fetchedAt, scope}) with DiskCache
read <dir> <templateId>    prints the entry DiskCache reads back, or null
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from mailrender._cache import DiskCache
from mailrender._core.entry import CachedScope, CacheEntry
from mailrender._core.entry_file import serialize_entry


def main(command: str, folder: str, arg: str) -> None:
    cache = DiskCache(folder, 50)
    if command == "write":
        e = json.loads(Path(arg).read_text(encoding="utf-8"))
        s = e["scope"]
        scope = None if s is None else CachedScope(key=s["key"], targets=tuple(s["targets"]), complete=s["complete"])
        cache.set(
            CacheEntry(
                template_id=e["templateId"],
                template=e["template"],
                etag=e["etag"],
                fetched_at_ms=e["fetchedAt"],
                scope=scope,
            )
        )
        return
    entry = cache.get(arg)
    if entry is None:
        print("null")
        return
    doc = json.loads(serialize_entry(entry))
    del doc["format"]
    print(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    main(*sys.argv[1:4])
