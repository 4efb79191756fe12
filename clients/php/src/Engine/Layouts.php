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

    /** output_format "layout" came with engine 1.1; an older engine refuses the key as a bad request. */
    public static function spokenBy(array $envelope): bool
    {
        $version = $envelope['engine_version'] ?? null;
        return is_string($version)
            && preg_match('/^(\d+)\.(\d+)/', $version, $m) === 1
            && ((int) $m[1] > 1 || ((int) $m[1] === 1 && (int) $m[2] >= 1));
    }

    /**
     * Turns an ok layout answer into an ordinary one (with `output`); false when its parts were
     * dropped (ask again with layout_parts). Any other envelope comes back as it is.
     *
     * @param array<string, mixed> $envelope
     * @return array<string, mixed>|false
     */
    public function resolve(array $envelope): array|false
    {
        if (!isset($envelope['layout'])) {
            return $envelope;
        }
        $layout = $envelope['layout'];
        $values = $envelope['values'] ?? null;
        if (!is_array($layout) || !is_int($layout['id'] ?? null) || !is_array($values) || !array_is_list($values)) {
            throw self::malformed('a malformed layout answer');
        }
        $id = $layout['id'];
        if (is_array($layout['parts'] ?? null) && array_is_list($layout['parts'])) {
            $parts = $layout['parts'];
        } elseif (isset($this->parts[$id])) {
            $parts = $this->parts[$id];
        } else {
            return false;
        }
        // Most recently used last, so the bound below drops the least recently used.
        unset($this->parts[$id]);
        $this->parts[$id] = $parts;
        if (count($this->parts) > $this->maxEntries) {
            unset($this->parts[array_key_first($this->parts)]);
        }
        if (count($values) !== count($parts) - 1) {
            throw self::malformed(sprintf('%d values for a layout of %d parts', count($values), count($parts)));
        }
        $pieces = [$parts[0]];
        foreach ($values as $i => $value) {
            $pieces[] = $value;
            $pieces[] = $parts[$i + 1];
        }
        unset($envelope['layout'], $envelope['values']);
        $envelope['output'] = implode('', $pieces);
        return $envelope;
    }

    public function count(): int
    {
        return count($this->parts);
    }

    private static function malformed(string $what): MailrenderError
    {
        return new MailrenderError(MailrenderError::UNKNOWN, 0, "The mailrender engine sent {$what}");
    }
}
