<?php

declare(strict_types=1);

namespace Mailrender\Cache;

/**
 * Cache times (spec/clients.md, "Cache times"), the same rule in every client: whole milliseconds
 * since the epoch on the wall clock, floored, so a copy read in the millisecond it was written has
 * age 0, never a negative one (fixtures/client/v1/cache-time.json).
 */
final class CacheTime
{
    /** A clock reading in milliseconds as a cache time: floored to the whole millisecond. */
    public static function millis(int|float $clockMs): int
    {
        return (int) floor($clockMs);
    }

    /** Now as a cache time. The wall clock, not a monotonic one: processes sharing a disk cache compare times. */
    public static function now(): int
    {
        return self::millis(microtime(true) * 1000);
    }

    /**
     * Fresh while 0 <= age < ttl. A negative age (a fetchedAt in the future: another machine's clock,
     * a clock set back) is stale, so the copy is revalidated rather than trusted for longer.
     */
    public static function isFresh(int $fetchedAt, int $now, int|float $ttlMs): bool
    {
        $age = $now - $fetchedAt;
        return $age >= 0 && $age < $ttlMs;
    }
}
