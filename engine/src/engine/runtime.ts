/**
 * How a process uses the engine, chosen by whoever creates the engine and passed down explicitly:
 * the library's `render()` uses LIBRARY_RUNTIME; the executable picks one per mode
 * (src/executable/main.ts). Nothing here is global state: two users of the engine in one process
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
}

/** The library's and a long-lived `--serve` process's choices: many renders, cached. */
export const LIBRARY_RUNTIME: EngineRuntime = Object.freeze({ cacheRenders: true });

/** A process that renders once (the executable's one-shot mode and human commands). */
export const ONE_RENDER_RUNTIME: EngineRuntime = Object.freeze({ cacheRenders: false });
