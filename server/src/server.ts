import type { FastifyInstance } from "fastify";
import { type App, type AppOptions, buildApp } from "./app.js";
import { type BootstrapOutcome, ensureAdminKey } from "./bootstrap.js";
import type { ServerConfig } from "./config.js";
import { keepShortLivedObjectsYoung } from "./gc-tuning.js";
import { EXIT_WAIT_MS } from "./log-writer.js";
import type { RouteContext } from "./routes/context.js";
import { KyselyStore } from "./store/kysely-store.js";
import type { Store } from "./store/types.js";

export interface RunningServer {
  app: FastifyInstance;
  routes: App["routes"];
  context: RouteContext;
  store: Store;
  url: string;
  /**
   * Stops accepting connections, closes idle ones, answers requests in flight with `Connection: close`
   * within the grace period, then closes the database.
   */
  close(): Promise<void>;
  endLog: App["endLog"];
}

/** Opens the store, migrates, registers the bootstrap admin key, then listens. */
export async function startServer(config: ServerConfig, logger?: AppOptions["logger"]): Promise<RunningServer> {
  keepShortLivedObjectsYoung();
  const store = KyselyStore.open(config.database);
  let bootstrap: BootstrapOutcome;
  try {
    await store.migrate();
    bootstrap = await ensureAdminKey(store, config.adminKey);
  } catch (err) {
    await store.close();
    throw err;
  }
  const { app, context, routes, endLog } = await buildApp({ config, store, ...(logger === undefined ? {} : { logger }) });
  // No MAILRENDER_ADMIN_KEY is the usual case (keys come from `create-admin-key`): not worth a line at info.
  if (bootstrap.outcome === "retired") app.log.warn(bootstrap.message);
  else if (bootstrap.outcome === "absent") app.log.debug(bootstrap.message);
  else app.log.info(bootstrap.message);
  const url = await app.listen({ host: config.host, port: config.port });
  let closing: Promise<void> | undefined;
  return {
    app,
    routes,
    context,
    store,
    url,
    endLog,
    close() {
      closing ??= (async () => {
        context.lifecycle.closing = true;
        lingerBeforeClosingIdle(app);
        // Requests still running when the grace period ends lose their connection; the process must exit.
        const deadline = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs);
        try {
          await app.close();
        } finally {
          clearTimeout(deadline);
        }
        await store.close();
      })();
      return closing;
    },
  };
}

/** How long idle keep-alive connections stay open after shutdown begins; see lingerBeforeClosingIdle. */
const IDLE_LINGER_MS = 200;

/**
 * Node closes idle keep-alive connections the moment `close()` is called. A request a client has
 * already written, but the server has not read yet (it sits in the socket buffer), counts as idle and
 * would be reset unanswered. Reading for a moment first turns it into a request in flight, which is
 * answered with `Connection: close`; connections still idle after that are closed.
 */
function lingerBeforeClosingIdle(app: FastifyInstance): void {
  const server = app.server;
  const closeIdle = server.closeIdleConnections.bind(server);
  let scheduled = false;
  server.closeIdleConnections = () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(closeIdle, IDLE_LINGER_MS);
  };
}

/** Exits once every log line is written (the last request's, then "stopped"), or after EXIT_WAIT_MS. */
function exitOnceLogged(server: RunningServer, code: number): void {
  setTimeout(() => process.exit(code), EXIT_WAIT_MS);
  void server.endLog().then(() => process.exit(code));
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
        exitOnceLogged(server, 0);
      },
      (err: unknown) => {
        log(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        exitOnceLogged(server, 1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
