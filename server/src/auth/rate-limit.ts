import type { RateLimitConfig } from "../config.js";
import type { KeyRole } from "../roles.js";

/**
 * Fixed-window request counter per key, with a budget per role (admin keys unlimited by default), in this process's memory (each server instance limits on its
 * own; behind N instances a key gets at most N × max). Cheap enough for the hot path: one map lookup.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly config: RateLimitConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `hit` would admit a request of this key now; nothing is counted. */
  admits(keyId: string, role: KeyRole = "render"): boolean {
    const max = this.maxFor(role);
    if (max <= 0) return true;
    const window = this.windows.get(keyId);
    return window === undefined || this.now() - window.start >= this.config.windowMs || window.count < max;
  }

  /** Counts one request; returns the seconds to wait when the key is over its limit, else 0. */
  hit(keyId: string, role: KeyRole = "render"): number {
    const max = this.maxFor(role);
    if (max <= 0) return 0;
    const now = this.now();
    let window = this.windows.get(keyId);
    if (window === undefined || now - window.start >= this.config.windowMs) {
      if (this.windows.size > 100_000) this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(keyId, window);
    }
    window.count += 1;
    if (window.count <= max) return 0;
    return Math.max(1, Math.ceil((window.start + this.config.windowMs - now) / 1000));
  }

  private maxFor(role: KeyRole): number {
    return role === "admin" ? this.config.adminMax : this.config.max;
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (now - w.start >= this.config.windowMs) this.windows.delete(id);
  }
}
