/**
 * Upgrading: a database a previous release made (test/fixtures/previous-release/, written by
 * scripts/previous-release-fixture.ts) is migrated by `mailrender-server migrate` and then served
 * by this release with every key, secret, template, version and sample as it was.
 */
import { readFileSync } from "node:fs";
import SQLite from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { DatabaseConfig } from "../src/config.js";
import { CLI_TIMEOUT_MS, databaseEnv, runCli } from "./helpers/cli.js";
import { BACKENDS, createTestDatabase } from "./helpers/databases.js";
import type { PreviousRelease } from "./helpers/previous-release.js";
import { call, startTestServer } from "./helpers/server.js";

const FIXTURE = new URL("./fixtures/previous-release/", import.meta.url);
const fixture = JSON.parse(readFileSync(new URL("fixture.json", FIXTURE), "utf8")) as { server_version: string } & Record<
  (typeof BACKENDS)[number],
  PreviousRelease
>;

async function load(database: DatabaseConfig): Promise<void> {
  if (database.kind === "sqlite") {
    const db = new SQLite(database.path);
    try {
      db.exec(readFileSync(new URL("sqlite.sql", FIXTURE), "utf8"));
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(readFileSync(new URL("postgres.sql", FIXTURE), "utf8"));
  } finally {
    await client.end();
  }
}

describe.each(BACKENDS)(`a %s database made by server ${fixture.server_version}`, (backend) => {
  it(
    "migrates, then serves its keys, secrets, templates, versions and samples as they were",
    async () => {
      const release = fixture[backend];
      const db = await createTestDatabase(backend);
      try {
        await load(db.config);
        const migrated = await runCli(["migrate"], databaseEnv(db.config));
        expect(migrated.status, migrated.stderr).toBe(0);
        expect(migrated.stdout).toMatch(/: (the schema is up to date|applied .+)\n$/);

        const server = await startTestServer({ database: db.config, adminKey: release.admin_key });
        try {
          const fetched = await call(server.url, "GET", `/v1/sdk/template/${release.welcome.id}?target=html`, { key: release.render_key });
          expect(fetched.status, fetched.text).toBe(200);
          expect(fetched.headers.get("etag")).toBe(release.welcome.etag);
          expect(fetched.json.template_name).toBe("Welcome, again");
          const unchanged = await call(server.url, "GET", `/v1/sdk/template/${release.welcome.id}`, {
            key: release.render_key,
            headers: { "if-none-match": release.welcome.etag },
          });
          expect(unchanged.status).toBe(304);
          expect((await call(server.url, "GET", `/v1/sdk/template/${release.receipt.id}?target=react-email`, { key: release.render_key })).status).toBe(403);

          const meta = await call(server.url, "GET", `/api/v1/templates/${release.welcome.id}`, { key: release.admin_key });
          expect(meta.json.version).toBe(release.welcome.version);
          const sample = await call(server.url, "GET", `/api/v1/templates/${release.welcome.id}/sample`, { key: release.admin_key });
          expect(sample.json).toEqual({ dynamic_data: release.sample, saved: true });

          expect((await call(server.url, "GET", `/v1/sdk/template/${release.receipt.id}`, { key: release.rotated.old_secret })).status).toBe(401);
          expect((await call(server.url, "GET", `/v1/sdk/template/${release.receipt.id}`, { key: release.rotated.new_secret })).status).toBe(200);
          expect((await call(server.url, "GET", `/v1/sdk/template/${release.receipt.id}`, { key: release.revoked_key })).status).toBe(401);

          // It renders, and it takes writes.
          const rendered = await call(server.url, "POST", "/v1/sdk/render", {
            key: release.render_key,
            body: { template_id: release.welcome.id, target: "html", dynamic_data: { merge_tags: { text: { first_name: "Ada" } } } },
          });
          expect(rendered.status, rendered.text).toBe(200);
          expect(rendered.text).toContain("Hi Ada");
          const replaced = await call(server.url, "PUT", `/api/v1/templates/${release.welcome.id}`, { key: release.admin_key, body: fetched.json });
          expect(replaced.json.version).toBe(release.welcome.version + 1);
          const created = await call(server.url, "POST", "/api/v1/keys", { key: release.admin_key, body: { name: "after-upgrade", targets: ["html"] } });
          expect(created.status).toBe(201);
        } finally {
          await server.close();
        }
      } finally {
        await db.drop();
      }
    },
    2 * CLI_TIMEOUT_MS,
  );
});
