#!/usr/bin/env node
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { generateApiKey } from "./auth/keys.js";
import { backupDatabase, restoreDatabase } from "./backup.js";
import { ConfigError, type DatabaseConfig, loadConfigWithFile, type ServerConfig } from "./config.js";
import { demoBanner, seedDemo } from "./demo.js";
import { ApiError } from "./errors.js";
import { handleSignals, startServer } from "./server.js";
import { issueKey } from "./services/keys.js";
import { createTemplate, etagFor, prepareTemplate, requestedTemplateId } from "./services/templates.js";
import { KyselyStore } from "./store/kysely-store.js";
import type { Store } from "./store/types.js";
import { SERVER_VERSION } from "./version.js";

const USAGE = `usage: mailrender-server [command] [--config FILE]

The mailrender HTTP service and its maintenance commands, on the configured database.

commands:
  serve [--demo]              start the HTTP server (the default command); it migrates the database first.
                              --demo also seeds starter templates and demo keys and prints how to use them
                              (local development only)
  migrate                     bring the database's schema up to this release's, then exit
  create-admin-key [--name N] create an admin key in the database and print its secret once
  create-admin-key --print-only
                              print a fresh well-formed key without storing it (for MAILRENDER_ADMIN_KEY)
  import-templates <dir>      validate and store every *.json template in <dir>; a template whose
                              template_id is a UUID v4 keeps that id (and is replaced if it exists),
                              one without template_id (or with the id the Maildeno editor makes from
                              its name) gets a new one; another template_id fails that file
  backup <file>               write a consistent copy of the database to <file>, while servers run
                              (SQLite: VACUUM INTO; PostgreSQL: pg_dump --format=custom)
  restore <file>              replace the database's content with a backup, then migrate it;
                              stop the servers first (PostgreSQL: pg_restore)
  version, --version          print the server's version
  help, --help                print this text

options:
  --config FILE               read settings from FILE: KEY=value lines, as systemd's EnvironmentFile
                              reads them (also MAILRENDER_CONFIG=FILE); the environment overrides the file

settings: PORT, HOST, DATABASE_URL, MAILRENDER_SQLITE_PATH, MAILRENDER_ADMIN_KEY, MAILRENDER_TRUST_PROXY,
MAILRENDER_LOG_FORMAT, LOG_LEVEL and the limits: see the package's README (Configuration)`;

/** `--config FILE` (or `--config=FILE`) taken out of the arguments; MAILRENDER_CONFIG when absent. */
function takeConfigFile(argv: string[]): { file: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let file = process.env["MAILRENDER_CONFIG"]?.trim() || undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--config") {
      file = argv[++i];
      if (file === undefined || file === "") throw new ConfigError("--config needs a file");
    } else if (arg.startsWith("--config=")) file = arg.slice("--config=".length);
    else rest.push(arg);
  }
  return { file, rest };
}

let configFile: string | undefined;
const config = (): ServerConfig => loadConfigWithFile(configFile);

