<?php

declare(strict_types=1);

namespace Mailrender\Http;

use Exception;
use Mailrender\MailrenderError;

/** A failed fetch attempt carried to the retry loop: the error, and the server's Retry-After if any. */
final class FetchFailure extends Exception
{
    public function __construct(
        public readonly MailrenderError $error,
        public readonly ?int $retryAfterMs = null,
    ) {
        parent::__construct($error->getMessage(), 0, $error);
    }
}
