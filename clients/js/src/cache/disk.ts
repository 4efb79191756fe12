/**
 * One JSON file per template in a folder that several processes may share.
 *
 * - Writes go to a unique temp file in the same folder, then rename() over the target: a reader sees
 *   the old file or the new one, never half of one. Two writers racing both write a valid entry; the
 *   later rename wins, which is fine because either copy was good when written.
 * - A file that is missing, unreadable or malformed is a miss (the next fetch rewrites it).
 * - Deleting a file another process already deleted is not an error.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { mkdir, readdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseEntry, serializeEntry } from "./entry-file.js";
import type { CacheEntry, CacheStore } from "./types.js";

const SUFFIX = ".json";
const TEMP_SUFFIX = ".tmp";
/** Names longer than this would risk the 255-byte file-name limit: those files are named by a hash. */
const MAX_NAME = 200;
const HASHED_PREFIX = "~";

/** A file-name-safe, reversible name: everything outside [A-Za-z0-9_-] is %-encoded (so `~` never starts one). */
function encodeId(id: string): string {
  return encodeURIComponent(id).replace(/[!'()*.~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The entry file of a template id (spec/clients.md, Disk cache). */
export function cacheFileName(id: string): string {
  const encoded = encodeId(id);
  return (encoded.length <= MAX_NAME ? encoded : HASHED_PREFIX + createHash("sha256").update(id).digest("hex")) + SUFFIX;
}

function isEntryFile(name: string): boolean {
  return name.endsWith(SUFFIX) && !name.startsWith(".");
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

export class DiskCache implements CacheStore {
  readonly dir: string;
  readonly #maxEntries: number;

  constructor(dir: string, maxEntries: number) {
    this.dir = path.resolve(dir);
    this.#maxEntries = maxEntries;
  }

  async get(templateId: string): Promise<CacheEntry | undefined> {
    let text: string;
    try {
      text = await readFile(path.join(this.dir, cacheFileName(templateId)), "utf8");
    } catch {
      return undefined;
    }
    return parseEntry(text, templateId);
  }

  async set(entry: CacheEntry): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const name = cacheFileName(entry.templateId);
    const temp = path.join(this.dir, `.${name}.${process.pid}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
    try {
      await writeFile(temp, serializeEntry(entry), "utf8");
      await rename(temp, path.join(this.dir, name));
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    await this.#evict();
  }

  delete(templateId: string): boolean {
    try {
      unlinkSync(path.join(this.dir, cacheFileName(templateId)));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  list(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const ids: string[] = [];
    for (const name of names.filter(isEntryFile).sort()) {
      if (!name.startsWith(HASHED_PREFIX)) {
        ids.push(decodeURIComponent(name.slice(0, -SUFFIX.length)));
        continue;
      }
      // A hashed name does not give the id back: it is read from the file (unreadable = not listed).
      try {
        const entry = parseEntry(readFileSync(path.join(this.dir, name), "utf8"));
        if (entry !== undefined) ids.push(entry.templateId);
      } catch {
        // gone or unreadable: not a cached template
      }
    }
    return ids;
  }

  /** Removes every entry and every temp file; files other processes remove first are skipped. */
  async clear(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const ours = names.filter((n) => isEntryFile(n) || (n.startsWith(".") && n.endsWith(TEMP_SUFFIX)));
    await Promise.all(ours.map((n) => unlink(path.join(this.dir, n)).catch((e: unknown) => (isMissing(e) ? undefined : Promise.reject(e)))));
  }

  /** Keeps at most maxEntries files, dropping the ones written longest ago (a write is a fetch or a 304 renewal). */
  async #evict(): Promise<void> {
    const names = (await readdir(this.dir)).filter(isEntryFile);
    if (names.length <= this.#maxEntries) return;
    const aged: { name: string; mtime: number }[] = [];
    for (const name of names) {
      try {
        aged.push({ name, mtime: statSync(path.join(this.dir, name)).mtimeMs });
      } catch {
        // removed meanwhile by another process
      }
    }
    aged.sort((a, b) => a.mtime - b.mtime);
    for (const { name } of aged.slice(0, Math.max(0, aged.length - this.#maxEntries))) {
      await unlink(path.join(this.dir, name)).catch(() => undefined);
    }
  }
}
