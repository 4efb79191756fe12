/**
 * The disk format of one cache entry, and the check that a file read back is one. Anything that does
 * not pass (truncated, hand-edited, another version's format) is treated as a miss, never an error.
 */
import { RENDER_TARGETS } from "../constants.js";
import { cacheMillis } from "./time.js";
import type { CachedScope, CacheEntry } from "./types.js";

const FORMAT = 1;

export function serializeEntry(entry: CacheEntry): string {
  return JSON.stringify({ format: FORMAT, ...entry });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseScope(value: unknown): CachedScope | null | undefined {
  if (value === null) return null;
  if (!isRecord(value) || typeof value["key"] !== "string" || !Array.isArray(value["targets"]) || typeof value["complete"] !== "boolean") return undefined;
  const targets = RENDER_TARGETS.filter((t) => (value["targets"] as unknown[]).includes(t));
  if (targets.length !== value["targets"].length) return undefined;
  return { key: value["key"], targets, complete: value["complete"] };
}

/** The entry in `text`, or undefined when it is not a well-formed entry for `templateId`. */
export function parseEntry(text: string, templateId?: string): CacheEntry | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || doc["format"] !== FORMAT) return undefined;
  const { templateId: id, template, etag, fetchedAt } = doc;
  const scope = parseScope(doc["scope"]);
  if (typeof id !== "string" || (templateId !== undefined && id !== templateId)) return undefined;
  if (!isRecord(template) || (etag !== null && typeof etag !== "string") || typeof fetchedAt !== "number" || !Number.isFinite(fetchedAt)) return undefined;
  if (scope === undefined) return undefined;
  return { templateId: id, template, etag, fetchedAt: cacheMillis(fetchedAt), scope };
}
