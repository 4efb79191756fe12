/** The shared client contract (spec/clients.md): every fixtures/client/v1 file against this client's pure functions. */
import { readdirSync, readFileSync } from "node:fs";
import type { RenderTarget } from "@mailrender/engine";
import { describe, expect, it } from "vitest";
import { cacheFileName } from "../src/cache/disk.js";
import { parseEntry, serializeEntry } from "../src/cache/entry-file.js";
import { cacheMillis, isFresh } from "../src/cache/time.js";
import type { CachedScope, CacheEntry } from "../src/cache/types.js";
import { USER_AGENT } from "../src/constants.js";
import { codeForStatus, type ErrorCode, MailrenderError, mayServeStale } from "../src/errors.js";
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from "../src/http/retry.js";
import { keyFingerprint, scopeVerdict } from "../src/scope.js";
import { FIXTURES_DIR } from "./helpers/paths.js";

const DIR = `${FIXTURES_DIR}client/v1/`;

// biome-ignore lint/suspicious/noExplicitAny: fixture cases are plain JSON, read field by field in each test
function cases(name: string): any[] {
  return (JSON.parse(readFileSync(DIR + name, "utf8")) as { cases: unknown[] }).cases;
}

function error(e: { code: ErrorCode; status: number }): MailrenderError {
  return new MailrenderError(e.code, e.status, "fixture");
}

/** Decisions the JS client has no function for, because it renders in-process (no saved layouts: docs/design/saved-layouts.md). */
const NOT_JS = new Set(["engine-envelope.json", "cache-layout-file-name.json"]);

describe("fixtures/client/v1", () => {
  it("every fixture file is run here (or said why not)", () => {
    const run = [
      "status-code.json",
      "retry-after.json",
      "retry-delay.json",
      "key-fingerprint.json",
      "scope-verdict.json",
      "stale-or-raise.json",
      "cache-file-name.json",
      "cache-entry-read.json",
      "cache-entry-write.json",
      "cache-time.json",
      "user-agent.json",
    ];
    expect(
      readdirSync(DIR)
        .filter((f) => !NOT_JS.has(f))
        .sort(),
    ).toEqual(run.sort());
  });

  it.each(cases("status-code.json"))("status $status → $code", (c) => {
    expect(codeForStatus(c.status)).toBe(c.code);
  });

  it.each(cases("retry-after.json"))("Retry-After $header", (c) => {
    expect(parseRetryAfter(c.header, c.now_ms) ?? null).toBe(c.ms);
  });

  it.each(cases("retry-delay.json"))("retry delay: $name", (c) => {
    const policy = { ...DEFAULT_RETRY_POLICY, random: () => c.random as number };
    expect(retryDelay(error(c.error), c.retry_after_ms ?? undefined, c.retry_index, policy) ?? null).toBe(c.delay_ms);
  });

  it.each(cases("key-fingerprint.json"))("fingerprint of $api_key", (c) => {
    expect(keyFingerprint(c.api_key)).toBe(c.fingerprint);
  });

  it.each(cases("scope-verdict.json"))("scope verdict: $name", (c) => {
    expect(scopeVerdict(c.scope as CachedScope | null, c.fingerprint, c.target as RenderTarget)).toBe(c.verdict);
  });

  it.each(cases("stale-or-raise.json"))("stale or raise: $name", (c) => {
    expect(mayServeStale(error(c.error), c.verdict) ? "stale" : "raise").toBe(c.outcome);
  });

  it.each(cases("cache-file-name.json"))("file name of $template_id", (c) => {
    expect(cacheFileName(c.template_id)).toBe(c.file_name);
  });

  it.each(cases("cache-entry-read.json"))("read entry: $name", (c) => {
    expect(parseEntry(c.file, c.template_id) ?? null).toEqual(c.entry);
  });

  it.each(cases("cache-entry-write.json"))("write entry: $name", (c) => {
    expect(JSON.parse(serializeEntry(c.entry as CacheEntry))).toEqual(c.file);
  });

  it.each(cases("cache-time.json"))("cache time: $name", (c) => {
    const fetchedAt = cacheMillis(c.written_at);
    expect(fetchedAt).toBe(c.fetched_at);
    expect(isFresh(fetchedAt, cacheMillis(c.read_at), c.ttl)).toBe(c.fresh);
  });

  it("User-Agent", () => {
    const fixture = JSON.parse(readFileSync(`${DIR}user-agent.json`, "utf8")) as { pattern: string; cases: { user_agent: string; valid: boolean }[] };
    const pattern = new RegExp(fixture.pattern);
    for (const c of fixture.cases) expect(pattern.test(c.user_agent)).toBe(c.valid);
    expect(USER_AGENT).toMatch(pattern);
    expect(USER_AGENT.startsWith("mailrender-js/")).toBe(true);
  });
});
