<?php

declare(strict_types=1);

namespace Mailrender\Cache;

/** Per-process cache (under php-fpm: per worker, per request unless the client is kept in a static). */
final class MemoryCache implements CacheStore
{
    /** @var array<string, CacheEntry> */
    private array $entries = [];

    public function __construct(private readonly int $maxEntries)
    {
    }

    public function get(string $templateId): ?CacheEntry
    {
        return $this->entries[$templateId] ?? null;
    }

    public function set(CacheEntry $entry): void
    {
        unset($this->entries[$entry->templateId]);
        while (count($this->entries) >= $this->maxEntries) {
            $oldest = null;
            $oldestAt = 0;
            foreach ($this->entries as $id => $candidate) {
                if ($oldest === null || $candidate->fetchedAt < $oldestAt) {
                    $oldest = $id;
                    $oldestAt = $candidate->fetchedAt;
                }
            }
            if ($oldest === null) {
                break; // nothing left to evict (maxEntries < 1)
            }
            unset($this->entries[$oldest]);
        }
        $this->entries[$entry->templateId] = $entry;
    }

    public function delete(string $templateId): bool
    {
        $had = isset($this->entries[$templateId]);
        unset($this->entries[$templateId]);
        return $had;
    }

    public function list(): array
    {
        return array_map('strval', array_keys($this->entries));
    }

    public function clear(): void
    {
        $this->entries = [];
    }
}
