import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler } from "fastify-type-provider-zod";
import { ZodType } from "zod";
import { type AuthLevel, accessNote, authHook, routeAuth } from "./auth/authenticate.js";
import { RateLimiter } from "./auth/rate-limit.js";
import { CachedLookups } from "./cache/lookups.js";
import type { ServerConfig } from "./config.js";
import { ApiError } from "./errors.js";
import { clientAddress } from "./http/client-address.js";
import { answerClientError, refuseConnect } from "./http/client-errors.js";
import { registerErrorHandler, sendError } from "./http/error-handler.js";
import { registerJsonBodyParser } from "./http/json-body.js";
import { registerNotFound } from "./http/not-found.js";
import { REDACTED, redactHeaders, redactUrl } from "./http/redact.js";
import { requestIds } from "./http/request-id.js";
import { RequestLog } from "./http/request-log.js";
import { forbidFraming } from "./http/security-headers.js";
import { zodValidatorCompiler } from "./http/validation.js";
import { endLog, type LogDestination, logDestination } from "./logging.js";
import { completeDocument } from "./openapi-document.js";
import { RenderPool } from "./render/pool.js";
import type { RouteContext } from "./routes/context.js";
import { healthRoutes } from "./routes/health.js";
import { keyRoutes } from "./routes/keys.js";
import { sdkRenderRoutes } from "./routes/sdk-render.js";
import { sdkTemplateRoutes } from "./routes/sdk-template.js";
import { sdkTemplateHotPath, serverWithHotPath } from "./routes/sdk-template-hot-path.js";
import { studioRoutes } from "./routes/studio.js";
import { templateRoutes } from "./routes/templates.js";
import type { Store } from "./store/types.js";
import { SERVER_VERSION } from "./version.js";

export interface AppOptions {
  config: ServerConfig;
  store: Store;
  /** false: no logs (tests); a stream: JSON logs there (tests that inspect logs); default stdout. */
  logger?: false | NodeJS.WritableStream;
}

/** One registered route and who may call it, as the auth hook will decide. */
export interface RouteEntry {
  method: string;
  url: string;
  auth: AuthLevel;
}

export interface App {
  app: FastifyInstance;
  context: RouteContext;
  /** Every registered route (HEAD included) with its auth level, so the coverage can be audited. */
  routes(): RouteEntry[];
  /** Resolves once every log line so far is written (logging.ts `endLog`); the log takes no more lines. */
  endLog(): Promise<void>;
}

/** pino's options: the level, the destination, and what keeps secrets out of its lines. */
export function loggerOptions(config: Pick<ServerConfig, "logLevel">, stream: LogDestination) {
  return {
    level: config.logLevel,
    stream,
    // Secrets never reach the logs. The request line is built from redacted values (request-log.ts);
    // a request logged otherwise (Fastify's rare error lines) goes through the `req` serializer, which
    // removes credentials by name and by shape, and the redact paths catch the credentials of headers
    // logged any other way. The paths are named, not `*.headers…`: a path starting with a wildcard
    // makes pino copy and walk every object logged.
    redact: { paths: ["headers.authorization", "headers.cookie", "err.headers.authorization", "err.headers.cookie"], censor: REDACTED },
    serializers: {
      req(request: { method: string; url: string; headers: Record<string, unknown>; ip: string }) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip, headers: redactHeaders(request.headers) };
      },
    },
  };
}

