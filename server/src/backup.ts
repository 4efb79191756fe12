/**
 * `mailrender-server backup <file>` and `restore <file>` for the configured database.
 *
 * SQLite: `VACUUM INTO` copies the database inside one read transaction, so the copy holds exactly
 * what was committed when it began, while servers go on reading and writing (WAL: a reader never
 * blocks a writer, and unlike the page-by-page backup API it never restarts under writes). The copy
 * is written beside the target and renamed into place once it passes `integrity_check`. Restore
 * checks the backup, copies it into the database with SQLite's backup API (the database's own
 * locking, so no stray -wal file survives), then migrates it to this release's schema.
 *
 * PostgreSQL: `pg_dump --format=custom` (one snapshot of the database) and `pg_restore --clean
 * --single-transaction`, then the same migration; the password travels in PGPASSWORD, never in
 * the command line.
 */
import { spawnSync } from "node:child_process";
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { ConfigError, type DatabaseConfig } from "./config.js";
import { KyselyStore } from "./store/kysely-store.js";
import { migrationProvider } from "./store/migrations.js";

export interface BackupSummary {
  file: string;
  bytes: number;
  /** Rows per table of ours, as the backup holds them (SQLite; PostgreSQL's dump is not opened). */
  rows?: Record<string, number>;
}

const TABLES = ["templates", "template_samples", "api_keys", "api_key_secrets"] as const;

export async function backupDatabase(database: DatabaseConfig, file: string): Promise<BackupSummary> {
  const target = path.resolve(file);
  if (existsSync(target)) throw new ConfigError(`${target} exists: choose a new file name (a backup never overwrites one)`);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    if (database.kind === "sqlite") {
      if (database.path === ":memory:" || !existsSync(database.path)) throw new ConfigError(`there is no SQLite database at ${database.path}`);
      const source = new SQLite(database.path, { fileMustExist: true });
      try {
        source.pragma("busy_timeout = 5000");
        source.prepare("VACUUM INTO ?").run(partial);
      } finally {
        source.close();
      }
      const rows = await checkSqliteBackup(partial, "backup");
      renameSync(partial, target);
      return { file: target, bytes: statSync(target).size, rows };
    }
    pgTool("pg_dump", ["--format=custom", "--no-owner", `--file=${partial}`], database.url);
    renameSync(partial, target);
    return { file: target, bytes: statSync(target).size };
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Replaces the configured database's content with a backup's; stop the servers first. Returns the migrations applied after it. */
export async function restoreDatabase(database: DatabaseConfig, file: string): Promise<string[]> {
  const source = path.resolve(file);
  if (!existsSync(source)) throw new ConfigError(`there is no backup at ${source}`);
  if (database.kind === "sqlite") {
    if (database.path === ":memory:") throw new ConfigError("cannot restore into an in-memory database");
    await checkSqliteBackup(source, "restore");
    const backup = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      await backup.backup(database.path);
    } finally {
      backup.close();
    }
  } else {
    pgTool("pg_restore", ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error", source], database.url);
  }
  const store = KyselyStore.open(database);
  try {
    return await store.migrate();
  } finally {
    await store.close();
  }
}

/**
 * A backup file is usable: SQLite's integrity check passes, it is a mailrender database, and (to
 * restore it) its schema is one this release knows.
 */
async function checkSqliteBackup(file: string, purpose: "backup" | "restore"): Promise<Record<string, number>> {
  const known = new Set(Object.keys(await migrationProvider.getMigrations()));
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new ConfigError(`${file} is damaged: SQLite's integrity check says ${String(integrity)}`);
    const hasMigrations = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get() !== undefined;
    if (!hasMigrations) throw new ConfigError(`${file} is not a mailrender database (it has no kysely_migration table)`);
    const applied = (db.prepare("SELECT name FROM kysely_migration ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    const newer = applied.filter((name) => !known.has(name));
    if (purpose === "restore" && newer.length > 0)
      throw new ConfigError(`${file} was made by a newer release of mailrender (migrations ${newer.join(", ")}): restore it with that release`);
    const rows: Record<string, number> = {};
    for (const table of TABLES) {
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
      if (exists) rows[table] = (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    return rows;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${file} is not a SQLite database mailrender can read: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    db.close();
  }
}

/** Runs pg_dump / pg_restore against a postgres:// URL, with the password in the environment. */
function pgTool(tool: "pg_dump" | "pg_restore", args: string[], url: string): void {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  const run = spawnSync(tool, [...args, `--dbname=${parsed.toString()}`], {
    encoding: "utf8",
    env: { ...process.env, ...(password === "" ? {} : { PGPASSWORD: password }) },
    stdio: ["ignore", "inherit", "pipe"],
  });
  if (run.error !== undefined) {
    const missing = (run.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new ConfigError(
      missing
        ? `${tool} is not installed: install PostgreSQL's client tools (Debian: postgresql-client) of the server's major version or newer`
        : `${tool} could not run: ${run.error.message}`,
    );
  }
  if (run.status !== 0) throw new Error(`${tool} failed (exit ${run.status}): ${run.stderr.trim().replaceAll(password || "\0", "***")}`);
}
