import { setFlagsFromString } from "node:v8";

/**
 * Turns off V8's allocation-site pretenuring for the process. Under sustained load a server could
 * settle, as it warmed up, into a state where much of what each request leaves survived the
 * young-generation collections and was promoted: the old generation grew ~200 MB/s, the collector's
 * helper threads took 12–14 µs a request, the SDK route's throughput fell by a third — one process
 * in three on a 2-core machine, for its whole life. With pretenuring off none did, and renders cost
 * the same (docs/design/service-hot-path.md). V8 reads the flag at each collection and allocation,
 * so setting it as the server starts is enough.
 */
export function keepShortLivedObjectsYoung(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
