<?php

declare(strict_types=1);

namespace Mailrender\Cache;

/**
 * The key's target scope as the service reported it (X-Key-Targets), stored with a cache entry so a
 * render served from the cache refuses exactly what the service would. `key` is a one-way tag of
 * the API key: a cache shared by processes using different keys never lends one key's scope to another.
 */
final class CachedScope
{
    /**
     * @param list<string> $targets
     * @param bool $complete true when the service listed the key's targets; false when only the
     *                       targets it accepted are known (an older service without X-Key-Targets)
     */
    public function __construct(
        public readonly string $key,
        public readonly array $targets,
        public readonly bool $complete,
    ) {
    }

    /**
     * A short, domain-separated SHA-256 of the key: a cache file reveals neither the key nor the
     * server's lookup hash.
     */
    public static function fingerprint(#[\SensitiveParameter] string $apiKey): string
    {
        return substr(hash('sha256', "mailrender-client-scope\0" . $apiKey), 0, 24);
    }

    /** @return 'allowed'|'forbidden'|'unknown' */
    public static function verdict(?self $scope, string $fingerprint, string $target): string
    {
        if ($scope === null || $scope->key !== $fingerprint) {
            return 'unknown';
        }
        if (in_array($target, $scope->targets, true)) {
            return 'allowed';
        }
        return $scope->complete ? 'forbidden' : 'unknown';
    }

    /**
     * The scope to record after the service accepted a fetch for $target.
     *
     * @param list<string>|null $headerTargets
     */
    public static function learned(string $fingerprint, ?array $headerTargets, ?self $previous, string $target): self
    {
        if ($headerTargets !== null) {
            return new self($fingerprint, $headerTargets, true);
        }
        $known = $previous !== null && $previous->key === $fingerprint ? $previous->targets : [];
        if (!in_array($target, $known, true)) {
            $known[] = $target;
        }
        return new self($fingerprint, $known, false);
    }
}
