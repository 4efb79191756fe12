<?php

declare(strict_types=1);

namespace Mailrender;

/** What a render gives back. Immutable: every property is readonly. */
final class RenderResult
{
    /**
     * @param list<array{code: string, message: string, path: list<string|int>}> $warnings
     */
    public function __construct(
        public readonly string $output,
        public readonly string $target,
        public readonly string $templateId,
        public readonly bool $fromStaleCache = false,
        public readonly array $warnings = [],
        /** The email's plain-text version, with the `plainText` option. */
        public readonly ?string $text = null,
    ) {
    }
}
