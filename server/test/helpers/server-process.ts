/**
 * A test server in a process of its own (started by `startServerProcess` in server.ts; its options as
 * JSON in its first argument): prints one JSON line, `{url, adminKey}`, once it listens, and closes
 * when its stdin ends, so that it never outlives the test process that started it.
 */
import { type ServerProcessOptions, startTestServer } from "./server.js";

const server = await startTestServer(JSON.parse(process.argv[2] ?? "") as ServerProcessOptions);
process.stdout.write(`${JSON.stringify({ url: server.url, adminKey: server.adminKey })}\n`);
process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
process.stdin.resume();
