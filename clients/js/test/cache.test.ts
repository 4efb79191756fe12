/** The cache stores on their own (no server): naming, eviction order, the disk format's checks. */
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DiskCache } from "../src/cache/disk.js";
import { parseEntry, serializeEntry } from "../src/cache/entry-file.js";
import { MemoryCache } from "../src/cache/memory.js";
import type { CacheEntry } from "../src/cache/types.js";
import { tempDir } from "./helpers/temp.js";

function entry(templateId: string, fetchedAt = Date.now()): CacheEntry {
  return {
    templateId,
    template: { template_id: templateId, rows: [] },
    etag: '"v1-abc"',
    fetchedAt,
    scope: { key: "f00d", targets: ["html"], complete: true },
  };
}

describe("MemoryCache", () => {
  it("evicts by fetch order; a renewal (set again) makes an entry the youngest", async () => {
    const cache = new MemoryCache(2);
    await cache.set(entry("a"));
    await cache.set(entry("b"));
    await cache.set(entry("a")); // renewed by a 304
    await cache.set(entry("c"));
    expect(cache.list()).toEqual(["a", "c"]);
    expect(await cache.get("b")).toBeUndefined();
  });
});

describe("DiskCache", () => {
  it("stores ids that are not file-name safe, and very long ids, under reversible or hashed names", async () => {
    const dir = tempDir("unit");
    const cache = new DiskCache(dir, 10);
    const odd = ["../escape", "a/b\\c:d*e?.json", "ünï~cödé", "x".repeat(300)];
    for (const id of odd) await cache.set(entry(id));
    expect(cache.list().sort()).toEqual([...odd].sort());
    for (const name of readdirSync(dir)) expect(name).toMatch(/^[A-Za-z0-9_%~-]+\.json$/);
    for (const id of odd) expect((await cache.get(id))?.templateId).toBe(id);
    expect(cache.delete(odd[0]!)).toBe(true);
    expect(cache.delete(odd[0]!)).toBe(false);
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it("ignores temp files and foreign files when listing; clear removes temp files too", async () => {
    const dir = tempDir("unit");
    const cache = new DiskCache(dir, 10);
    await cache.set(entry("one"));
    writeFileSync(path.join(dir, ".one.json.123.abc.tmp"), "{");
    writeFileSync(path.join(dir, "notes.txt"), "keep");
    expect(cache.list()).toEqual(["one"]);
    await cache.clear();
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });

  it("a missing folder is an empty cache", async () => {
    const cache = new DiskCache(path.join(tempDir("unit"), "not", "there"), 10);
    expect(cache.list()).toEqual([]);
    expect(await cache.get("x")).toBeUndefined();
    expect(cache.delete("x")).toBe(false);
    await cache.clear();
  });
});

describe("disk entry format", () => {
  it("round-trips, and refuses anything that is not a well-formed entry for the id", () => {
    const good = entry("t1", 1234);
    expect(parseEntry(serializeEntry(good), "t1")).toEqual(good);
    expect(parseEntry(serializeEntry(good), "t2")).toBeUndefined();
    const doc = JSON.parse(serializeEntry(good)) as Record<string, unknown>;
    for (const broken of [
      { ...doc, format: 2 },
      { ...doc, template: [] },
      { ...doc, fetchedAt: "yesterday" },
      { ...doc, etag: 5 },
      { ...doc, scope: { key: "k", targets: ["html", "pdf"], complete: true } },
      { ...doc, scope: { key: "k", targets: ["html"] } },
    ]) {
      expect(parseEntry(JSON.stringify(broken), "t1")).toBeUndefined();
    }
    expect(parseEntry("", "t1")).toBeUndefined();
    expect(parseEntry(JSON.stringify({ ...doc, etag: null, scope: null }), "t1")).toMatchObject({ etag: null, scope: null });
  });
});
