<?php

declare(strict_types=1);

namespace Mailrender\Cache;

/** Where fetched templates are kept. Keyed by template id; holds fresh and expired entries alike. */
interface CacheStore
{
    public function get(string $templateId): ?CacheEntry;

    /** Stores the entry, evicting the entry fetched longest ago when the store is full. */
    public function set(CacheEntry $entry): void;

    /** True when the template was cached. */
    public function delete(string $templateId): bool;

    /** @return list<string> ids of the cached templates */
    public function list(): array;

    public function clear(): void;
}
