<?php

declare(strict_types=1);

namespace Mailrender;

use RuntimeException;
use Throwable;

/**
 * The one error type of the client, with the same names as the JS and Python clients: a string
 * code (getErrorCode(); Exception::getCode() stays an int, as PHP requires), the HTTP status
 * (0 when no answer came) and the validation issues ({loc, msg, type}) of a RENDER_ERROR.
 */
final class MailrenderError extends RuntimeException
{
    public const INVALID_API_KEY = 'INVALID_API_KEY';
    public const FORBIDDEN = 'FORBIDDEN';
    public const TEMPLATE_NOT_FOUND = 'TEMPLATE_NOT_FOUND';
    public const RENDER_ERROR = 'RENDER_ERROR';
    public const NETWORK_ERROR = 'NETWORK_ERROR';
    public const TIMEOUT = 'TIMEOUT';
    public const UNKNOWN = 'UNKNOWN';

    public const CODES = [
        self::INVALID_API_KEY,
        self::FORBIDDEN,
        self::TEMPLATE_NOT_FOUND,
        self::RENDER_ERROR,
        self::NETWORK_ERROR,
        self::TIMEOUT,
        self::UNKNOWN,
    ];

    public readonly string $errorCode;

    /**
     * @param list<array{loc: list<string>, msg: string, type: string}> $issues
     */
    public function __construct(
        string $errorCode,
        public readonly int $status,
        string $message,
        public readonly array $issues = [],
        ?Throwable $previous = null,
    ) {
        if (!in_array($errorCode, self::CODES, true)) {
            throw new \InvalidArgumentException("Unknown MailrenderError code '{$errorCode}'");
        }
        parent::__construct($message, 0, $previous);
        $this->errorCode = $errorCode;
    }

    /**
     * The well-formed {loc, msg, type} items of an `issues` value from the service or the engine.
     *
     * @return list<array{loc: list<string>, msg: string, type: string}>
     */
    public static function normalizeIssues(mixed $issues): array
    {
        $out = [];
        foreach (is_array($issues) ? $issues : [] as $issue) {
            if (
                is_array($issue)
                && is_array($issue['loc'] ?? null)
                && is_string($issue['msg'] ?? null)
                && is_string($issue['type'] ?? null)
            ) {
                $loc = array_values(array_map('strval', $issue['loc']));
                $out[] = ['loc' => $loc, 'msg' => $issue['msg'], 'type' => $issue['type']];
            }
        }
        return $out;
    }

    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    /** The code for an HTTP error status, as the service spec maps them. */
    public static function codeForStatus(int $status): string
    {
        return match ($status) {
            401 => self::INVALID_API_KEY,
            403 => self::FORBIDDEN,
            404 => self::TEMPLATE_NOT_FOUND,
            422 => self::RENDER_ERROR,
            default => self::UNKNOWN,
        };
    }

    /**
     * The service's exact wording for a target outside the key's scope, so both paths read alike.
     *
     * @param list<string> $keyTargets
     */
    public static function forbiddenTarget(array $keyTargets, string $requested): self
    {
        return new self(
            self::FORBIDDEN,
            403,
            sprintf("API key is limited to targets [%s]; requested '%s'", implode(', ', $keyTargets), $requested),
        );
    }

    /**
     * An outage rather than an answer: no connection, a timeout, 429 or a 5xx. Only these let an
     * expired cached copy be used; a 401/403/404 must stop a revoked key or a deleted template.
     */
    public function isOutage(): bool
    {
        return $this->errorCode === self::NETWORK_ERROR
            || $this->errorCode === self::TIMEOUT
            || $this->status === 429
            || $this->status >= 500;
    }
}
