/**
 * The client against the real server (child process, SQLite, free port). Network use is counted on
 * the server side, from its own request log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailrenderClient, type MailrenderConfig, MailrenderError } from "../src/index.js";
import { createKey, createTemplate, deleteTemplate, replaceTemplate, revokeKey, sampleTemplate } from "./helpers/admin.js";
import { type RealServer, startServer } from "./helpers/server.js";
import { tempDir } from "./helpers/temp.js";

let server: RealServer;
let allKey: string;
let htmlMjmlKey: string;
let templateId: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function client(config: MailrenderConfig = {}): MailrenderClient {
  return new MailrenderClient({ apiKey: allKey, baseUrl: server.url, ...config });
}

/** Template fetches the server answered since `before` (a previous result of templateFetches()). */
async function fetchesSince(before: number): Promise<{ url: string; status: number }[]> {
  return (await server.templateFetches()).slice(before);
}

async function fetchCount(): Promise<number> {
  return (await server.templateFetches()).length;
}

beforeAll(async () => {
  server = await startServer();
  allKey = (await createKey(server, ["all"])).key;
  htmlMjmlKey = (await createKey(server, ["html", "mjml"])).key;
  templateId = await createTemplate(server, sampleTemplate("Hello"));
});

afterAll(async () => {
  await server?.stop();
});

describe("fetch, render and cache", () => {
  it("fetches the template once, then renders from the cache without any request", async () => {
    const c = client();
    const before = await fetchCount();
    const first = await c.render({ templateId, dynamicData: { merge_tags: { text: { first_name: "Ada" } } } });
    expect(first).toMatchObject({ target: "html", templateId, fromStaleCache: false });
    expect(first.output).toContain("Hello Ada");
    expect(first.output.startsWith("<!doctype html>") || first.output.toLowerCase().startsWith("<!doctype html")).toBe(true);

    const fetched = await fetchesSince(before);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toMatchObject({ url: `/v1/sdk/template/${templateId}?target=html`, status: 200 });

    // Every method and target, other data: all from the cache (the key allows every target).
    expect(await c.renderHtml(templateId)).toContain("Hello there");
    expect(await c.renderMjml(templateId, { merge_tags: { text: { first_name: "Bo" } } })).toMatch(/^<mjml[\s>][\s\S]*Hello Bo/);
    expect(await c.renderReact(templateId)).toContain("Hello there");
    expect((await c.render({ templateId, target: "react-email" })).target).toBe("react-email");
    expect(await fetchCount()).toBe(before + 1);
    expect(c.listCached()).toEqual([templateId]);
  });

  it("renders what the deprecated server endpoint renders for the same data (in-process, same engine)", async () => {
    const dynamicData = { merge_tags: { text: { first_name: "Eve <script>" } }, context: { plan: "pro" } };
    for (const target of ["html", "mjml", "react-email"] as const) {
      const local = await client().render({ templateId, target, dynamicData });
      const res = await fetch(`${server.url}/v1/sdk/render`, {
        method: "POST",
        headers: { authorization: `Bearer ${allKey}`, "content-type": "application/json" },
        body: JSON.stringify({ template_id: templateId, target, dynamic_data: dynamicData }),
      });
      expect(res.status).toBe(200);
      expect(local.output).toBe(await res.text());
    }
  });

  it("concurrent first renders of one template share one request", async () => {
    const c = client();
    const before = await fetchCount();
    const outputs = await Promise.all(Array.from({ length: 8 }, () => c.renderHtml(templateId)));
    expect(new Set(outputs).size).toBe(1);
    expect(await fetchCount()).toBe(before + 1);
  });

  it("after the ttl, revalidates with If-None-Match: a 304 renews the entry without a body", async () => {
    const c = client({ cache: { ttl: 300 } });
    const before = await fetchCount();
    const first = await c.renderHtml(templateId);
    await c.renderHtml(templateId); // fresh: no request
    expect(await fetchesSince(before)).toHaveLength(1);

    await sleep(350);
    expect(await c.renderHtml(templateId)).toBe(first);
    const afterExpiry = await fetchesSince(before);
    expect(afterExpiry.map((r) => r.status)).toEqual([200, 304]);

    await c.renderHtml(templateId); // renewed by the 304: fresh again
    expect(await fetchesSince(before)).toHaveLength(2);
  });

  it("after the ttl, a changed template is fetched in full and the new version rendered", async () => {
    const id = await createTemplate(server, sampleTemplate("Version one"));
    const c = client({ cache: { ttl: 200 } });
    expect(await c.renderHtml(id)).toContain("Version one");
    await replaceTemplate(server, id, sampleTemplate("Version two"));
    expect(await c.renderHtml(id)).toContain("Version one"); // still fresh: the cached copy
    await sleep(250);
    const before = await fetchCount();
    expect(await c.renderHtml(id)).toContain("Version two");
    expect((await fetchesSince(before)).map((r) => r.status)).toEqual([200]);
  });

  it("a memory cache that is full evicts the entry fetched longest ago (not the least recently used)", async () => {
    const ids = [
      await createTemplate(server, sampleTemplate("A")),
      await createTemplate(server, sampleTemplate("B")),
      await createTemplate(server, sampleTemplate("C")),
    ];
    const c = client({ cache: { maxEntries: 2 } });
    await c.renderHtml(ids[0]!);
    await c.renderHtml(ids[1]!);
    await c.renderHtml(ids[0]!); // a cache hit does not make A younger: it was still fetched first
    await c.renderHtml(ids[2]!);
    expect(c.listCached()).toEqual([ids[1], ids[2]]);
  });

  it("deleteCached, clearCache and the deprecated invalidate (warns once) drop entries", async () => {
    const c = client();
    const other = await createTemplate(server, sampleTemplate("Other"));
    await c.renderHtml(templateId);
    await c.renderHtml(other);
    expect(c.listCached().sort()).toEqual([templateId, other].sort());

    expect(c.deleteCached(other)).toBe(true);
    expect(c.deleteCached(other)).toBe(false);
    expect(c.listCached()).toEqual([templateId]);

    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      expect(c.invalidate(templateId)).toBe(true);
      await c.renderHtml(templateId);
      expect(c.invalidate(templateId)).toBe(true);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.name === "DeprecationWarning" && /invalidate\(\) is deprecated; use deleteCached/.test(w.message))).toHaveLength(1);

    await c.renderHtml(templateId);
    await c.renderHtml(other);
    await c.clearCache();
    expect(c.listCached()).toEqual([]);
    const before = await fetchCount();
    await c.renderHtml(templateId);
    expect(await fetchCount()).toBe(before + 1);
  });
});

