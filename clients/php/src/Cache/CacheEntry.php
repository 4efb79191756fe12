<?php

declare(strict_types=1);

namespace Mailrender\Cache;

use Mailrender\Defaults;
use stdClass;

/** One cached template: its JSON text as the service sent it, its ETag, when it was fetched, and the key's scope. */
final class CacheEntry
{
    private const FORMAT = 1;
    private const JSON_FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION
        | JSON_THROW_ON_ERROR;

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
        $head = json_encode([
            'format' => self::FORMAT,
            'templateId' => $this->templateId,
            'etag' => $this->etag,
            'fetchedAt' => $this->fetchedAt,
            'scope' => $this->scope === null ? null : [
                'key' => $this->scope->key,
                'targets' => $this->scope->targets,
                'complete' => $this->scope->complete,
            ],
        ], self::JSON_FLAGS);
        // The service's text spliced in as it came: decoding it into PHP arrays would turn {} into [].
        return substr($head, 0, -1) . ',"template":' . $this->templateJson . '}';
    }

    /** The entry in $text, or null when it is not a well-formed entry (for $templateId when given). */
    public static function fromJson(string $text, ?string $templateId = null): ?self
    {
        // Objects stay objects (stdClass), so re-encoding the template keeps {} and [] apart.
        $doc = json_decode($text, false);
        if (!$doc instanceof stdClass || ($doc->format ?? null) !== self::FORMAT) {
            return null;
        }
        $id = $doc->templateId ?? null;
        $template = $doc->template ?? null;
        $etag = $doc->etag ?? null;
        $fetchedAt = $doc->fetchedAt ?? null;
        if (is_float($fetchedAt) && is_finite($fetchedAt) && abs($fetchedAt) < 2 ** 53) {
            $fetchedAt = CacheTime::millis($fetchedAt); // written by hand or by another tool: floored
        }
        if (!is_string($id) || ($templateId !== null && $id !== $templateId)) {
            return null;
        }
        if (!$template instanceof stdClass || !is_int($fetchedAt) || ($etag !== null && !is_string($etag))) {
            return null;
        }
        if (!property_exists($doc, 'scope')) {
            return null;
        }
        $scope = null;
        if ($doc->scope !== null) {
            $raw = $doc->scope;
            if (
                !$raw instanceof stdClass
                || !is_string($raw->key ?? null)
                || !is_array($raw->targets ?? null)
                || !is_bool($raw->complete ?? null)
            ) {
                return null;
            }
            $targets = array_values(array_intersect(Defaults::TARGETS, $raw->targets));
            if (count($targets) !== count($raw->targets)) {
                return null;
            }
            $scope = new CachedScope($raw->key, $targets, $raw->complete);
        }
        return new self($id, json_encode($template, self::JSON_FLAGS), $etag, $fetchedAt, $scope);
    }
}
