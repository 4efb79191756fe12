<?php

declare(strict_types=1);

namespace Mailrender\Http;

use Closure;
use Mailrender\Defaults;
use Mailrender\MailrenderError;

/**
 * Retries for the template fetch only (rendering is local and never retried). Transient failures are
 * retried: no connection, 429 and 5xx. A 4xx is an answer and is never retried; a timeout is not
 * retried either, so one render waits about `timeout` for a silent server, not three times it.
 */
final class RetryPolicy
{
    /** @var Closure(int): void sleeps the given milliseconds */
    private readonly Closure $sleep;
    /** @var Closure(): float a number in [0, 1) */
    private readonly Closure $random;

    /**
     * @param (callable(int): void)|null $sleep injectable for tests of the schedule
     * @param (callable(): float)|null $random
     */
    public function __construct(
        public readonly int $retries = Defaults::MAX_RETRIES,
        public readonly int $baseDelayMs = Defaults::RETRY_BASE_DELAY_MS,
        public readonly int $maxRetryAfterMs = Defaults::MAX_RETRY_AFTER_MS,
        ?callable $sleep = null,
        ?callable $random = null,
    ) {
        $this->sleep = $sleep !== null ? $sleep(...) : static function (int $ms): void {
            usleep(max(0, $ms) * 1000);
        };
        $this->random = $random !== null ? $random(...) : static function (): float {
            return (float) (mt_rand() / (mt_getrandmax() + 1));
        };
    }

    public static function isRetryable(MailrenderError $error): bool
    {
        return $error->getErrorCode() === MailrenderError::NETWORK_ERROR
            || $error->status === 429
            || $error->status >= 500;
    }

    /** Jittered exponential backoff: clients that failed together spread out. */
    public function backoffDelay(int $retryIndex): int
    {
        return (int) round($this->baseDelayMs * (2 ** $retryIndex) * (0.5 + ($this->random)() / 2));
    }

    /** Milliseconds to wait before retry $retryIndex (0-based), or null to stop and report $error. */
    public function delayFor(MailrenderError $error, ?int $retryAfterMs, int $retryIndex): ?int
    {
        if ($retryIndex >= $this->retries || !self::isRetryable($error)) {
            return null;
        }
        // The server's Retry-After wins over our schedule; one longer than we will wait ends the tries.
        if ($retryAfterMs !== null) {
            return $retryAfterMs > $this->maxRetryAfterMs ? null : $retryAfterMs;
        }
        return $this->backoffDelay($retryIndex);
    }

    /** Retry-After as delta-seconds or an HTTP-date, in milliseconds from now; null when absent or unreadable. */
    public static function parseRetryAfter(?string $value, ?int $nowMs = null): ?int
    {
        if ($value === null || trim($value) === '') {
            return null;
        }
        $text = trim($value);
        if (preg_match('/^\d+$/', $text) === 1) {
            return (int) $text * 1000;
        }
        // An HTTP-date starts with the day's name; strtotime() would also read "1.5" or "-5".
        if (preg_match('/^[A-Za-z]{3}/', $text) !== 1) {
            return null;
        }
        $time = strtotime($text);
        if ($time === false) {
            return null;
        }
        $now = $nowMs ?? (int) floor(microtime(true) * 1000);
        return max(0, $time * 1000 - $now);
    }

    /**
     * @template T
     * @param callable(): T $attempt throws MailrenderError with an optional Retry-After (RetryableFailure)
     * @return T
     */
    public function run(callable $attempt): mixed
    {
        $retry = 0;
        while (true) {
            try {
                return $attempt();
            } catch (FetchFailure $failure) {
                $delay = $this->delayFor($failure->error, $failure->retryAfterMs, $retry);
                if ($delay === null) {
                    throw $failure->error;
                }
                ($this->sleep)($delay);
                $retry++;
            }
        }
    }
}