describe("stale-on-error", () => {
  it("uses the expired copy with fromStaleCache when the server is stopped, and raises with no copy", async () => {
    const own = await startServer();
    try {
      const key = (await createKey(own, ["html"])).key;
      const id = await createTemplate(own, sampleTemplate("Stale"));
      const c = new MailrenderClient({ apiKey: key, baseUrl: own.url, cache: { ttl: 100 } });
      const fresh = await c.render({ templateId: id });
      expect(fresh.fromStaleCache).toBe(false);
      await own.stop();
      await sleep(150);

      const stale = await c.render({ templateId: id });
      expect(stale).toMatchObject({ output: fresh.output, fromStaleCache: true });

      const none = await c.renderHtml("9b2f1c1e-4a44-4c1c-8f6b-0d6a0b1f2e3d").catch((e: unknown) => e);
      expect(none).toMatchObject({ code: "NETWORK_ERROR", status: 0 });
      // The scope still holds on stale renders.
      await expect(c.render({ templateId: id, target: "mjml" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    } finally {
      await own.stop();
    }
  });

  it("a 404 on revalidation is an answer: raised, and the stale entry dropped", async () => {
    const id = await createTemplate(server, sampleTemplate("Doomed"));
    const c = client({ cache: { ttl: 100 } });
    await c.renderHtml(id);
    await deleteTemplate(server, id);
    await sleep(150);
    await expect(c.renderHtml(id)).rejects.toMatchObject({ code: "TEMPLATE_NOT_FOUND", status: 404 });
    expect(c.listCached()).not.toContain(id);
  });

  it("a 401 on revalidation (revoked key) is raised, not served stale", async () => {
    const { key, id: keyId } = await createKey(server, ["html"]);
    const c = new MailrenderClient({ apiKey: key, baseUrl: server.url, cache: { ttl: 100 } });
    await c.renderHtml(templateId);
    await revokeKey(server, keyId);
    await sleep(150);
    await expect(c.renderHtml(templateId)).rejects.toMatchObject({ code: "INVALID_API_KEY", status: 401 });
  });
});

describe("errors from the service", () => {
  it("401 → INVALID_API_KEY", async () => {
    const c = new MailrenderClient({ apiKey: `sk_live_${"0".repeat(64)}`, baseUrl: server.url });
    const error = await c.renderHtml(templateId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailrenderError);
    expect(error).toMatchObject({ code: "INVALID_API_KEY", status: 401, issues: [] });
    expect((error as Error).message).not.toContain("0".repeat(64));
  });

  it("403 → FORBIDDEN naming the key's targets and the requested target (the server's message)", async () => {
    const c = new MailrenderClient({ apiKey: htmlMjmlKey, baseUrl: server.url });
    const before = await fetchCount();
    const error = await c.renderReact(templateId).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "FORBIDDEN", status: 403, message: "API key is limited to targets [html, mjml]; requested 'react-email'" });
    expect((await fetchesSince(before)).map((r) => r.status)).toEqual([403]);
  });

  it("404 → TEMPLATE_NOT_FOUND", async () => {
    const error = await client()
      .renderHtml("3f1b6a52-8a8e-4d4b-9a51-2c1f4f0b7e11")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TEMPLATE_NOT_FOUND", status: 404 });
  });

  it("422 → RENDER_ERROR with the service's issues", async () => {
    const error = await client()
      .renderHtml("not-a-uuid")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "RENDER_ERROR", status: 422 });
    expect((error as MailrenderError).issues[0]).toMatchObject({ loc: ["path", "id"], type: "uuid_parsing" });
  });

  it("a failed in-process render (strict, missing merge tag) → RENDER_ERROR with the engine's issues", async () => {
    const id = await createTemplate(server, sampleTemplate("Strict {{company}}"));
    const error = await client()
      .render({ templateId: id, strict: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "RENDER_ERROR", status: 422, issues: [{ loc: ["dynamic_data", "merge_tags", "company"], type: "missing_merge_tag" }] });
  });

  it("an in-process render asking for gigabytes is refused before it is built: RENDER_ERROR output_too_large, and the next render answers", async () => {
    // 500 paragraphs of 200 tags (100,000 slots) and one 64 KB value of "<": 26 GB asked for.
    const paragraph = { type: "paragraph", props: { content: `<p>${"{{ v }} ".repeat(200)}</p>` } };
    const id = await createTemplate(server, { ...sampleTemplate(), rows: Array.from({ length: 500 }, () => ({ columns: [{ children: [paragraph] }] })) });
    const c = client();
    await c.render({ templateId: id }); // fetched and compiled: what follows is the per-recipient cost
    const started = process.cpuUsage();
    const error = await c.render({ templateId: id, dynamicData: { merge_tags: { text: { v: "<".repeat(65_536) } } } }).catch((e: unknown) => e);
    const { user, system } = process.cpuUsage(started);
    expect(error).toMatchObject({ code: "RENDER_ERROR", status: 422, issues: [{ loc: [], type: "output_too_large" }] });
    expect((user + system) / 1000).toBeLessThan(2000); // ~0.1 s; substituting first ran for minutes into gigabytes
    expect((await c.render({ templateId: id, dynamicData: { merge_tags: { text: { v: "x" } } } })).output).toContain("x x x");
  });

  it("4xx answers are never retried", async () => {
    const before = await fetchCount();
    await expect(client().renderHtml("0b6d0a52-8a8e-4d4b-9a51-2c1f4f0b7e11")).rejects.toMatchObject({ status: 404 });
    expect(await fetchesSince(before)).toHaveLength(1);
  });
});

