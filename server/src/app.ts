import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler } from "fastify-type-provider-zod";
import { authHook } from "./auth/authenticate.js";
import { RateLimiter } from "./auth/rate-limit.js";
import { CachedLookups } from "./cache/lookups.js";
import type { ServerConfig } from "./config.js";
import { ApiError } from "./errors.js";
import { registerErrorHandler, sendError } from "./http/error-handler.js";
import { registerJsonBodyParser } from "./http/json-body.js";
import { registerNotFound } from "./http/not-found.js";
import { zodValidatorCompiler } from "./http/validation.js";
import type { RouteContext } from "./routes/context.js";
import { healthRoutes } from "./routes/health.js";
import { keyRoutes } from "./routes/keys.js";
import { sdkRenderRoutes } from "./routes/sdk-render.js";
import { sdkTemplateRoutes } from "./routes/sdk-template.js";
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

export interface App {
  app: FastifyInstance;
  context: RouteContext;
}

function loggerOptions(config: ServerConfig, logger: AppOptions["logger"]) {
  if (logger === false) return false;
  return {
    level: config.logLevel,
    ...(logger === undefined ? {} : { stream: logger }),
    // Secrets never reach the logs, whatever a serializer or an error object carries.
    redact: { paths: ["req.headers.authorization", "req.headers.cookie", "headers.authorization", "*.headers.authorization"], censor: "[REDACTED]" },
    serializers: {
      req(request: { method: string; url: string; headers: Record<string, unknown>; ip: string }) {
        return { method: request.method, url: request.url, remoteAddress: request.ip, headers: request.headers };
      },
    },
  };
}

/** Builds the whole HTTP application on a given store; the caller starts and stops it. */
export async function buildApp({ config, store, logger }: AppOptions): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config, logger),
    bodyLimit: config.bodyLimitBytes,
    // Idle keep-alive sockets are closed at shutdown; requests in flight are allowed to finish.
    forceCloseConnections: "idle",
    return503OnClosing: true,
    frameworkErrors: (err, _request, reply) => {
      void sendError(reply, new ApiError(400, "BAD_REQUEST", err.code === "FST_ERR_BAD_URL" ? "Malformed URL" : "Bad request"));
    },
  });

  const context: RouteContext = {
    config,
    store,
    lookups: new CachedLookups(store, config.cacheTtlMs),
    lifecycle: { closing: false },
  };

  app.decorateRequest("apiKey", null);
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  registerNotFound(app);
  app.addHook("onRequest", authHook(context.lookups, new RateLimiter(config.rateLimit)));

  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "mailrender",
        version: SERVER_VERSION,
        description:
          "Email-template rendering service: API keys, templates and the SDK endpoints. Every endpoint except the " +
          "health probes and the documentation needs `Authorization: Bearer <API_KEY>`. Errors are " +
          "`{code, message, issues?}`; see spec/errors.md.",
      },
      servers: [{ url: "http://localhost:8787", description: "Local development (make run)" }],
      tags: [
        { name: "sdk", description: "Endpoints the client libraries call" },
        { name: "keys", description: "API key management (admin key)" },
        { name: "templates", description: "Template management (admin key)" },
        { name: "studio", description: "What the studio page (/studio) uses besides template management (admin key)" },
        { name: "health", description: "Probes (no authentication)" },
      ],
      components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "`sk_live_` + 64 hex characters" } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true }, config: { auth: "public" } }, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(JSON.stringify(app.swagger())),
  );

  await app.register(healthRoutes, context);
  await app.register(sdkTemplateRoutes, context);
  await app.register(sdkRenderRoutes, context);
  await app.register(keyRoutes, context);
  await app.register(templateRoutes, context);
  await app.register(studioRoutes, context);
  await app.ready();
  return { app, context };
}
