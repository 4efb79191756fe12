/**
 * The executable's memory (spec/README.md, "Memory"). After a large request (or output), the host
 * frees what it left behind (a full collection; free pages back to the operating system),
 * so a long-lived process returns to its working size. With `--max-memory <MiB>` the process answers
 * `output_too_large` instead of growing past that ceiling:
 *
 * - the release engine (QuickJS) caps its heap at the ceiling: an allocation past it fails, the render
 *   that needed it is refused, the caches are emptied and the memory released;
 * - the Node build cannot catch running out of its heap, so it checks before each render: over the
 *   ceiling it empties its caches first, and the render's output limit becomes what the remaining
 *   headroom can hold (OUTPUT_MEMORY_FACTOR bytes of memory per output byte).
 */
import { clearTextCaches } from "../base/caches.js";
import { RenderError } from "../base/diagnostics.js";
import type { RenderLimits } from "../base/types.js";
import { DEFAULT_LIMITS } from "../document/limits.js";

/** What the host does for the engine's memory: src/cli.ts (Node), runtimes/quickjs/host.ts (QuickJS). */
export interface HostMemory {
  /** The process's resident memory in bytes, where the host can tell it cheaply; else undefined. */
  resident(): number | undefined;
  /** A full garbage collection, then free pages back to the operating system, where the host can. */
  release(): void;
  /** Makes allocations past `bytes` fail, where the host can: the render then throws `isOutOfMemory`. */
  capHeap?(bytes: number): void;
  isOutOfMemory(error: unknown): boolean;
}

/** A request or output at least this large is followed by `release()`. */
export const LARGE_BYTES = 1024 * 1024;

/**
 * Memory the Node build needs per output byte while it builds and writes the output: the string
 * (up to 2 bytes a character), its JSON-encoded pieces (up to 6 bytes a byte for control characters,
 * 1 for text) and the values they are made of. 4 covers text; a control-character output over the
 * headroom still fails no worse than without a ceiling.
 */
const OUTPUT_MEMORY_FACTOR = 4;

/** Bytes of the ceiling left to the binary, its stack and the allocator's own books when the heap is capped. */
const CEILING_RESERVE = 8 * 1024 * 1024;

export class MemoryPolicy {
  /**
   * `ceiling`: bytes, from --max-memory; `forget`: drops what the process keeps between requests
   * beside the shared text caches (the engine's caches, the template_ref store).
   */
  constructor(
    private readonly host: HostMemory | undefined,
    readonly ceiling: number | undefined,
    private readonly forget: () => void = () => {},
  ) {
    if (ceiling !== undefined) host?.capHeap?.(Math.max(ceiling - CEILING_RESERVE, ceiling / 2));
  }

  /** The limits a request renders with: under a ceiling, on a host that knows its size, no larger an output than the headroom holds. */
  limitsFor(limits: RenderLimits): RenderLimits {
    if (this.ceiling === undefined || this.host === undefined) return limits;
    let resident = this.host.resident();
    if (resident === undefined) return limits;
    if (resident > this.ceiling) {
      this.dropAll();
      resident = this.host.resident() ?? resident;
    }
    const fits = Math.max(1, Math.floor((this.ceiling - resident) / OUTPUT_MEMORY_FACTOR));
    const asked = limits.maxOutputBytes ?? DEFAULT_LIMITS.maxOutputBytes;
    return fits >= asked ? limits : { ...limits, maxOutputBytes: fits };
  }

  /** A render that failed for want of memory under the ceiling, as the refusal to answer with; else undefined. */
  refusal(error: unknown): RenderError | undefined {
    if (this.ceiling === undefined || this.host?.isOutOfMemory(error) !== true) return undefined;
    this.dropAll();
    const mib = Math.round(this.ceiling / 1024 / 1024);
    return new RenderError(`Output too large: the render needs more memory than the engine's ceiling of ${mib} MiB (--max-memory)`, [
      { loc: [], msg: `The render needs more memory than the ceiling of ${mib} MiB`, type: "output_too_large" },
    ]);
  }

  /**
   * After a request's response is written: a large one is followed by a release. Only a large one: a
   * full collection walks everything the caches keep, which a stream of small renders (or of small
   * refusals, strict mode's missing tags) must not pay for each time.
   */
  settle(requestBytes: number, outputUnits: number): void {
    if (this.host === undefined || (requestBytes < LARGE_BYTES && outputUnits < LARGE_BYTES)) return;
    this.host.release();
  }

  private dropAll(): void {
    clearTextCaches();
    this.forget();
    this.host?.release();
  }
}
