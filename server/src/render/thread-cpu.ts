import { readFileSync, readlinkSync } from "node:fs";

/**
 * The CPU time a thread of this process has run so far, in ms: the first field of Linux's
 * /proc/self/task/<id>/schedstat (nanoseconds on a CPU). Undefined where it cannot be read (other
 * systems, a kernel without scheduler statistics, a thread that has ended).
 */
export function threadCpuMs(threadId: number): number | undefined {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${threadId}/schedstat`, "latin1").split(" ", 1)[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** The id of the calling thread as Linux knows it (for /proc and priorities), or undefined elsewhere. */
export function linuxThreadId(): number | undefined {
  try {
    const id = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
