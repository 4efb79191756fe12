import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));

/** Counts answers by status, e.g. `{200: 80}`; the tests expect no other key. */
function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe("concurrent writers", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it("PostgreSQL: 8 writers replacing one template through two servers all succeed, each with its own version", async () => {
    const db: TestDatabase = await createTestDatabase("postgres");
    cleanup.push(() => db.drop());
    const a: TestServer = await startTestServer({ database: db.config });
    const b: TestServer = await startTestServer({ database: db.config, adminKey: a.adminKey });
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const created = await call(a.url, "POST", "/api/v1/templates", { key: a.adminKey, body: sampleTemplate("contended") });
    expect(created.status).toBe(201);
    const id: string = created.json.id;

    const WRITERS = 8;
    const ROUNDS = 10;
    const versions: number[] = [];
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let r = 0; r < ROUNDS; r++) {
          const server = w % 2 === 0 ? a : b;
          const res = await call(server.url, "PUT", `/api/v1/templates/${id}`, { key: a.adminKey, body: sampleTemplate(`w${w} r${r}`) });
          statuses.push(res.status);
          if (res.status === 200) versions.push(res.json.version);
        }
      }),
    );
    expect(tally(statuses)).toEqual({ 200: WRITERS * ROUNDS });
    expect(new Set(versions).size).toBe(WRITERS * ROUNDS);
    const final = await call(a.url, "GET", `/api/v1/templates/${id}`, { key: a.adminKey });
    expect(final.json.version).toBe(1 + WRITERS * ROUNDS);
  });

  it("SQLite: a CLI import next to a running server writing the same templates gives 0 errors on either side", async () => {
    const db: TestDatabase = await createTestDatabase("sqlite");
    cleanup.push(() => db.drop());
    const server = await startTestServer({ database: db.config });
    cleanup.push(() => server.close());
    if (db.config.kind !== "sqlite") throw new Error("unreachable");

    const COUNT = 60;
    const dir = mkdtempSync(path.join(os.tmpdir(), "mailrender-import-"));
    cleanup.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    const ids: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      const res = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: sampleTemplate(`t${i}`) });
      ids.push(res.json.id);
      writeFileSync(path.join(dir, `t${String(i).padStart(3, "0")}.json`), JSON.stringify({ ...sampleTemplate(`imported ${i}`), template_id: res.json.id }));
    }

    // The importer runs twice in a row in its own process; the server writes the same rows meanwhile.
    const { DATABASE_URL: _ignored, ...env } = process.env;
    const importer = spawn("bash", ["-c", 'for i in 1 2; do node --import tsx src/cli.ts import-templates "$0" || exit 1; done', dir], {
      cwd: SERVER_DIR,
      env: { ...env, MAILRENDER_SQLITE_PATH: db.config.path },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let importerOut = "";
    importer.stdout.on("data", (c: Buffer) => (importerOut += c.toString()));
    importer.stderr.on("data", (c: Buffer) => (importerOut += c.toString()));
    const importerExit = new Promise<number | null>((resolve) => importer.on("exit", resolve));
    let running = true;
    void importerExit.then(() => (running = false));

    const statuses: number[] = [];
    let n = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (running) {
          const id = ids[n++ % COUNT] as string;
          const res = await call(server.url, "PUT", `/api/v1/templates/${id}`, { key: server.adminKey, body: sampleTemplate(`server ${n}`) });
          statuses.push(res.status);
        }
      }),
    );
    const importerCode = await importerExit;
    const replaced = (importerOut.match(/^replaced /gm) ?? []).length;
    expect(importerCode, importerOut.slice(-2_000)).toBe(0);
    expect(replaced).toBe(2 * COUNT);
    expect(statuses.length).toBeGreaterThan(20); // the two writers really overlapped
    expect(tally(statuses)).toEqual({ 200: statuses.length });
  }, 120_000);
});
