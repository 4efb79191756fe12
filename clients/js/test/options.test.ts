/** Construction and argument checks: no network is involved in any of these. */
import { inspect } from "node:util";
import * as engine from "@mailrender/engine";
import { describe, expect, it } from "vitest";
import * as C from "../src/constants.js";
import { MailrenderClient, type MailrenderConfig, MailrenderError, RENDER_TARGETS } from "../src/index.js";
import { resolveConfig } from "../src/options.js";

const KEY = `sk_live_${"a".repeat(64)}`;

function constructionError(config: unknown): unknown {
  try {
    new MailrenderClient(config as MailrenderConfig);
  } catch (error) {
    return error;
  }
  throw new Error("construction did not fail");
}

describe("defaults (service spec, Clients)", () => {
  it("fills every default from the constants module", () => {
    const resolved = resolveConfig({ apiKey: KEY }, {});
    expect(resolved.baseUrl).toBe("http://localhost:8787");
    expect(resolved.timeout).toBe(30_000);
    expect(resolved.cache).toEqual({ type: "memory", path: ".mailrender-cache", ttl: 300_000, maxEntries: 50 });
    expect(resolved.fetch).toBe(globalThis.fetch);
  });

  it("takes the key and the address from the environment when not given", () => {
    const resolved = resolveConfig(undefined, { MAILRENDER_API_KEY: KEY, MAILRENDER_BASE_URL: "https://mail.example.test/base/" });
    expect(resolved.apiKey).toBe(KEY);
    expect(resolved.baseUrl).toBe("https://mail.example.test/base");
  });

  it("prefers constructor values over the environment", () => {
    const resolved = resolveConfig({ apiKey: "sk_other", baseUrl: "http://127.0.0.1:1" }, { MAILRENDER_API_KEY: KEY, MAILRENDER_BASE_URL: "http://x.test" });
    expect(resolved.apiKey).toBe("sk_other");
    expect(resolved.baseUrl).toBe("http://127.0.0.1:1");
  });

  it("keeps the client's target list equal to the engine's", () => {
    expect([...RENDER_TARGETS]).toEqual([...engine.RENDER_TARGETS]);
    expect(C.CLIENT_VERSION).toBe("2.1.4");
  });
});

describe("rejected configurations", () => {
  it("an empty or missing API key fails at construction with INVALID_API_KEY", () => {
    for (const apiKey of ["", "   "]) {
      const error = constructionError({ apiKey });
      expect(error).toBeInstanceOf(MailrenderError);
      expect(error).toMatchObject({ code: "INVALID_API_KEY", status: 0 });
    }
    expect(() => resolveConfig({}, {})).toThrow(MailrenderError);
    expect(() => resolveConfig({}, { MAILRENDER_API_KEY: "" })).toThrow(/MAILRENDER_API_KEY/);
  });

  it("cacheTtl and cacheMaxEntries (removed in 2.1.0) name their replacement", () => {
    for (const option of ["cacheTtl", "cacheMaxEntries"]) {
      const error = constructionError({ apiKey: KEY, [option]: 1000 });
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain(`'${option}' was removed in 2.1.0`);
      expect((error as Error).message).toContain("cache: { ttl, maxEntries }");
    }
  });

  it("unknown options are rejected with the list of known ones, at both levels", () => {
    expect(constructionError({ apiKey: KEY, timeoutMs: 5 })).toMatchObject({ message: expect.stringContaining("unknown option 'timeoutMs'") as unknown });
    expect(constructionError({ apiKey: KEY, cache: { ttl: 5, size: 3 } })).toMatchObject({
      message: expect.stringContaining("unknown option 'cache.size'") as unknown,
    });
  });

  it.each([
    [{ timeout: 0 }, /timeout/],
    [{ timeout: "5" }, /timeout/],
    [{ baseUrl: "not a url" }, /baseUrl/],
    [{ baseUrl: "ftp://x.test" }, /http or https/],
    [{ cache: { type: "redis" } }, /cache.type/],
    [{ cache: { ttl: -1 } }, /cache.ttl/],
    [{ cache: { maxEntries: 0 } }, /cache.maxEntries/],
    [{ cache: { maxEntries: 1.5 } }, /cache.maxEntries/],
    [{ cache: { path: "" } }, /cache.path/],
    [{ cache: "disk" }, /cache must be an object/],
    [{ fetch: "nope" }, /fetch must be a function/],
  ])("%j is refused", (config, message) => {
    expect(() => new MailrenderClient({ apiKey: KEY, ...(config as object) } as MailrenderConfig)).toThrow(message);
  });

  it("the API key never shows when the client is printed or serialised", () => {
    const client = new MailrenderClient({ apiKey: KEY, baseUrl: "http://127.0.0.1:1" });
    expect(inspect(client, { showHidden: true, depth: 10 })).not.toContain(KEY.slice(8));
    expect(JSON.stringify(client)).not.toContain(KEY.slice(8));
    expect(client.baseUrl).toBe("http://127.0.0.1:1");
  });
});

describe("render arguments are checked before any network call", () => {
  // Port 9 on loopback: nothing listens, so reaching the network would give NETWORK_ERROR, not these.
  const client = new MailrenderClient({ apiKey: KEY, baseUrl: "http://127.0.0.1:9" });

  it.each([
    [{ templateId: "" }, ["templateId"], "string_type"],
    [{}, ["templateId"], "missing"],
    [{ templateId: "t", target: "pdf" }, ["target"], "literal_error"],
    [{ templateId: "t", dynamic_data: {} }, ["dynamic_data"], "extra_forbidden"],
    [{ templateId: "t", dynamicData: [] }, ["dynamicData"], "dict_type"],
    [{ templateId: "t", minify: "yes" }, ["minify"], "bool_type"],
  ])("%j → RENDER_ERROR at %j", async (options, loc, type) => {
    const error = await client.render(options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailrenderError);
    expect(error).toMatchObject({ code: "RENDER_ERROR", status: 422, issues: [{ loc, type }] });
  });
});

describe("an API key no HTTP header can carry", () => {
  it("is INVALID_API_KEY at construction, not fetch's TypeError, and the message does not show it", () => {
    const attempt = (): unknown => new MailrenderClient({ apiKey: "sk_live_été" });
    expect(attempt).toThrow(MailrenderError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: "INVALID_API_KEY", status: 0 });
      expect((error as Error).message).not.toContain("sk_live");
    }
  });
});
