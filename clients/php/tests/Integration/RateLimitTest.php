<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use Mailrender\Http\RetryPolicy;
use Mailrender\Tests\Support\Paths;

/** A real 429 with Retry-After from the server's per-key limiter (3 requests per second here). */
final class RateLimitTest extends ServerTestCase
{
    protected static function serverEnv(): array
    {
        return ['MAILRENDER_RATE_LIMIT_MAX' => '3', 'MAILRENDER_RATE_LIMIT_WINDOW_MS' => '1000'];
    }

    public function testA429IsRetriedAfterRetryAfter(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $key = self::server()->createKey(['all'])['key'];
        $client = $this->client(['apiKey' => $key, 'cache' => ['ttl' => 0]], $wire);
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
        // Willing to wait 0 ms: Retry-After (1 s) is too long, so the outage path is taken at once.
        $impatient = new RetryPolicy(2, 250, 0);
        $client = $this->client(['apiKey' => $key, 'cache' => ['ttl' => 0]], $wire, null, null, $impatient);
        for ($i = 0; $i < 3; $i++) {
            self::assertFalse($client->render(['templateId' => $id])->fromStaleCache);
        }
        self::assertTrue($client->render(['templateId' => $id])->fromStaleCache);
        self::assertSame([200, 304, 304, 429], $wire->statuses());
    }
}
