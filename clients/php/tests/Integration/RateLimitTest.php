<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use Mailrender\Http\RetryPolicy;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\RecordingEngine;

/**
 * A real 429 with Retry-After from the server's per-key limiter (3 requests per 3 s here). The renders
 * use a RecordingEngine: only the fetches are under test, and four of them fit the window even on a
 * loaded machine, where four engine process starts might not.
 */
final class RateLimitTest extends ServerTestCase
{
    protected static function serverEnv(): array
    {
        return ['MAILRENDER_RATE_LIMIT_MAX' => '3', 'MAILRENDER_RATE_LIMIT_WINDOW_MS' => '3000'];
    }

    public function testA429IsRetriedAfterRetryAfter(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $key = self::server()->createKey(['all'])['key'];
        $wire = self::wire();
        $client = $this->client(['apiKey' => $key, 'cache' => ['ttl' => 0]], $wire, new RecordingEngine());
        $started = microtime(true);
        for ($i = 0; $i < 4; $i++) {
            self::assertFalse($client->render(['templateId' => $id])->fromStaleCache);
        }
        self::assertSame([200, 304, 304, 429, 304], $wire->statuses());
        self::assertGreaterThan(0.5, microtime(true) - $started, 'it waited for Retry-After');
    }

    public function testA429BeyondTheWaitLimitServesTheStaleCopy(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $key = self::server()->createKey(['all'])['key'];
        // Willing to wait 0 ms: Retry-After (up to 3 s) is too long, so the outage path is taken at once.
        $impatient = new RetryPolicy(2, 250, 0);
        $wire = self::wire();
        $client = $this->client(['apiKey' => $key, 'cache' => ['ttl' => 0]], $wire, new RecordingEngine(), $impatient);
        for ($i = 0; $i < 3; $i++) {
            self::assertFalse($client->render(['templateId' => $id])->fromStaleCache);
        }
        self::assertTrue($client->render(['templateId' => $id])->fromStaleCache);
        self::assertSame([200, 304, 304, 429], $wire->statuses());
    }
}
