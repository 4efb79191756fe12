import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseConfig } from "../../src/config.js";

/** A throwaway database for one test file: a temp SQLite file, or a fresh database on the test cluster. */
export interface TestDatabase {
  name: "sqlite" | "postgres";
  config: DatabaseConfig;
  drop(): Promise<void>;
}

export const BACKENDS = ["sqlite", "postgres"] as const;

/**
 * The PostgreSQL cluster comes from scripts/test-server.sh (scripts/ensure-postgres.sh). Without it
 * the PostgreSQL half of the suite fails loudly: it must never be silently skipped.
 */
export function postgresAdminUrl(): string {
  const url = process.env["MAILRENDER_TEST_DATABASE_URL"];
  if (url === undefined || url === "") {
    throw new Error("MAILRENDER_TEST_DATABASE_URL is not set: run the suite with `make test-server` (scripts/test-server.sh), which starts PostgreSQL");
  }
  return url;
}

export async function createTestDatabase(name: "sqlite" | "postgres"): Promise<TestDatabase> {
  if (name === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mailrender-test-"));
    return {
      name,
      config: { kind: "sqlite", path: path.join(dir, "test.db") },
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    };
  }
  const adminUrl = postgresAdminUrl();
  const dbName = `mr_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${dbName}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return {
    name,
    config: { kind: "postgres", url: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs raw SQL against a test database, bypassing the service (to plant corrupt rows, for example). */
export async function rawSql(db: DatabaseConfig, text: string, params: unknown[] = []): Promise<void> {
  if (db.kind === "postgres") {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(text, params);
    } finally {
      await client.end();
    }
    return;
  }
  const { default: SQLite } = await import("better-sqlite3");
  const conn = new SQLite(db.path);
  try {
    conn.prepare(text.replace(/\$\d+/g, "?")).run(...params);
  } finally {
    conn.close();
  }
}