describe("target scope enforced from the cache (X-Key-Targets)", () => {
  it("a cached render outside the key's scope is FORBIDDEN without a request, with the server's wording", async () => {
    const c = new MailrenderClient({ apiKey: htmlMjmlKey, baseUrl: server.url });
    await c.renderHtml(templateId);
    const before = await fetchCount();
    expect(await c.renderMjml(templateId)).toContain("<mjml");
    const error = await c.renderReact(templateId).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "FORBIDDEN", status: 403, message: "API key is limited to targets [html, mjml]; requested 'react-email'" });
    expect(await fetchCount()).toBe(before);
  });

  it("an entry cached under another key does not lend its scope: this key's scope is learned with a conditional request", async () => {
    const dir = tempDir("scope");
    const wide = new MailrenderClient({ apiKey: allKey, baseUrl: server.url, cache: { type: "disk", path: dir } });
    await wide.renderReact(templateId);
    const narrow = new MailrenderClient({ apiKey: htmlMjmlKey, baseUrl: server.url, cache: { type: "disk", path: dir } });
    const before = await fetchCount();
    await expect(narrow.renderReact(templateId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await fetchesSince(before)).map((r) => r.status)).toEqual([403]);
    await narrow.renderHtml(templateId); // learns its own scope through a 304
    expect((await fetchesSince(before)).map((r) => r.status)).toEqual([403, 304]);
    await expect(narrow.renderReact(templateId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await fetchesSince(before)).toHaveLength(2); // now refused from the cache
  });
});
