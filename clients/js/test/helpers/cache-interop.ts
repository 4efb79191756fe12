/**
 * The JS side of the cross-language disk-cache test (clients/php/tests/Integration/CacheInteropTest.php):
 *   write <dir> <entry.json>   writes the entry ({templateId, template, etag, fetchedAt, scope}) with DiskCache
 *   read <dir> <templateId>    prints the entry DiskCache reads back, or null
 */
import { readFileSync } from "node:fs";
import { DiskCache } from "../../src/cache/disk.js";
import type { CacheEntry } from "../../src/cache/types.js";

const [command, dir, arg] = process.argv.slice(2);
const cache = new DiskCache(dir!, 50);
if (command === "write") {
  await cache.set(JSON.parse(readFileSync(arg!, "utf8")) as CacheEntry);
} else {
  process.stdout.write(JSON.stringify((await cache.get(arg!)) ?? null));
}
