/**
 * The only web the browsers see. One local HTTP server serves a blank page (the emails are written
 * into it) and a page framing it at a given size, and is every engine's proxy: a request for any
 * other site, plain or through a CONNECT tunnel (TLS ended here with a throwaway certificate, which
 * the browsers are told to accept), is answered here, an image with a generated PNG, anything else
 * empty. Nothing reaches the network, and every request the pages made is recorded for the checks.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { BUILD_DIR } from "../scripts/build-dir.js";
import { solidPng } from "./png.js";

const TLS_DIR = `${BUILD_DIR}/tls`;

/** The size of every image the pages load. */
const IMAGE = { width: 640, height: 360 };
const IMAGE_PNG = solidPng(IMAGE.width, IMAGE.height);

/** A request a page made to another site. */
export interface PageRequest {
  readonly url: string;
  readonly image: boolean;
}

export interface PageServer {
  readonly port: number;
  /** An empty page of this server's origin. */
  readonly blankUrl: string;
  /** A page whose only element is an `iframe` of the given size showing the blank page. */
  frameUrl(width: number, height: number): string;
  /** Every request the pages made to other sites, in order. */
  readonly requests: readonly PageRequest[];
  close(): Promise<void>;
}

const KEY = `${TLS_DIR}/key.pem`;
const CERTIFICATE = `${TLS_DIR}/cert.pem`;

/** Makes the self-signed certificate for the TLS the proxy ends (once, with openssl), before any server starts. */
export function makeCertificate(): void {
  if (existsSync(CERTIFICATE)) return;
  mkdirSync(TLS_DIR, { recursive: true });
  const subject = ["-subj", "/CN=mailrender browser checks", "-keyout", KEY, "-out", CERTIFICATE];
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "3650", ...subject], {
    stdio: "ignore",
  });
}

export async function startPageServer(): Promise<PageServer> {
  const requests: PageRequest[] = [];
  let origin = "";

  const respond = (request: IncomingMessage, response: ServerResponse, tunnelled: boolean) => {
    // In a tunnel a request names only its path; to the proxy, its whole URL; to this server, its path.
    const url = new URL(tunnelled ? `https://${request.headers.host}${request.url}` : (request.url ?? "/"), origin);
    if (url.origin === origin) return serveOwnPage(url, response);
    const destination = request.headers["sec-fetch-dest"];
    const accept = request.headers.accept ?? "";
    const image = destination === "image" || accept.startsWith("image/");
    // What the pages asked for (their referrer is this server) is recorded; a browser's own background requests are not.
    if ((request.headers.referer ?? "").startsWith(origin)) requests.push({ url: url.href, image });
    const style = destination === "style" || accept.startsWith("text/css");
    response
      .writeHead(200, { "content-type": image ? "image/png" : style ? "text/css" : "text/plain", "cache-control": "no-store" })
      .end(image ? IMAGE_PNG : "");
  };

  const tls = createHttpsServer({ key: readFileSync(KEY), cert: readFileSync(CERTIFICATE) }, (request, response) => respond(request, response, true));
  const server: Server = createHttpServer((request, response) => respond(request, response, false));
  server.on("connect", (_request, socket) => {
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    tls.emit("connection", socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    port,
    blankUrl: `${origin}/blank`,
    frameUrl: (width, height) => `${origin}/frame?${new URLSearchParams({ width: String(width), height: String(height) })}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        tls.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function serveOwnPage(url: URL, response: ServerResponse): void {
  const size = (name: string) => Number(url.searchParams.get(name)) || 0;
  const page =
    url.pathname === "/blank"
      ? "<!doctype html><title>blank</title>"
      : url.pathname === "/frame"
        ? `<!doctype html><html><body style="margin:0"><iframe src="/blank" style="display:block;border:0;width:${size("width")}px;height:${size("height")}px"></iframe></body></html>`
        : undefined;
  if (page === undefined) response.writeHead(404).end();
  else response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(page);
}
