<?php

declare(strict_types=1);

namespace Mailrender;

use InvalidArgumentException;

/**
 * The client's configuration array (plus the environment) turned into a complete, checked value.
 * Unknown keys are rejected rather than ignored: a typo must not silently fall back to a default.
 */
final class Config
{
    public const KEYS = ['apiKey', 'baseUrl', 'timeout', 'cache', 'enginePath'];
    public const CACHE_KEYS = ['type', 'path', 'ttl', 'maxEntries'];

    /** Keys other clients know under another name: the error says where they went. */
    private const RENAMED = [
        'api_key' => 'apiKey',
        'base_url' => 'baseUrl',
        'cacheTtl' => "cache => ['ttl' => ...]",
        'cacheMaxEntries' => "cache => ['maxEntries' => ...]",
        'engine_path' => 'enginePath',
    ];

    private function __construct(
        public readonly string $apiKey,
        public readonly string $baseUrl,
        public readonly int $timeoutMs,
        public readonly string $cacheType,
        public readonly string $cachePath,
        public readonly int $cacheTtlMs,
        public readonly int $cacheMaxEntries,
        public readonly ?string $enginePath,
    ) {
    }

    /**
     * @param array<mixed> $config
     * @param array<string, string|false> $env lookups default to getenv()
     */
    public static function resolve(array $config, ?array $env = null): self
    {
        self::rejectUnknown($config, self::KEYS, '');
        $cache = self::cacheConfig($config['cache'] ?? []);
        self::rejectUnknown($cache, self::CACHE_KEYS, 'cache.');
        $type = self::cacheType($cache['type'] ?? Defaults::CACHE_TYPE);
        $path = self::cachePath($cache['path'] ?? Defaults::DISK_CACHE_PATH);
        $enginePath = self::enginePath($config['enginePath'] ?? null);

        return new self(
            apiKey: self::apiKey($config['apiKey'] ?? null, $env),
            baseUrl: self::baseUrl($config['baseUrl'] ?? null, $env),
            timeoutMs: self::positiveInt($config['timeout'] ?? Defaults::TIMEOUT_MS, 'timeout (milliseconds)', 1),
            cacheType: $type,
            cachePath: $path,
            cacheTtlMs: self::positiveInt($cache['ttl'] ?? Defaults::CACHE_TTL_MS, 'cache.ttl (milliseconds)', 0),
            cacheMaxEntries: self::positiveInt(
                $cache['maxEntries'] ?? Defaults::CACHE_MAX_ENTRIES,
                'cache.maxEntries',
                1,
            ),
            enginePath: $enginePath ?? self::env($env, Defaults::ENV_ENGINE_PATH),
        );
    }

    /** @return array<mixed> */
    private static function cacheConfig(mixed $cache): array
    {
        if (!is_array($cache)) {
            throw new InvalidArgumentException(
                "MailrenderClient: 'cache' must be an array: ['type' => 'memory'|'disk', 'path' => ..., "
                . "'ttl' => ms, 'maxEntries' => n]"
            );
        }
        return $cache;
    }

    /** @return 'memory'|'disk' */
    private static function cacheType(mixed $type): string
    {
        if ($type !== 'memory' && $type !== 'disk') {
            throw new InvalidArgumentException(
                "MailrenderClient: cache.type must be 'memory' or 'disk', got " . var_export($type, true)
            );
        }
        return $type;
    }

    private static function cachePath(mixed $path): string
    {
        if (!is_string($path) || trim($path) === '') {
            throw new InvalidArgumentException('MailrenderClient: cache.path must be a non-empty string');
        }
        return $path;
    }

    private static function enginePath(mixed $enginePath): ?string
    {
        if ($enginePath !== null && (!is_string($enginePath) || $enginePath === '')) {
            throw new InvalidArgumentException(
                'MailrenderClient: enginePath must be a non-empty string (an executable path)'
            );
        }
        return $enginePath;
    }

    /**
     * @param array<mixed> $values
     * @param list<string> $allowed
     */
    private static function rejectUnknown(array $values, array $allowed, string $where): void
    {
        foreach (array_keys($values) as $key) {
            if (in_array($key, $allowed, true)) {
                continue;
            }
            $name = $where . $key;
            $hint = $where === '' && isset(self::RENAMED[$key]) ? ' (use ' . self::RENAMED[$key] . ')' : '';
            $known = implode(', ', array_map(static fn (string $k): string => $where . $k, $allowed));
            throw new InvalidArgumentException(
                "MailrenderClient: unknown config key '{$name}'{$hint}; known keys: {$known}"
            );
        }
    }

    /** @param array<string, string|false>|null $env */
    private static function env(?array $env, string $name): ?string
    {
        $value = $env === null ? getenv($name) : ($env[$name] ?? false);
        return is_string($value) && trim($value) !== '' ? trim($value) : null;
    }

    /** @param array<string, string|false>|null $env */
    private static function apiKey(mixed $raw, ?array $env): string
    {
        if ($raw !== null && !is_string($raw)) {
            throw new InvalidArgumentException('MailrenderClient: apiKey must be a string');
        }
        $key = $raw === null ? self::env($env, Defaults::ENV_API_KEY) : trim($raw);
        if ($key === null || $key === '') {
            // The message names where a key comes from, never a key's value.
            throw new MailrenderError(
                MailrenderError::INVALID_API_KEY,
                0,
                "An API key is required: pass 'apiKey' or set " . Defaults::ENV_API_KEY,
            );
        }
        if (preg_match('/^[\x20-\x7E]+$/', $key) !== 1) {
            // It could not be sent in an Authorization header, and no issued key has such characters.
            throw new MailrenderError(
                MailrenderError::INVALID_API_KEY,
                0,
                'The API key contains characters that cannot be sent in an HTTP header (only printable ASCII '
                . 'can be): check for a copy-paste accident',
            );
        }
        return $key;
    }

    /** @param array<string, string|false>|null $env */
    private static function baseUrl(mixed $raw, ?array $env): string
    {
        if ($raw === null) {
            $raw = self::env($env, Defaults::ENV_BASE_URL) ?? Defaults::BASE_URL;
        }
        if (!is_string($raw) || trim($raw) === '') {
            throw new InvalidArgumentException('MailrenderClient: baseUrl must be a non-empty URL string');
        }
        $value = trim($raw);
        $parts = parse_url($value);
        if ($parts === false || !isset($parts['scheme'], $parts['host'])) {
            throw new InvalidArgumentException("MailrenderClient: baseUrl is not a valid URL: '{$value}'");
        }
        if (!in_array(strtolower($parts['scheme']), ['http', 'https'], true)) {
            throw new InvalidArgumentException(
                "MailrenderClient: baseUrl must use http or https, got '{$parts['scheme']}'"
            );
        }
        if (isset($parts['query']) || isset($parts['fragment']) || isset($parts['user']) || isset($parts['pass'])) {
            throw new InvalidArgumentException(
                'MailrenderClient: baseUrl must not carry a query, fragment or credentials'
            );
        }
        return rtrim($value, '/');
    }

    private static function positiveInt(mixed $value, string $name, int $min): int
    {
        if (is_float($value) && is_finite($value) && floor($value) === $value) {
            $value = (int) $value;
        }
        if (!is_int($value) || $value < $min) {
            throw new InvalidArgumentException(
                "MailrenderClient: {$name} must be an integer >= {$min}, got " . var_export($value, true)
            );
        }
        return $value;
    }
}
