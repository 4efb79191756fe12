<?php

declare(strict_types=1);

namespace Mailrender\Http;

/** Any HTTP answer (2xx, 3xx, 4xx, 5xx alike): statuses are the client's business, not the transport's. */
final class HttpResponse
{
    /** @var array<string, string> lower-case names; repeated headers joined with ", " */
    public readonly array $headers;

    /**
     * @param array<string, string> $headers
     */
    public function __construct(
        public readonly int $status,
        array $headers,
        public readonly string $body,
    ) {
        $this->headers = array_change_key_case($headers, CASE_LOWER);
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }
}
