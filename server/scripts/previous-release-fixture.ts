/**
 * Writes the databases a release of the server made, as SQL text, into
 * test/fixtures/previous-release/ for the upgrade test (test/upgrade.test.ts): `sqlite.sql` and
 * `postgres.sql`, plus `fixture.json` with the secrets
 * and ids the test uses. Each database is filled through the HTTP API of a running server, as an
 * operator's would be: an admin key (bootstrap), a render key limited to html and mjml, a template
 * replaced once, a second template, the studio's sample data for the first, a rotated key and a
 * revoked key.
 *
 * Run it only when a release is cut, from that release's checkout, with PostgreSQL available:
 *   eval "$(bash scripts/ensure-postgres.sh start)"
 *   MAILRENDER_TEST_DATABASE_URL="$DATABASE_URL" node_modules/.bin/tsx server/scripts/previous-release-fixture.ts
 *   bash scripts/ensure-postgres.sh stop "$MAILRENDER_PG_DATA"
 * and keep the release's files: the point is that later releases still read them.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { SERVER_VERSION } from "../src/version.js";
import { createTestDatabase, type TestDatabase } from "../test/helpers/databases.js";
import type { PreviousRelease } from "../test/helpers/previous-release.js";
import { call, startTestServer } from "../test/helpers/server.js";
import { sampleTemplate } from "../test/helpers/templates.js";

const HERE = fileURLToPath(new URL("../test/fixtures/previous-release/", import.meta.url));
const RECEIPT = JSON.parse(readFileSync(new URL("../demo/receipt.json", import.meta.url), "utf8")) as Record<string, unknown>;

async function fill(db: TestDatabase): Promise<PreviousRelease> {
  const server = await startTestServer({ database: db.config });
  try {
    const admin = server.adminKey;
    const post = async (path: string, body: unknown) => {
      const res = await call(server.url, "POST", path, { key: admin, body });
      if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
      return res.json;
    };
    const render = await post("/api/v1/keys", { name: "app", targets: ["html", "mjml"] });
    const welcome = await post("/api/v1/templates", sampleTemplate("Welcome"));
    const replaced = await call(server.url, "PUT", `/api/v1/templates/${welcome.id}`, { key: admin, body: sampleTemplate("Welcome, again") });
    const receipt = await post("/api/v1/templates", RECEIPT);
    const sample = { merge_tags: { text: { first_name: "Ada" } }, context: {} };
    const saved = await call(server.url, "PUT", `/api/v1/templates/${welcome.id}/sample`, { key: admin, body: { dynamic_data: sample } });
    if (saved.status !== 200) throw new Error(`sample: ${saved.status} ${saved.text}`);
    const rotated = await post("/api/v1/keys", { name: "rotated", targets: ["all"] });
    const rotation = await post(`/api/v1/keys/${rotated.id}/rotate`, { grace_period_seconds: 0 });
    const revoked = await post("/api/v1/keys", { name: "revoked", targets: ["html"] });
    await call(server.url, "DELETE", `/api/v1/keys/${revoked.id}`, { key: admin });
    return {
      admin_key: admin,
      render_key: render.key,
      rotated: { id: rotated.id, old_secret: rotated.key, new_secret: rotation.key },
      revoked_key: revoked.key,
      welcome: { id: welcome.id, version: replaced.json.version, etag: replaced.json.etag },
      receipt: { id: receipt.id, etag: receipt.etag },
      sample,
    };
  } finally {
    await server.close();
  }
}

/** SQLite's schema and rows as SQL statements, the way `sqlite3 .dump` writes them. */
function dumpSqlite(file: string): string {
  const db = new SQLite(file, { readonly: true });
  try {
    const objects = db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid")
      .all() as {
      type: string;
      name: string;
      sql: string;
    }[];
    const lines = ["PRAGMA foreign_keys=OFF;", "BEGIN TRANSACTION;"];
    for (const { type, name, sql } of objects) {
      lines.push(`${sql};`);
      if (type !== "table") continue;
      const columns = (db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => `quote("${c.name}")`).join(" || ',' || ");
      for (const row of db.prepare(`SELECT ${columns} AS v FROM "${name}" ORDER BY rowid`).all() as { v: string }[]) {
        lines.push(`INSERT INTO "${name}" VALUES(${row.v});`);
      }
    }
    lines.push("COMMIT;");
    return `${lines.join("\n")}\n`;
  } finally {
    db.close();
  }
}

const sqlite = await createTestDatabase("sqlite");
const postgres = await createTestDatabase("postgres");
try {
  const fixture = { server_version: SERVER_VERSION, sqlite: await fill(sqlite), postgres: await fill(postgres) };
  if (sqlite.config.kind !== "sqlite" || postgres.config.kind !== "postgres") throw new Error("unexpected backends");
  writeFileSync(`${HERE}sqlite.sql`, dumpSqlite(sqlite.config.path));
  const url = new URL(postgres.config.url);
  const dump = execFileSync("pg_dump", ["--inserts", "--no-owner", "--no-privileges", "--no-comments", `--dbname=${url.toString()}`], { encoding: "utf8" });
  // pg_dump's psql meta-commands (\restrict, from 17.6) are not SQL; the test runs the file through a client library.
  writeFileSync(`${HERE}postgres.sql`, dump.replace(/^\\.*\n/gm, ""));
  writeFileSync(`${HERE}fixture.json`, `${JSON.stringify(fixture, null, 2)}\n`);
  process.stdout.write(`wrote sqlite.sql, postgres.sql and fixture.json for server ${SERVER_VERSION}\n`);
} finally {
  await sqlite.drop();
  await postgres.drop();
}
