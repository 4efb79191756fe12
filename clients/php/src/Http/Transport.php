<?php

declare(strict_types=1);

namespace Mailrender\Http;

use Mailrender\MailrenderError;

/**
 * The HTTP seam. send() returns every answer the service gives, whatever its status; when no answer
 * came it throws MailrenderError with code NETWORK_ERROR or TIMEOUT and status 0.
 */
interface Transport
{
    /**
     * @throws MailrenderError NETWORK_ERROR or TIMEOUT
     */
    public function send(HttpRequest $request): HttpResponse;
}
