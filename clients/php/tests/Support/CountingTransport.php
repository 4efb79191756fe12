<?php

declare(strict_types=1);

namespace Mailrender\Tests\Support;

use Mailrender\Http\HttpRequest;
use Mailrender\Http\HttpResponse;
use Mailrender\Http\Transport;
use Mailrender\MailrenderError;
use PHPUnit\Framework\Assert;

/** Wraps a real transport and records what went over the wire: requests, statuses, errors. */
final class CountingTransport implements Transport
{
    /** @var list<array{request: HttpRequest, status: int|string}> status, or the error code when no answer came */
    public array $calls = [];

    public function __construct(private readonly Transport $inner)
    {
    }

    public function send(HttpRequest $request): HttpResponse
    {
        try {
            $response = $this->inner->send($request);
        } catch (MailrenderError $e) {
            $this->calls[] = ['request' => $request, 'status' => $e->getErrorCode()];
            throw $e;
        }
        $this->calls[] = ['request' => $request, 'status' => $response->status];
        return $response;
    }

    /** The request of call $i (0-based), which must have been made. */
    public function request(int $i): HttpRequest
    {
        $call = $this->calls[$i] ?? null;
        Assert::assertNotNull($call, "no call {$i} went over the wire");
        return $call['request'];
    }

    /** @return list<int|string> */
    public function statuses(): array
    {
        return array_map(
            /** @param array{request: HttpRequest, status: int|string} $c */
            static fn (array $c): int|string => $c['status'],
            $this->calls,
        );
    }

    public function reset(): void
    {
        $this->calls = [];
    }
}
