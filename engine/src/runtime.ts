/**
 * How a process uses the engine, chosen by whoever creates the engine and passed down explicitly:
 * the library's `render()` uses LIBRARY_RUNTIME; the executable picks one per mode
 * (src/protocol/main.ts). Nothing here is global state: two users of the engine in one process
 * (a one-shot CLI path and a library caller) each get their own choices.
 */
export interface EngineRuntime {
  /**
   * Keep parsed templates (by content) and compiled outputs (by variant) for later renders. A
   * process that renders once has no use for them: a cache no request can hit would cost it the
   * template's hash, and node:crypto, which the hash loads (into the Node binary's startup snapshot
   * if the warm-up hashed), adds ~7 ms to every launch (engine/README.md).
   */
  readonly cacheRenders: boolean;
  /**
   * zod's per-parse `jitless` option. zod's fast path compiles each object schema's parser with
   * `new Function` on first use: that pays off in a process that parses many times (~10% of a
   * `--serve` round trip) and is a loss in one that renders once, which runs the generated code
   * cold, once (~1.8 ms of a cold render, measured). A per-parse option, not zod's global config,
   * because the global is read when a schema is built (for the Node binary, while its startup
   * snapshot is made).
   */
  readonly jitless: boolean;
}

/** The library's and a long-lived `--serve` process's choices: many renders, cached and compiled. */
export const LIBRARY_RUNTIME: EngineRuntime = Object.freeze({ cacheRenders: true, jitless: false });

/** A process that renders once (the executable's one-shot mode and human commands). */
export const ONE_RENDER_RUNTIME: EngineRuntime = Object.freeze({ cacheRenders: false, jitless: true });
