import { startCompiledService } from "./compiled-service.js";

/**
 * The real service for the benchmark, compiled (bench/compiled-service.ts). BENCH_LOG_LEVEL
 * (default warn) sets the log level; the log goes to stdout, as in production. With an IPC channel
 * (bench.ts) the address and keys go there and stdout is the log alone.
 */
const { server, state, body } = await startCompiledService(process.env["BENCH_LOG_LEVEL"] ?? "warn");
const info = { url: server.url, key: state.render_key, adminKey: state.admin_key, templateId: state.template_id, body };
if (process.send === undefined) process.stdout.write(`${JSON.stringify(info)}\n`);
else process.send(info);
