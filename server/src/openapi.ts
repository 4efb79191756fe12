import { stringify } from "yaml";
import { buildApp } from "./app.js";
import { DEFAULTS, type ServerConfig } from "./config.js";
import { KyselyStore } from "./store/kysely-store.js";

/**
 * The OpenAPI document exactly as the running server serves it at /openapi.json, rendered as YAML.
 * Built from the route schemas on a throwaway in-memory database, so it needs no configuration.
 */
export async function generateOpenApiYaml(): Promise<string> {
  const config: ServerConfig = {
    host: "127.0.0.1",
    port: 0,
    database: { kind: "sqlite", path: ":memory:" },
    cacheTtlMs: DEFAULTS.cacheTtlMs,
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    rateLimit: { max: DEFAULTS.rateLimitMax, adminMax: DEFAULTS.adminRateLimitMax, windowMs: DEFAULTS.rateLimitWindowMs },
    requestTimeoutMs: DEFAULTS.requestTimeoutMs,
    shutdownGraceMs: DEFAULTS.shutdownGraceMs,
    render: { workers: DEFAULTS.renderWorkers, timeoutMs: DEFAULTS.renderTimeoutMs },
    adminKey: undefined,
    logLevel: "silent",
  };
  const store = KyselyStore.open(config.database);
  const { app } = await buildApp({ config, store, logger: false });
  try {
    const header = "# Generated from the server's route schemas by `make spec` (server/scripts/generate-openapi.ts). Do not edit.\n";
    return header + stringify(app.swagger(), { lineWidth: 0, aliasDuplicateObjects: false });
  } finally {
    await app.close();
    await store.close();
  }
}
