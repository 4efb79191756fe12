<?php

declare(strict_types=1);

namespace Mailrender\Engine;

final class EngineResult
{
    /**
     * @param list<array{code: string, message: string, path: list<string|int>}> $warnings
     */
    public function __construct(
        public readonly string $output,
        public readonly array $warnings = [],
        /** The plain-text version, when the request asked for it. */
        public readonly ?string $text = null,
        /** A saved layout to keep, when the request asked for one and the engine made a new one. */
        public readonly ?string $savedLayout = null,
    ) {
    }
}
