<?php

declare(strict_types=1);

namespace Mailrender\Http;

/** A successful template fetch: 200 with the template, or 304 (template null) renewing the cached copy. */
final class FetchOutcome
{
    /**
     * @param string|null $templateJson the template as the service sent it (JSON text kept verbatim, so
     *                                  `{}` never turns into `[]`); null for 304 Not Modified
     * @param list<string>|null $keyTargets X-Key-Targets; null when the header is absent
     */
    public function __construct(
        public readonly ?string $templateJson,
        public readonly ?string $etag,
        public readonly ?array $keyTargets,
    ) {
    }

    public function notModified(): bool
    {
        return $this->templateJson === null;
    }
}