/** Builds the whole HTTP application on a given store; the caller starts and stops it. */
export async function buildApp({ config, store, logger }: AppOptions): Promise<App> {
  // One line per request instead of Fastify's two (http/request-log.ts).
  const log = logger === false ? undefined : (logger ?? logDestination(config));
  const requestLog = log === undefined ? undefined : new RequestLog(config.logLevel, log);
  const lookups = new CachedLookups(store, config.cacheTtlMs);
  const limiter = new RateLimiter(config.rateLimit);
  const lifecycle = { closing: false };
  const nextRequestId = requestIds();
  const clientOf = clientAddress(config.trustProxy);
  const hotPath = sdkTemplateHotPath({ lookups, limiter, requestLog, nextRequestId, clientAddress: clientOf, lifecycle });
  const app = Fastify({
    logger: log === undefined ? false : loggerOptions(config, log),
    ...(requestLog === undefined ? {} : { logController: requestLog }),
    genReqId: nextRequestId,
    serverFactory: serverWithHotPath(hotPath),
    bodyLimit: config.bodyLimitBytes,
    // Behind a reverse proxy: request.ip (logs) is the client's address from X-Forwarded-For.
    ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
    // A slow sender is cut off (408) instead of holding a connection for minutes; Node checks every second.
    requestTimeout: config.requestTimeoutMs,
    http: { connectionsCheckingInterval: 1_000, headersTimeout: Math.min(10_000, config.requestTimeoutMs) },
    // At shutdown idle keep-alive sockets are closed at once; a request already on its way is still
    // answered (the database stays open until the last connection ends), with `Connection: close`.
    forceCloseConnections: "idle",
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    frameworkErrors: (err, _request, reply) => {
      void sendError(reply, new ApiError(400, "BAD_REQUEST", err.code === "FST_ERR_BAD_URL" ? "Malformed URL" : "Bad request"));
    },
  });

  const context: RouteContext = {
    config,
    store,
    lookups,
    renderPool: new RenderPool({
      size: config.render.workers,
      timeoutMs: config.render.timeoutMs,
      maxWaiting: 8 * config.render.workers,
      maxHeapMb: 1_024,
    }),
    lifecycle,
  };

  app.addHook("onClose", () => context.renderPool.close());
  app.decorateRequest("apiKey", null);
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonBodyParser(app);
  registerErrorHandler(app, registerNotFound(app));
  refuseConnect(app);
  // The route options objects themselves: hooks of inner scopes (the docs) may still set `auth`.
  const registered: { method: string | string[]; url: string; config?: { auth?: unknown } }[] = [];
  app.addHook("onRoute", (route) => void registered.push(route));
  const routes = () => registered.flatMap((r) => [r.method].flat().map((method) => ({ method, url: r.url, auth: routeAuth(r.config) })));
  // A callback hook: an async one would cost every answer a promise and a turn of the microtask queue.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (context.lifecycle.closing) reply.header("connection", "close");
    forbidFraming(reply);
    done(null, payload);
  });
  app.addHook("onRequest", authHook(lookups, limiter));
  if (requestLog !== undefined) app.addHook("onRequestAbort", requestLog.requestAborted);

  const optionalBodies = new Set<string>();
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "mailrender",
        version: SERVER_VERSION,
        description:
          "Email-template rendering service: API keys, templates and the SDK endpoints. Every endpoint except the " +
          "health probes and the documentation needs `Authorization: Bearer <API_KEY>`. Errors are " +
          "`{code, message, detail, issues?}`; see spec/errors.md.\n\n" +
          "A key's role decides what it may call (each operation says which): `render` keys (the SDK's, scoped by their " +
          "targets) call the SDK endpoints only; `viewer` keys also read and preview templates (`templates:read`); `editor` " +
          "keys also create, change and delete templates and their sample data (`templates:write`); `admin` keys also manage " +
          "keys (`keys:manage`). The SDK endpoints and `GET /api/v1/me` take any key. A key whose role lacks the permission " +
          "gets 403 `FORBIDDEN`.",
      },
      servers: [{ url: "http://localhost:8787", description: "Local development (make run)" }],
      tags: [
        { name: "sdk", description: "Endpoints the client libraries call" },
        { name: "keys", description: "The calling key (any key), and API key management (admin key)" },
        { name: "templates", description: "Template management: read with a viewer key, write with an editor key (admin keys do both)" },
        {
          name: "studio",
          description: "What the studio page (/studio) uses besides template management: previews (viewer key), sample data (editor key to save)",
        },
        { name: "health", description: "Probes (no authentication)" },
      ],
      components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "`sk_live_` + 64 hex characters" } } },
    },
    transform(input) {
      const body = (input.schema as { body?: unknown; operationId?: string } | undefined)?.body;
      if (body instanceof ZodType && body.safeParse(undefined).success) optionalBodies.add(input.schema.operationId as string);
      const transformed = jsonSchemaTransform(input);
      // Who may call it, from the route's own auth level: the document cannot disagree with the hook.
      const access = accessNote(routeAuth(input.route.config));
      if (access === undefined || transformed.schema === undefined) return transformed;
      const description = (transformed.schema as { description?: string }).description;
      return { ...transformed, schema: { ...transformed.schema, description: description === undefined ? access : `${description}\n\n${access}` } };
    },
    transformObject(input) {
      const document = jsonSchemaTransformObject(input) as {
        paths?: Record<string, Record<string, { operationId?: string; requestBody?: { required?: boolean } }>>;
      };
      // @fastify/swagger marks every body required; a body the route's schema lets one omit is not.
      for (const operations of Object.values(document.paths ?? {})) {
        for (const operation of Object.values(operations)) {
          if (operation.requestBody !== undefined && optionalBodies.has(operation.operationId ?? "")) operation.requestBody.required = false;
        }
      }
      return completeDocument(document) as ReturnType<typeof jsonSchemaTransformObject>;
    },
  });
  await app.register(async (docs) => {
    // The documentation pages are public, like the document they show.
    docs.addHook("onRoute", (route) => {
      route.config = { ...route.config, auth: "public" };
    });
    await docs.register(fastifySwaggerUi, { routePrefix: "/docs" });
  });
  app.get("/openapi.json", { schema: { hide: true }, config: { auth: "public" } }, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(JSON.stringify(app.swagger())),
  );

  // A browser opening the server's address lands in the studio.
  app.get("/", { schema: { hide: true }, config: { auth: "public" } }, (_request, reply) => reply.redirect("/studio"));

  await app.register(healthRoutes, context);
  await app.register(sdkTemplateRoutes, context);
  await app.register(sdkRenderRoutes, context);
  await app.register(keyRoutes, context);
  await app.register(templateRoutes, context);
  await app.register(studioRoutes, context);
  await app.ready();
  routes(); // a misspelt auth level stops the start here instead of opening a route
  return { app, context, routes, endLog: () => (log === undefined ? Promise.resolve() : endLog(log)) };
}
