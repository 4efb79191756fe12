import Fastify from "fastify";

/** The baseline: a bare Fastify route answering the same JSON, with no auth, cache or database. */
const body = process.argv[2] ?? "{}";
const app = Fastify({ logger: { level: "warn" } });
app.get("/v1/sdk/template/:id", async (_request, reply) => reply.type("application/json; charset=utf-8").send(body));
const url = await app.listen({ host: "127.0.0.1", port: 0 });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
process.send?.({ url });
