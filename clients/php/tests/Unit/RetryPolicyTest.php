<?php

declare(strict_types=1);

namespace Mailrender\Tests\Unit;

use Mailrender\Http\FetchFailure;
use Mailrender\Http\RetryPolicy;
use Mailrender\MailrenderError;
use PHPUnit\Framework\TestCase;

final class RetryPolicyTest extends TestCase
{
    /** @var list<int> */
    private array $slept = [];
    /** Calls of the attempt under test. */
    private int $attempts = 0;

    private function policy(float $random = 0.0): RetryPolicy
    {
        return new RetryPolicy(2, 250, 30000, function (int $ms): void {
            $this->slept[] = $ms;
        }, static fn (): float => $random);
    }

    private static function failure(string $code, int $status, ?int $retryAfterMs = null): FetchFailure
    {
        return new FetchFailure(new MailrenderError($code, $status, "failed {$status}"), $retryAfterMs);
    }

    public function testBackoffIsExponentialWithJitterInHalfToFull(): void
    {
        self::assertSame(125, $this->policy(0.0)->backoffDelay(0));
        self::assertSame(250, $this->policy(0.0)->backoffDelay(1));
        self::assertSame(250, $this->policy(0.999999)->backoffDelay(0));
        self::assertSame(500, $this->policy(0.999999)->backoffDelay(1));
    }

    public function testRetryAfterParsing(): void
    {
        self::assertSame(2000, RetryPolicy::parseRetryAfter('2'));
        self::assertNull(RetryPolicy::parseRetryAfter(null));
        self::assertNull(RetryPolicy::parseRetryAfter('soon'));
        $now = 1_700_000_000_000;
        self::assertSame(5000, RetryPolicy::parseRetryAfter(gmdate('D, d M Y H:i:s', intdiv($now, 1000) + 5) . ' GMT', $now));
    }

    public function testTwoRetriesThenTheLastErrorForNetworkErrorsAnd5xx(): void
    {
        try {
            $this->policy()->run(function (): never {
                $this->attempts++;
                throw self::failure('UNKNOWN', 503);
            });
        } catch (MailrenderError $e) {
            self::assertSame(503, $e->status);
        }
        self::assertSame(3, $this->attempts);
        self::assertSame([125, 250], $this->slept);
    }

    public function testRetryAfterWinsOverTheSchedule(): void
    {
        $result = $this->policy()->run(function (): string {
            if (++$this->attempts === 1) {
                throw self::failure('UNKNOWN', 429, 1000);
            }
            return 'ok';
        });
        self::assertSame('ok', $result);
        self::assertSame([1000], $this->slept);
    }

    public function testATooLongRetryAfterIsNotWaitedFor(): void
    {
        try {
            $this->policy()->run(function (): never {
                $this->attempts++;
                throw self::failure('UNKNOWN', 429, 120000);
            });
        } catch (MailrenderError $e) {
            self::assertSame(429, $e->status);
        }
        self::assertSame(1, $this->attempts);
        self::assertSame([], $this->slept);
    }

    /** @return iterable<string, array{string, int}> */
    public static function answersNotRetried(): iterable
    {
        yield '400' => ['UNKNOWN', 400];
        yield '401' => ['INVALID_API_KEY', 401];
        yield '403' => ['FORBIDDEN', 403];
        yield '404' => ['TEMPLATE_NOT_FOUND', 404];
        yield '422' => ['RENDER_ERROR', 422];
        yield 'timeout' => ['TIMEOUT', 0];
    }

    /** @dataProvider answersNotRetried */
    public function testFourHundredsAndTimeoutsAreNeverRetried(string $code, int $status): void
    {
        try {
            $this->policy()->run(function () use ($code, $status): never {
                $this->attempts++;
                throw self::failure($code, $status);
            });
        } catch (MailrenderError $e) {
            self::assertSame($code, $e->getErrorCode());
        }
        self::assertSame(1, $this->attempts);
    }

    public function testNetworkErrorsAreRetried(): void
    {
        $result = $this->policy()->run(function (): string {
            if (++$this->attempts < 3) {
                throw self::failure('NETWORK_ERROR', 0);
            }
            return 'third time';
        });
        self::assertSame('third time', $result);
        self::assertSame(3, $this->attempts);
    }
}
