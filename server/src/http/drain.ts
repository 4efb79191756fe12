import type { IncomingMessage } from "node:http";

/**
 * Reads and discards the rest of a request body, without decoding or parsing it, so that an early
 * refusal is answered on a connection the client can keep (answering and closing while it still
 * uploads can reset the connection before the client reads the answer). Stops waiting past
 * `limitBytes` (the body limit): then the answer closes the connection.
 */
export function drainRequest(raw: IncomingMessage, limitBytes: number): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let bytes = 0;
    const done = () => {
      raw.off("data", count);
      raw.off("end", done);
      raw.off("close", done);
      raw.off("error", done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limitBytes) done();
    };
    raw.on("data", count);
    raw.once("end", done);
    raw.once("close", done);
    raw.once("error", done);
  });
}
