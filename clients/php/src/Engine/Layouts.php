<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\MailrenderError;

/**
 * The layouts one `--serve` process has sent (output_format "layout", spec/README.md): a rendered
 * variant's static text, sent once, after which the engine answers with the recipient's values only.
 * Ids belong to one process, so a new process needs a new instance. Bounded: the least recently used
 * layout is dropped, and an answer naming a dropped one is asked for again with layout_parts.
 */
final class Layouts
{
    /** A layout of a 60 KB newsletter is 60 KB: this bounds the memory to a few MB. */
    public const MAX_ENTRIES = 64;

    /** @var array<int, list<string>> least recently used first */
    private array $parts = [];

    public function __construct(private readonly int $maxEntries = self::MAX_ENTRIES)
    {
    }

    /**
     * output_format "layout" came with engine 1.1; an older engine refuses the key as a bad request.
     *
     * @param array<mixed> $envelope
     */
    public static function spokenBy(array $envelope): bool
    {
        $version = $envelope['engine_version'] ?? null;
        if (!is_string($version) || preg_match('/^(\d+)\.(\d+)/', $version, $m) !== 1 || !isset($m[1], $m[2])) {
            return false;
        }
        return (int) $m[1] > 1 || ((int) $m[1] === 1 && (int) $m[2] >= 1);
    }

    /**
     * Turns an ok layout answer into an ordinary one (with `output`); false when its parts were
     * dropped (ask again with layout_parts). Any other envelope comes back as it is.
     *
     * @param array<mixed> $envelope
     * @return array<mixed>|false
     */
    public function resolve(array $envelope): array|false
    {
        if (!isset($envelope['layout'])) {
            return $envelope;
        }
        $layout = $envelope['layout'];
        $id = is_array($layout) && is_int($layout['id'] ?? null) ? $layout['id'] : null;
        $values = self::strings($envelope['values'] ?? null);
        if ($id === null || $values === null) {
            throw self::malformed('a malformed layout answer');
        }
        $sentParts = is_array($layout) ? self::strings($layout['parts'] ?? null) : null;
        if ($sentParts !== null) {
            $parts = $sentParts;
        } elseif (isset($this->parts[$id])) {
            $parts = $this->parts[$id];
        } else {
            return false;
        }
        // Most recently used last, so the bound below drops the least recently used.
        unset($this->parts[$id]);
        $this->parts[$id] = $parts;
        $oldest = array_key_first($this->parts);
        if ($oldest !== null && count($this->parts) > $this->maxEntries) {
            unset($this->parts[$oldest]);
        }
        if (count($values) !== count($parts) - 1) {
            throw self::malformed(sprintf('%d values for a layout of %d parts', count($values), count($parts)));
        }
        $pieces = [];
        foreach ($parts as $i => $part) {
            $pieces[] = $part;
            if (isset($values[$i])) {
                $pieces[] = $values[$i];
            }
        }
        unset($envelope['layout'], $envelope['values']);
        $envelope['output'] = implode('', $pieces);
        return $envelope;
    }

    public function count(): int
    {
        return count($this->parts);
    }

    /** @return list<string>|null the value when it is a list of strings */
    private static function strings(mixed $value): ?array
    {
        if (!is_array($value) || !array_is_list($value)) {
            return null;
        }
        $out = [];
        foreach ($value as $item) {
            if (!is_string($item)) {
                return null;
            }
            $out[] = $item;
        }
        return $out;
    }

    private static function malformed(string $what): MailrenderError
    {
        return new MailrenderError(MailrenderError::UNKNOWN, 0, "The mailrender engine sent {$what}");
    }
}
