/** The executable's engine on Node's host, as the tests drive the protocol and the CLI with it. */
import { readFileSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { type CachePolicy, MANY_RENDERS } from "../../src/engine/caches.js";
import { NODE_HOST } from "../../src/engine/node-host.js";
import type { EnginePort } from "../../src/executable/engine-port.js";
import type { Files } from "../../src/executable/io.js";
import { createEnginePort } from "../../src/executable/library-engine.js";

/** A new engine with `cache` (what the executable's entry makes per mode). */
export const createEngine = (cache: CachePolicy): EnginePort => createEnginePort(NODE_HOST, cache);

/** An engine that caches renders, as a --serve process has. */
export const libraryEngine: EnginePort = createEngine(MANY_RENDERS);

/** Files as the Node executable reads them ("-" is stdin). */
export const nodeFiles: Files = {
  read: (path) => readFileSync(path === "-" ? 0 : path),
  write: (path, text) => writeFileSync(path, text),
};

/** A writable stream appending what is written to `append`. */
export function textSink(append: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      append(chunk.toString());
      done();
    },
  });
}
