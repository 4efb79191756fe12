<?php

declare(strict_types=1);

namespace Mailrender\Http;

/** A request the client asks a Transport to send. The client only ever sends GETs without a body. */
final class HttpRequest
{
    /**
     * @param array<string, string> $headers lower-case names
     */
    public function __construct(
        public readonly string $method,
        public readonly string $url,
        public readonly array $headers,
        public readonly int $timeoutMs,
    ) {
    }

    /**
     * The headers without Authorization, for messages and logs: an API key is never printed.
     *
     * @return array<string, string>
     */
    public function safeHeaders(): array
    {
        $headers = $this->headers;
        unset($headers['authorization']);
        return $headers;
    }
}
