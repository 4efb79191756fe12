/**
 * Tiny real HTTP servers for the faults the real service cannot be made to show on demand: one that
 * is too slow, and a proxy in front of the real server that answers a scripted series of failures
 * (503, 429 with Retry-After, ...) before passing requests through. Everything else is the real server.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FaultServer {
  readonly url: string;
  /** Requests received so far. */
  readonly hits: number;
  close(): Promise<void>;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function closer(server: http.Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** Answers after `delayMs`; with `stallBody` it sends the headers at once and stalls the body instead. */
export async function slowServer(delayMs: number, stallBody = false): Promise<FaultServer> {
  let hits = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((_req, res) => {
    hits++;
    if (stallBody) {
      res.writeHead(200, { "content-type": "application/json", "x-key-targets": "html" });
      res.write("{");
    }
    const timer = setTimeout(() => res.end(stallBody ? "}" : "{}"), delayMs);
    timers.add(timer);
  });
  const url = await listen(server);
  const close = closer(server);
  return {
    url,
    get hits() {
      return hits;
    },
    close: () => {
      for (const t of timers) clearTimeout(t);
      return close();
    },
  };
}

export interface ScriptedFault {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Answers the first requests with `faults` in order, then proxies every later request to `upstream`
 * unchanged (method, path, headers), returning the upstream answer as it is, less `stripHeaders`.
 */
export async function flakyProxy(
  upstream: string,
  faults: readonly ScriptedFault[],
  stripHeaders: readonly string[] = [],
): Promise<FaultServer & { readonly times: number[] }> {
  let hits = 0;
  const times: number[] = [];
  const server = http.createServer((req, res) => {
    const fault = faults[hits];
    hits++;
    times.push(Date.now());
    if (fault !== undefined) {
      res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
      res.end(JSON.stringify({ code: fault.status === 429 ? "RATE_LIMITED" : "UNAVAILABLE", message: `scripted ${fault.status}` }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "accept-encoding") headers[k] = v;
    fetch(upstream + (req.url ?? "/"), { method: req.method ?? "GET", headers }).then(
      async (up) => {
        const out: Record<string, string> = {};
        up.headers.forEach((v, k) => {
          if (!["content-length", "transfer-encoding", "connection", "keep-alive", ...stripHeaders].includes(k)) out[k] = v;
        });
        res.writeHead(up.status, out);
        res.end(Buffer.from(await up.arrayBuffer()));
      },
      () => {
        res.writeHead(502);
        res.end();
      },
    );
  });
  const url = await listen(server);
  return {
    url,
    times,
    get hits() {
      return hits;
    },
    close: closer(server),
  };
}

/** A loopback port with nothing listening (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  const url = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}
