import { ENGINE_VERSION } from "@mailrender/engine";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { ApiError } from "../errors.js";
import { SERVER_VERSION } from "../version.js";
import type { RouteContext } from "./context.js";
import { errors } from "./responses.js";

/** Probes: liveness needs nothing; readiness needs the database and an instance that is not shutting down. */
export const healthRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  app.get(
    "/healthz",
    {
      config: { auth: "public" },
      schema: {
        tags: ["health"],
        operationId: "healthz",
        summary: "Liveness: the process answers (no authentication)",
        response: { 200: z.object({ status: z.literal("ok"), version: z.string(), engine_version: z.string() }) },
      },
    },
    async () => ({ status: "ok" as const, version: SERVER_VERSION, engine_version: ENGINE_VERSION }),
  );

  app.get(
    "/readyz",
    {
      config: { auth: "public" },
      schema: {
        tags: ["health"],
        operationId: "readyz",
        summary: "Readiness: the database is reachable (no authentication)",
        response: { 200: z.object({ status: z.literal("ready"), database: z.enum(["sqlite", "postgres"]) }), ...errors() },
      },
    },
    async () => {
      if (ctx.lifecycle.closing) throw new ApiError(503, "UNAVAILABLE", "The service is shutting down");
      await ctx.store.ping();
      return { status: "ready" as const, database: ctx.store.dialect };
    },
  );
};