/** The database as an operator recognises it, without a password. */
function describeDatabase(database: DatabaseConfig): string {
  if (database.kind === "sqlite") return database.path;
  const url = new URL(database.url);
  if (url.password !== "") url.password = "***";
  return url.toString();
}

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = KyselyStore.open(config().database);
  try {
    await store.migrate();
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function serve(args: string[]): Promise<void> {
  const settings = config();
  const server = await startServer(settings);
  handleSignals(server, (msg) => server.app.log.info(msg));
  if (args.includes("--demo")) {
    const dataDir = settings.database.kind === "sqlite" && settings.database.path !== ":memory:" ? path.dirname(settings.database.path) : path.resolve("data");
    const { state } = await seedDemo(server.store, dataDir);
    const shown = settings.host === "0.0.0.0" || settings.host === "127.0.0.1" ? `http://localhost:${settings.port}` : server.url;
    process.stdout.write(`${demoBanner(shown, state, dataDir)}\n`);
  }
}

async function createAdminKey(args: string[]): Promise<void> {
  if (args.includes("--print-only")) {
    process.stdout.write(`${generateApiKey()}\n`);
    return;
  }
  const nameAt = args.indexOf("--name");
  const name = nameAt >= 0 ? (args[nameAt + 1] ?? "") : "cli-admin";
  if (name === "" || name.length > 100) throw new ConfigError("--name needs a value of 1 to 100 characters");
  const issued = await withStore((store) => issueKey(store, { name, targets: [], role: "admin" }));
  process.stderr.write(`created admin key ${issued.record.id} (${issued.record.name}); it is shown only once:\n`);
  process.stdout.write(`${issued.secret}\n`);
}

async function importTemplates(args: string[]): Promise<number> {
  const dir = args[0];
  if (dir === undefined) throw new ConfigError("import-templates needs a directory");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  if (files.length === 0) throw new ConfigError(`no *.json files in ${dir}`);
  let failures = 0;
  await withStore(async (store) => {
    for (const file of files) {
      try {
        const doc = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as unknown;
        if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new Error("not a JSON object");
        const record = doc as Record<string, unknown>;
        // A UUID v4 is kept (and replaced if it exists); no id or the editor's id from the name gets a new one; any other is refused.
        const wanted = requestedTemplateId(record, [file]);
        if (wanted !== undefined && (await store.getTemplate(wanted)) !== undefined) {
          const prepared = prepareTemplate(record, wanted, [file]);
          const updated = await store.replaceTemplate(wanted, {
            name: prepared.name,
            body: prepared.body,
            etagFor: (v) => etagFor(v, prepared.body),
            updatedAt: new Date().toISOString(),
          });
          process.stdout.write(`replaced ${file} -> ${wanted} (version ${typeof updated === "object" ? updated.version : "?"})\n`);
        } else {
          const { record: created } = await createTemplate(store, record, wanted, [file]);
          process.stdout.write(`created  ${file} -> ${created.id}\n`);
        }
      } catch (err) {
        failures += 1;
        const issues =
          err instanceof ApiError && err.issues !== undefined
            ? err.issues.map((i) => `\n    ${i.loc.join(".")}: ${i.msg} (${i.type})${i.hint ? `\n      ${i.hint}` : ""}`).join("")
            : "";
        process.stderr.write(`failed   ${file}: ${err instanceof Error ? err.message : String(err)}${issues}\n`);
      }
    }
  });
  return failures === 0 ? 0 : 1;
}

async function migrate(): Promise<void> {
  const { database } = config();
  const store = KyselyStore.open(database);
  try {
    const applied = await store.migrate();
    process.stdout.write(
      applied.length === 0 ? `${describeDatabase(database)}: the schema is up to date\n` : `${describeDatabase(database)}: applied ${applied.join(", ")}\n`,
    );
  } finally {
    await store.close();
  }
}

async function backup(args: string[]): Promise<void> {
  const file = args[0];
  if (file === undefined) throw new ConfigError("backup needs a file to write, e.g. backup /var/backups/mailrender-$(date +%F).db");
  const started = Date.now();
  const { database } = config();
  const summary = await backupDatabase(database, file);
  const rows =
    summary.rows === undefined
      ? ""
      : `; ${Object.entries(summary.rows)
          .map(([table, n]) => `${n} ${table}`)
          .join(", ")}`;
  process.stdout.write(
    `backed up ${describeDatabase(database)} to ${summary.file} (${(summary.bytes / 1024).toFixed(0)} KiB${rows}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

async function restore(args: string[]): Promise<void> {
  const file = args[0];
  if (file === undefined) throw new ConfigError("restore needs the backup file to read");
  const { database } = config();
  const applied = await restoreDatabase(database, file);
  process.stdout.write(`restored ${describeDatabase(database)} from ${file}${applied.length === 0 ? "" : `, then applied ${applied.join(", ")}`}\n`);
}

async function main(argv: string[]): Promise<number> {
  const { file, rest } = takeConfigFile(argv);
  configFile = file;
  const [command = "serve", ...args] = rest;
  switch (command) {
    case "serve":
      await serve(args);
      return -1; // keep running
    case "migrate":
      await migrate();
      return 0;
    case "create-admin-key":
      await createAdminKey(args);
      return 0;
    case "import-templates":
      return importTemplates(args);
    case "backup":
      await backup(args);
      return 0;
    case "restore":
      await restore(args);
      return 0;
    case "version":
    case "--version":
      process.stdout.write(`mailrender-server ${SERVER_VERSION}\n`);
      return 0;
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      process.stderr.write(`unknown command '${command}'\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    // Configuration mistakes get a one-line message; anything else a short reason, never a stack trace.
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`mailrender-server: ${err instanceof ConfigError ? "configuration error: " : ""}${message}\n`);
    process.exitCode = 1;
  },
);
