<?php

declare(strict_types=1);

namespace Mailrender\Cache;

use Mailrender\Defaults;

/** One cached template: its JSON text as the service sent it, its ETag, when it was fetched, and the key's scope. */
final class CacheEntry
{
    private const FORMAT = 1;

    public function __construct(
        public readonly string $templateId,
        public readonly string $templateJson,
        public readonly ?string $etag,
        /** Milliseconds since the epoch of the last 200 or 304. */
        public readonly int $fetchedAt,
        public readonly ?CachedScope $scope,
    ) {
    }

    /** Changes whenever the template changes: the engine's template_ref for this version. */
    public function templateRef(): string
    {
        return $this->templateId . '@' . ($this->etag ?? 'sha1:' . sha1($this->templateJson));
    }

    public function toJson(): string
    {
        return json_encode([
            'format' => self::FORMAT,
            'templateId' => $this->templateId,
            'etag' => $this->etag,
            'fetchedAt' => $this->fetchedAt,
            'scope' => $this->scope === null ? null : [
                'key' => $this->scope->key,
                'targets' => $this->scope->targets,
                'complete' => $this->scope->complete,
            ],
            // Kept as text: decoding into PHP arrays would turn {} into [] (see FetchOutcome).
            'template' => $this->templateJson,
        ], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
    }

    /** The entry in $text, or null when it is not a well-formed entry (for $templateId when given). */
    public static function fromJson(string $text, ?string $templateId = null): ?self
    {
        $doc = json_decode($text, true);
        if (!is_array($doc) || ($doc['format'] ?? null) !== self::FORMAT) {
            return null;
        }
        $id = $doc['templateId'] ?? null;
        $template = $doc['template'] ?? null;
        $etag = $doc['etag'] ?? null;
        $fetchedAt = $doc['fetchedAt'] ?? null;
        if (!is_string($id) || ($templateId !== null && $id !== $templateId)) {
            return null;
        }
        if (!is_string($template) || !is_int($fetchedAt) || ($etag !== null && !is_string($etag))) {
            return null;
        }
        if (!array_key_exists('scope', $doc)) {
            return null;
        }
        $scope = null;
        if ($doc['scope'] !== null) {
            $raw = $doc['scope'];
            if (
                !is_array($raw)
                || !is_string($raw['key'] ?? null)
                || !is_array($raw['targets'] ?? null)
                || !is_bool($raw['complete'] ?? null)
            ) {
                return null;
            }
            $targets = array_values(array_intersect(Defaults::TARGETS, $raw['targets']));
            if (count($targets) !== count($raw['targets'])) {
                return null;
            }
            $scope = new CachedScope($raw['key'], $targets, $raw['complete']);
        }
        return new self($id, $template, $etag, $fetchedAt, $scope);
    }
}
