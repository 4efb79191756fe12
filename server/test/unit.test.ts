import { render } from "@mailrender/engine";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { displayPrefix, generateApiKey, generateKeyId, hashApiKey, hashesEqual, isWellFormedApiKey } from "../src/auth/keys.js";
import { RateLimiter } from "../src/auth/rate-limit.js";
import { TtlCache } from "../src/cache/ttl-cache.js";
import { ConfigError, loadConfig } from "../src/config.js";
import { explained } from "../src/http/hints.js";
import { zodIssuesToIssues, zodValidatorCompiler } from "../src/http/validation.js";
import { type RenderRequest, readRenderRequest, toDynamicData } from "../src/render/request.js";
import { WARM_UP_BODY, WARM_UP_TEMPLATE } from "../src/render/warm-up.js";
import { ifNoneMatchMatches } from "../src/routes/conditional.js";
import { effectiveTargets, normaliseScope } from "../src/targets.js";

describe("keys", () => {
  it("generates well-formed secrets, sortable ids and 12-character prefixes", () => {
    const key = generateApiKey();
    expect(key).toMatch(/^sk_live_[0-9a-f]{64}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey(key.toUpperCase())).toBe(false);
    expect(displayPrefix(key)).toHaveLength(12);
    expect(generateKeyId(1)).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(generateKeyId(1) < generateKeyId(2_000_000_000_000)).toBe(true);
  });

  it("hashes with SHA-256 and compares in constant time", () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashesEqual(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(hashesEqual(hashApiKey(key), hashApiKey(generateApiKey()))).toBe(false);
    expect(hashesEqual(hashApiKey(key), "abcd")).toBe(false);
    // A difference anywhere counts, the first character, a middle one or the last.
    const digest = hashApiKey(key);
    for (const at of [0, 31, 63]) {
      const changed = `${digest.slice(0, at)}${digest[at] === "0" ? "1" : "0"}${digest.slice(at + 1)}`;
      expect(hashesEqual(digest, changed)).toBe(false);
      expect(hashesEqual(changed, digest)).toBe(false);
    }
  });
});

describe("scopes", () => {
  it("expands and normalises", () => {
    expect(effectiveTargets(["all"])).toEqual(["html", "react-email", "mjml"]);
    expect(effectiveTargets(["mjml", "html"])).toEqual(["html", "mjml"]);
    expect(normaliseScope(["mjml", "all", "html"])).toEqual(["all"]);
    expect(normaliseScope(["mjml", "html", "mjml"])).toEqual(["html", "mjml"]);
  });
});

describe("TtlCache", () => {
  it("expires entries after the TTL and evicts the oldest when full", () => {
    let now = 0;
    const cache = new TtlCache<string>(100, 2, () => now);
    cache.set("a", "1");
    cache.set("b", "2");
    cache.set("c", "3");
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBe("2");
    now = 100;
    expect(cache.get("c")).toBeUndefined();
  });

  it("stores nothing with a TTL of 0", () => {
    const cache = new TtlCache<string>(0, 10);
    cache.set("a", "1");
    expect(cache.get("a")).toBeUndefined();
  });
});

describe("RateLimiter", () => {
  it("allows max per window per key and reports the wait in seconds", () => {
    let now = 0;
    const limiter = new RateLimiter({ max: 2, adminMax: 0, windowMs: 10_000 }, () => now);
    expect(limiter.hit("k")).toBe(0);
    expect(limiter.hit("k")).toBe(0);
    expect(limiter.hit("other")).toBe(0);
    now = 2_500;
    expect(limiter.hit("k")).toBe(8);
    now = 10_000;
    expect(limiter.hit("k")).toBe(0);
  });

  it("is off with max 0", () => {
    const limiter = new RateLimiter({ max: 0, adminMax: 0, windowMs: 1_000 });
    for (let i = 0; i < 100; i++) expect(limiter.hit("k")).toBe(0);
  });

  it("has a budget per role: by default load never locks an admin key out", () => {
    const defaults = loadConfig({}).rateLimit;
    const limiter = new RateLimiter(defaults);
    for (let i = 0; i < defaults.max; i++) expect(limiter.hit("render", "render")).toBe(0);
    expect(limiter.hit("render", "render")).toBeGreaterThan(0);
    for (let i = 0; i < defaults.max * 2; i++) expect(limiter.hit("admin", "admin")).toBe(0);
    const capped = new RateLimiter({ max: 0, adminMax: 2, windowMs: 1_000 });
    expect([capped.hit("a", "admin"), capped.hit("a", "admin"), capped.hit("a", "admin") > 0]).toEqual([0, 0, true]);
  });
});

