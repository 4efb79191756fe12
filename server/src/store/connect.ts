import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, type DatabaseConnection, type Driver, Kysely, PostgresDialect, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from "kysely";
import pg from "pg";
import type { DatabaseConfig } from "../config.js";
import type { Database } from "./schema.js";

/**
 * Write transactions take the write lock at BEGIN (`BEGIN IMMEDIATE`), so they wait for
 * `busy_timeout` when another process (a CLI import, a second server) holds it. A deferred BEGIN
 * reads first and then fails at once with SQLITE_BUSY when it tries to upgrade to a writer.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly sqliteConfig: SqliteDialectConfig) {
    super(sqliteConfig);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.sqliteConfig);
  }
}

/** Opens the one Kysely instance the store queries through, whichever database is configured. */
export function connect(config: DatabaseConfig): Kysely<Database> {
  if (config.kind === "sqlite") {
    if (config.path !== ":memory:") mkdirSync(path.dirname(config.path), { recursive: true });
    const db = new SQLite(config.path);
    // WAL lets the CLI and the server (or two servers) use the file at once; busy_timeout waits out locks.
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.pragma("foreign_keys = ON");
    return new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: db }) });
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    // Fail fast when the database is unreachable so callers get a 503 instead of hanging.
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
  });
  // A client losing its connection (idle or checked out) must not crash the process: pg emits
  // 'error' on it, and the query in progress, if any, fails on its own and becomes a 503.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
