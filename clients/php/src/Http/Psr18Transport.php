<?php

declare(strict_types=1);

namespace Mailrender\Http;

use Mailrender\MailrenderError;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Throwable;

/**
 * An adapter for any PSR-18 client (Guzzle, Symfony HttpClient, ...). The PSR interfaces are only
 * suggested by composer.json: this class is loaded only when an application uses it, and then they
 * are there. PSR-18 has no per-request timeout: configure it on the client you pass in (the
 * client's 'timeout' config does not reach a PSR-18 client).
 */
final class Psr18Transport implements Transport
{
    public function __construct(
        private readonly ClientInterface $client,
        private readonly RequestFactoryInterface $requestFactory,
    ) {
    }

    public function send(HttpRequest $request): HttpResponse
    {
        $psrRequest = $this->requestFactory->createRequest($request->method, $request->url);
        foreach ($request->headers as $name => $value) {
            $psrRequest = $psrRequest->withHeader($name, $value);
        }
        $origin = CurlTransport::origin($request->url);
        try {
            $response = $this->client->sendRequest($psrRequest);
            $body = (string) $response->getBody();
        } catch (ClientExceptionInterface $e) {
            if (self::isTimeout($e)) {
                $message = "No answer from {$origin} in time: {$e->getMessage()}";
                throw new MailrenderError(MailrenderError::TIMEOUT, 0, $message, [], $e);
            }
            $kind = $e instanceof NetworkExceptionInterface ? 'Could not reach' : 'Request to';
            $suffix = $e instanceof NetworkExceptionInterface ? '' : ' failed';
            throw new MailrenderError(
                MailrenderError::NETWORK_ERROR,
                0,
                "{$kind} {$origin}{$suffix}: {$e->getMessage()}",
                [],
                $e,
            );
        } catch (Throwable $e) {
            // Reading a streamed body can fail after the headers arrived: still no usable answer.
            $message = "Could not read the answer from {$origin}: {$e->getMessage()}";
            throw new MailrenderError(MailrenderError::NETWORK_ERROR, 0, $message, [], $e);
        }
        $headers = [];
        foreach ($response->getHeaders() as $name => $values) {
            $headers[strtolower((string) $name)] = implode(', ', $values);
        }
        return new HttpResponse($response->getStatusCode(), $headers, $body);
    }

    /**
     * PSR-18 has no timeout exception. cURL-based clients (Guzzle) expose errno 28 in their handler
     * context; others say so in the message.
     */
    private static function isTimeout(Throwable $e): bool
    {
        $handlerContext = [$e, 'getHandlerContext'];
        if (is_callable($handlerContext) && self::isCurlTimeout($handlerContext())) {
            return true;
        }
        return preg_match('/\btimed?[ -]?out\b|\btimeout\b/i', $e->getMessage()) === 1;
    }

    private static function isCurlTimeout(mixed $handlerContext): bool
    {
        return is_array($handlerContext) && ($handlerContext['errno'] ?? null) === 28;
    }
}
