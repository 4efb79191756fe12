<?php

declare(strict_types=1);

namespace Mailrender\Tests\Support;

use Mailrender\Http\HttpRequest;
use Mailrender\Http\HttpResponse;
use Mailrender\Http\Transport;
use Mailrender\MailrenderError;
use RuntimeException;

/** A fake transport for faults a real server will not produce on demand (a run of 5xx answers). */
final class ScriptedTransport implements Transport
{
    /** @var list<HttpRequest> */
    public array $requests = [];

    /** @param list<HttpResponse|MailrenderError> $script answered in order */
    public function __construct(private array $script)
    {
    }

    public function send(HttpRequest $request): HttpResponse
    {
        $this->requests[] = $request;
        $next = array_shift($this->script);
        if ($next === null) {
            throw new RuntimeException('ScriptedTransport: no answer left for ' . $request->url);
        }
        if ($next instanceof MailrenderError) {
            throw $next;
        }
        return $next;
    }
}
