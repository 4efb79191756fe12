import type { FastifyInstance } from "fastify";
import { buildApp, type App, type AppOptions } from "./app.js";
import { ensureAdminKey, type BootstrapOutcome } from "./bootstrap.js";
import type { ServerConfig } from "./config.js";
import type { RouteContext } from "./routes/context.js";
import { KyselyStore } from "./store/kysely-store.js";
import type { Store } from "./store/types.js";

export interface RunningServer {
  app: FastifyInstance;
  routes: App["routes"];
  context: RouteContext;
  store: Store;
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

/** Opens the store, migrates, registers the bootstrap admin key, then listens. */
export async function startServer(config: ServerConfig, logger?: AppOptions["logger"]): Promise<RunningServer> {
  const store = KyselyStore.open(config.database);
  let bootstrap: BootstrapOutcome;
  try {
    await store.migrate();
    bootstrap = await ensureAdminKey(store, config.adminKey);
  } catch (err) {
    await store.close();
    throw err;
  }
  const { app, context, routes } = await buildApp({ config, store, ...(logger === undefined ? {} : { logger }) });
  if (bootstrap.outcome === "retired") app.log.warn(bootstrap.message);
  else app.log.info(bootstrap.message);
  const url = await app.listen({ host: config.host, port: config.port });
  let closing: Promise<void> | undefined;
  return {
    app,
    routes,
    context,
    store,
    url,
    close() {
      closing ??= (async () => {
        context.lifecycle.closing = true;
        await app.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** SIGTERM/SIGINT: drain and exit 0; a second signal exits at once. */
export function handleSignals(server: RunningServer, log: (msg: string) => void): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal} received: finishing requests in flight, then stopping`);
    server.close().then(
      () => {
        log("stopped");
        process.exit(0);
      },
      (err: unknown) => {
        log(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
