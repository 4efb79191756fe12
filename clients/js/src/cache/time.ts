/**
 * Cache times (spec/clients.md, "Cache times"), the same rule in every client: whole milliseconds
 * since the epoch on the wall clock, floored, so a copy read in the millisecond it was written has
 * age 0, never a negative one (fixtures/client/v1/cache-time.json).
 */

/** A clock reading in milliseconds as a cache time: floored to the whole millisecond. */
export function cacheMillis(clockMs: number): number {
  return Math.floor(clockMs);
}

/** Now as a cache time. The wall clock, not a monotonic one: processes sharing a disk cache compare times. */
export function cacheNow(): number {
  return cacheMillis(Date.now());
}

/**
 * Fresh while `0 <= age < ttl`. A negative age (a `fetchedAt` in the future: another machine's clock,
 * a clock set back) is stale, so the copy is revalidated rather than trusted for longer.
 */
export function isFresh(fetchedAt: number, now: number, ttl: number): boolean {
  const age = now - fetchedAt;
  return age >= 0 && age < ttl;
}
