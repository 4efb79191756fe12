#!/usr/bin/env node
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { generateApiKey } from "./auth/keys.js";
import { ConfigError, loadConfig } from "./config.js";
import { demoBanner, seedDemo } from "./demo.js";
import { ApiError } from "./errors.js";
import { handleSignals, startServer } from "./server.js";
import { issueKey } from "./services/keys.js";
import { createTemplate, etagFor, prepareTemplate } from "./services/templates.js";
import { KyselyStore } from "./store/kysely-store.js";
import type { Store } from "./store/types.js";

const USAGE = `usage: mailrender-server [command]

commands:
  serve [--demo]              start the HTTP server (default command); --demo seeds a demo template and keys
  create-admin-key [--name N] create an admin key in the configured database and print it once
  create-admin-key --print-only
                              print a fresh well-formed key without storing it (for MAILRENDER_ADMIN_KEY)
  import-templates <dir>      validate and store every *.json template in <dir>; a template whose
                              template_id is a UUID v4 keeps that id (and is replaced if it exists)

configuration comes from the environment: see server/README.md`;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = KyselyStore.open(loadConfig().database);
  try {
    await store.migrate();
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function serve(args: string[]): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config);
  handleSignals(server, (msg) => server.app.log.info(msg));
  if (args.includes("--demo")) {
    const dataDir = config.database.kind === "sqlite" && config.database.path !== ":memory:" ? path.dirname(config.database.path) : path.resolve("data");
    const { state } = await seedDemo(server.store, dataDir);
    const shown = config.host === "0.0.0.0" || config.host === "127.0.0.1" ? `http://localhost:${config.port}` : server.url;
    process.stdout.write(`${demoBanner(shown, state)}\n`);
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
        const wanted = typeof record["template_id"] === "string" && UUID_V4.test(record["template_id"]) ? record["template_id"].toLowerCase() : undefined;
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
          err instanceof ApiError && err.issues !== undefined ? err.issues.map((i) => `\n    ${i.loc.join(".")}: ${i.msg} (${i.type})`).join("") : "";
        process.stderr.write(`failed   ${file}: ${err instanceof Error ? err.message : String(err)}${issues}\n`);
      }
    }
  });
  return failures === 0 ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  const [command = "serve", ...args] = argv;
  switch (command) {
    case "serve":
      await serve(args);
      return -1; // keep running
    case "create-admin-key":
      await createAdminKey(args);
      return 0;
    case "import-templates":
      return importTemplates(args);
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