describe("If-None-Match", () => {
  it("matches strong, weak, lists and *", () => {
    expect(ifNoneMatchMatches('"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"b", "a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches("*", '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"b"', '"a"')).toBe(false);
    expect(ifNoneMatchMatches(undefined, '"a"')).toBe(false);
  });
});

describe("zod issues in the pydantic shape", () => {
  const schema = z.strictObject({ id: z.uuid({ version: "v4" }), n: z.coerce.number().int().min(1), tags: z.array(z.string()).max(1) });

  it("maps types and prefixes the request part", () => {
    const data = { id: "x", n: "abc", tags: ["a", "b"], extra: 1, more: 2 };
    const issues = zodIssuesToIssues(schema.safeParse(data).error!.issues, "querystring", data);
    expect(issues).toEqual([
      { loc: ["query", "id"], msg: "Input should be a valid UUID", type: "uuid_parsing", input: "x" },
      { loc: ["query", "n"], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing", input: "abc" },
      { loc: ["query", "tags"], msg: "List should have at most 1 item after validation", type: "too_long", input: ["a", "b"] },
      { loc: ["query", "extra"], msg: "Extra inputs are not permitted", type: "extra_forbidden", input: 1 },
      { loc: ["query", "more"], msg: "Extra inputs are not permitted", type: "extra_forbidden", input: 2 },
    ]);
  });

  it("gives each issue its input (large ones left out, none when missing) and a hint for the common mistakes", () => {
    const issue = (loc: string[], type: string, msg = "m") => ({ loc, msg, type });
    expect(explained(issue(["body"], "missing"), null)).toEqual(issue(["body"], "missing"));
    expect(explained(issue(["body", "x"], "dict_type"), { big: "y".repeat(300) })).toEqual(issue(["body", "x"], "dict_type"));
    expect(explained(issue(["body", "x"], "string_type"), "z".repeat(300)).input).toBe(`${"z".repeat(199)}…`);
    const cases: [string[], string, unknown, string, string?][] = [
      [["body", "dynamic_data", "merge_tags", "first_name"], "extra_forbidden", "Ada", "put first_name under merge_tags.text"],
      [["body", "dynamic_data", "first_name"], "extra_forbidden", "Ada", "put first_name under dynamic_data.merge_tags.text"],
      [["body", "dynamic_data", "merge_tags", "text", "n"], "string_type", 3, 'Merge-tag values are text: write "3"'],
      [["body", "rows", "0", "columns", "0", "children", "0", "props", "fontSize"], "number_type", "16px", "Write the number without its unit: 16"],
      [["body", "canvas", "width"], "number_type", "600", "Write it as a number, without quotes: 600"],
      [["body", "template_id"], "uuid_parsing", "welcome", "Template ids are the UUIDs the service gives templates"],
      [["path", "id"], "uuid_parsing", "welcome", "Template ids are the UUIDs the service gives templates"],
      [["query", "target"], "literal_error", "htm", 'Did you mean "html"?', "Input should be 'html', 'react-email' or 'mjml'"],
    ];
    for (const [loc, type, input, hint, msg] of cases) expect(explained(issue(loc, type, msg), input).hint, loc.join(".")).toContain(hint);
    expect(explained(issue(["query", "target"], "literal_error", "Input should be 'html', 'react-email' or 'mjml'"), "pdf").hint).toBeUndefined();
  });
});

describe("configuration", () => {
  it("has safe defaults: SQLite under ./data, 1 MiB bodies, a staleness bound ≤ 5 s, rate limit on", () => {
    const config = loadConfig({});
    expect(config.database).toMatchObject({ kind: "sqlite" });
    expect(config.database.kind === "sqlite" && config.database.path.endsWith("data/mailrender.db")).toBe(true);
    expect(config.port).toBe(8787);
    expect(config.bodyLimitBytes).toBe(1_048_576);
    expect(config.cacheTtlMs).toBeLessThanOrEqual(5_000);
    expect(config.rateLimit.max).toBeGreaterThan(0);
  });

  it("reads PostgreSQL from DATABASE_URL and rejects bad values with clear messages", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u@h/db" }).database).toEqual({ kind: "postgres", url: "postgres://u@h/db" });
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(ConfigError);
    expect(() => loadConfig({ MAILRENDER_CACHE_TTL_MS: "60000" })).toThrow(/between 0 and 5000/);
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/whole number/);
  });
});

describe("request validation", () => {
  const compile = (httpPart: string, schema: z.ZodType) => zodValidatorCompiler({ schema, httpPart, method: "GET", url: "/x" });

  it("headers are checked, not replaced: Fastify would otherwise copy every header at each read of request.headers", () => {
    const check = compile("headers", z.object({ "if-none-match": z.string().optional() }));
    expect(check({ "if-none-match": '"abc"', "user-agent": "ua" })).toEqual({});
    expect(check({ "if-none-match": 7 })).toHaveProperty("error");
  });

  it("the other parts are replaced by what the schema made of them", () => {
    expect(compile("querystring", z.object({ n: z.coerce.number() }))({ n: "3" })).toEqual({ value: { n: 3 } });
  });
});

describe("a render thread's warm-up", () => {
  it("is a request that reads and renders, so it warms what a real one runs", async () => {
    const read = readRenderRequest(new TextEncoder().encode(WARM_UP_BODY));
    expect(read).toHaveProperty("request");
    const request = (read as { request: RenderRequest }).request;
    const result = await render(WARM_UP_TEMPLATE, { target: request.target, dynamicData: toDynamicData(request.dynamic_data) });
    expect(result.output).toContain("Hi warm");
  });
});
