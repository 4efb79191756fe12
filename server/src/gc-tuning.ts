import { setFlagsFromString } from "node:v8";

/**
 * Turns off V8's allocation-site pretenuring for the process. Under sustained load the service's
 * request objects live a few milliseconds; V8 samples where objects are allocated and, when a site's
 * objects are found alive at a young-generation collection, may start allocating them in the old
 * generation, or promote them there, so that what one request leaves is collected by the costlier
 * old-generation collector with its helper threads. A server that fell into that state at start-up
 * stayed in it: the SDK route's CPU per request about doubled, its throughput down by a third, one
 * process in three on a 2-core machine (docs/design/service-hot-path.md). Renders are unaffected.
 * Called before the server starts: the flag is read at each collection and allocation.
 */
export function keepShortLivedObjectsYoung(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
