<?php

declare(strict_types=1);

namespace Mailrender\Cache;

use Mailrender\Defaults;
use stdClass;

/** One cached template: its JSON text as the service sent it, its ETag, when it was fetched, and the key's scope. */
final class CacheEntry
{
    private const FORMAT = 1;

    public function __construct(
        public readonly string $templateId,
        public readonly string $templateJson,
        public readonly ?string $etag,
        /** When the service last vouched for this copy (200 or 304): whole ms since the epoch (CacheTime). */
        public readonly int $fetchedAt,
        public readonly ?CachedScope $scope,
    ) {
    }

    /** Changes whenever the template changes: the engine's template_ref for this version. */
    public function templateRef(): string
    {
        return $this->templateId . '@' . ($this->etag ?? 'sha1:' . sha1($this->templateJson));
    }

    /** The disk format every client shares (spec/clients.md, Disk cache): the template as a JSON object. */
    public function toJson(): string
    {
        $head = self::encode([
            'format' => self::FORMAT,
            'templateId' => $this->templateId,
            'etag' => $this->etag,
            'fetchedAt' => $this->fetchedAt,
            'scope' => $this->scope === null ? null : [
                'key' => $this->scope->key,
                'targets' => $this->scope->targets,
                'complete' => $this->scope->complete,
            ],
        ]);
        // The service's text spliced in as it came: decoding it into PHP arrays would turn {} into [].
        return substr($head, 0, -1) . ',"template":' . $this->templateJson . '}';
    }

    /** The entry in $text, or null when it is not a well-formed entry (for $templateId when given). */
    public static function fromJson(string $text, ?string $templateId = null): ?self
    {
        // Objects stay objects (stdClass), so re-encoding the template keeps {} and [] apart.
        return self::fromDocument(json_decode($text, false), $templateId);
    }

    private static function fromDocument(mixed $doc, ?string $templateId): ?self
    {
        if (!$doc instanceof stdClass || ($doc->format ?? null) !== self::FORMAT || !property_exists($doc, 'scope')) {
            return null;
        }
        $id = is_string($doc->templateId ?? null) ? $doc->templateId : null;
        if ($id === null || ($templateId !== null && $id !== $templateId)) {
            return null;
        }
        $template = isset($doc->template) && $doc->template instanceof stdClass ? $doc->template : null;
        $etag = is_string($doc->etag ?? null) ? $doc->etag : null;
        $fetchedAt = self::fetchedAt($doc->fetchedAt ?? null);
        if ($template === null || $fetchedAt === null || ($etag === null && ($doc->etag ?? null) !== null)) {
            return null;
        }
        $scope = self::scope($doc->scope);
        if ($scope === false) {
            return null;
        }
        return new self($id, self::encode($template), $etag, $fetchedAt, $scope);
    }

    private static function encode(mixed $value): string
    {
        // The flags spelled out here (not a constant) so the analyser sees JSON_THROW_ON_ERROR.
        return json_encode(
            $value,
            JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR,
        );
    }

    /** Whole ms; a float (written by hand or by another tool) is floored. */
    private static function fetchedAt(mixed $raw): ?int
    {
        if (is_float($raw) && is_finite($raw) && abs($raw) < 2 ** 53) {
            return CacheTime::millis($raw);
        }
        return is_int($raw) ? $raw : null;
    }

    /** The entry's scope: null when the entry has none, false when it is malformed. */
    private static function scope(mixed $raw): CachedScope|false|null
    {
        if ($raw === null) {
            return null;
        }
        if (
            !$raw instanceof stdClass
            || !is_string($raw->key ?? null)
            || !is_array($raw->targets ?? null)
            || !is_bool($raw->complete ?? null)
        ) {
            return false;
        }
        $targets = array_values(array_intersect(Defaults::TARGETS, $raw->targets));
        if (count($targets) !== count($raw->targets)) {
            return false;
        }
        return new CachedScope($raw->key, $targets, $raw->complete);
    }
}
