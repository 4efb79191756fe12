/**
 * The disk cache: one JSON file per template, written atomically, shared by separate processes
 * (child processes running the built package), surviving restarts, treating a bad file as a miss.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailrenderClient } from "../src/index.js";
import { createKey, createTemplate, sampleTemplate } from "./helpers/admin.js";
import { type RealServer, startServer } from "./helpers/server.js";
import { tempDir } from "./helpers/temp.js";

interface ChildResult {
  outputs: Record<string, string>;
  stale: number;
  networkCalls: number;
  errors: string[];
  listed: string[];
}

interface ChildJob {
  baseUrl: string;
  apiKey: string;
  cacheDir: string;
  templateIds: string[];
  ttl?: number;
  rounds?: number;
}

const CHILD = new URL("./helpers/child-render.mjs", import.meta.url).pathname;

function runChild(job: ChildJob): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, JSON.stringify(job)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`child exited with ${String(code)}: ${err}`));
      else resolve(JSON.parse(out) as ChildResult);
    });
  });
}

let server: RealServer;
let key: string;
let ids: string[];

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, ["html", "mjml"])).key;
  ids = [];
  for (const name of ["Alpha", "Beta", "Gamma"]) ids.push(await createTemplate(server, sampleTemplate(name)));
});

afterAll(async () => {
  await server?.stop();
});

describe("disk cache files", () => {
  it("writes one JSON file per template, atomically (no temp file left), without the API key", async () => {
    const dir = tempDir("disk");
    const c = new MailrenderClient({ apiKey: key, baseUrl: server.url, cache: { type: "disk", path: dir } });
    await c.renderHtml(ids[0]!);
    await c.renderHtml(ids[1]!);
    expect(readdirSync(dir).sort()).toEqual([`${ids[0]}.json`, `${ids[1]}.json`].sort());
    const text = readFileSync(path.join(dir, `${ids[0]}.json`), "utf8");
    const entry = JSON.parse(text) as Record<string, unknown>;
    expect(entry).toMatchObject({
      templateId: ids[0],
      etag: expect.any(String) as unknown,
      fetchedAt: expect.any(Number) as unknown,
      scope: { targets: ["html", "mjml"], complete: true },
    });
    expect((entry["template"] as Record<string, unknown>)["template_id"]).toBe(ids[0]);
    expect(text).not.toContain(key.slice(8));
    expect(c.listCached().sort()).toEqual([ids[0], ids[1]].sort());
  });

  it("a corrupt or truncated file is a miss: refetched in full and rewritten", async () => {
    const dir = tempDir("disk");
    const c = new MailrenderClient({ apiKey: key, baseUrl: server.url, cache: { type: "disk", path: dir } });
    const good = await c.renderHtml(ids[0]!);
    const file = path.join(dir, `${ids[0]}.json`);
    for (const bad of ["{not json", readFileSync(file, "utf8").slice(0, 40), JSON.stringify({ format: 1, templateId: "someone-else" })]) {
      writeFileSync(file, bad);
      const before = (await server.templateFetches()).length;
      expect(await c.renderHtml(ids[0]!)).toBe(good);
      expect((await server.templateFetches()).slice(before).map((r) => r.status)).toEqual([200]);
      expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ templateId: ids[0] });
    }
  });

  it("maxEntries keeps the files written most recently", async () => {
    const dir = tempDir("disk");
    const c = new MailrenderClient({ apiKey: key, baseUrl: server.url, cache: { type: "disk", path: dir, maxEntries: 2 } });
    for (const id of ids) {
      await c.renderHtml(id);
      await new Promise((r) => setTimeout(r, 20)); // distinct mtimes
    }
    expect(c.listCached().sort()).toEqual([ids[1], ids[2]].sort());
  });

  it("clearCache must be awaited and removes every file", async () => {
    const dir = tempDir("disk");
    const c = new MailrenderClient({ apiKey: key, baseUrl: server.url, cache: { type: "disk", path: dir } });
    for (const id of ids) await c.renderHtml(id);
    const pending = c.clearCache();
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    expect(readdirSync(dir)).toEqual([]);
    expect(c.listCached()).toEqual([]);
  });
});

describe("several processes on one folder", () => {
  it("an entry written by one process is used by another without a request, and survives restarts", async () => {
    const dir = tempDir("disk");
    const job = { baseUrl: server.url, apiKey: key, cacheDir: dir, templateIds: ids };
    const before = (await server.templateFetches()).length;

    const first = await runChild(job);
    expect(first.errors).toEqual([]);
    expect(first.networkCalls).toBe(3);
    expect(first.outputs[ids[0]!]).toContain("Alpha Worker");

    // A new process (a restart): everything from disk, nothing on the wire.
    const second = await runChild(job);
    expect(second).toMatchObject({ networkCalls: 0, stale: 0, errors: [], outputs: first.outputs });
    expect(second.listed.sort()).toEqual([...ids].sort());
    expect((await server.templateFetches()).length).toBe(before + 3);

    // This process sees the other processes' entries too.
    const here = new MailrenderClient({ apiKey: key, baseUrl: server.url, cache: { type: "disk", path: dir } });
    expect(here.listCached().sort()).toEqual([...ids].sort());
  });

  it("a reader never sees a torn file while another process keeps rewriting the entries", async () => {
    const dir = tempDir("disk");
    const base = { baseUrl: server.url, apiKey: key, cacheDir: dir, templateIds: ids };
    await runChild(base); // warm
    // The writer revalidates on every render (ttl 0): each 304 rewrites the file. The reader trusts
    // the cache for an hour: any unreadable file would make it fetch, which it counts.
    const [writer, reader] = await Promise.all([runChild({ ...base, ttl: 0, rounds: 25 }), runChild({ ...base, ttl: 3_600_000, rounds: 400 })]);
    expect(writer.errors).toEqual([]);
    expect(writer.networkCalls).toBe(75);
    expect(reader).toMatchObject({ networkCalls: 0, errors: [] });
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("two cold processes racing to fill the same folder both succeed and leave valid files", async () => {
    const dir = tempDir("disk");
    const job = { baseUrl: server.url, apiKey: key, cacheDir: dir, templateIds: ids, rounds: 3 };
    const [a, b] = await Promise.all([runChild(job), runChild(job)]);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    expect(a.outputs).toEqual(b.outputs);
    expect(readdirSync(dir).sort()).toEqual(ids.map((id) => `${id}.json`).sort());
  });

  it("after a restart with the server down, expired entries are served stale from disk", async () => {
    const own = await startServer();
    try {
      const k = (await createKey(own, ["html"])).key;
      const id = await createTemplate(own, sampleTemplate("Outage"));
      const dir = tempDir("disk");
      const warm = await runChild({ baseUrl: own.url, apiKey: k, cacheDir: dir, templateIds: [id] });
      await own.stop();
      const after = await runChild({ baseUrl: own.url, apiKey: k, cacheDir: dir, templateIds: [id], ttl: 0 });
      expect(after).toMatchObject({ stale: 1, errors: [], outputs: warm.outputs });
      expect(after.networkCalls).toBe(3); // the first attempt and two retries, all refused
    } finally {
      await own.stop();
    }
  });
});
