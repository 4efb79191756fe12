<?php

declare(strict_types=1);

namespace Mailrender\Http;

use Mailrender\Defaults;
use Mailrender\MailrenderError;

/** GET /v1/sdk/template/{id}: conditional when a cached ETag exists, retried on outages. */
final class TemplateFetcher
{
    public function __construct(
        private readonly Transport $transport,
        private readonly string $baseUrl,
        #[\SensitiveParameter] private readonly string $apiKey,
        private readonly int $timeoutMs,
        private readonly RetryPolicy $retryPolicy = new RetryPolicy(),
    ) {
    }

    /**
     * Keeps the key out of var_dump()/print_r() output of the client.
     *
     * @return array{baseUrl: string, apiKey: string, timeoutMs: int}
     */
    public function __debugInfo(): array
    {
        return ['baseUrl' => $this->baseUrl, 'apiKey' => '[redacted]', 'timeoutMs' => $this->timeoutMs];
    }

    /**
     * @throws MailrenderError
     */
    public function fetch(string $templateId, string $target, ?string $etag): FetchOutcome
    {
        return $this->retryPolicy->run(fn (): FetchOutcome => $this->attempt($templateId, $target, $etag));
    }

    private function attempt(string $templateId, string $target, ?string $etag): FetchOutcome
    {
        $url = $this->baseUrl . Defaults::TEMPLATE_PATH . rawurlencode($templateId)
            . '?target=' . rawurlencode($target);
        $headers = [
            'authorization' => 'Bearer ' . $this->apiKey,
            'accept' => 'application/json',
            'user-agent' => Defaults::userAgent(),
        ];
        if ($etag !== null) {
            $headers['if-none-match'] = $etag;
        }
        try {
            $response = $this->transport->send(new HttpRequest('GET', $url, $headers, $this->timeoutMs));
        } catch (MailrenderError $e) {
            throw new FetchFailure($e);
        }
        $keyTargets = self::parseKeyTargets($response->header('x-key-targets'));
        $newEtag = $response->header('etag');
        if ($response->status === 304) {
            return new FetchOutcome(null, $newEtag ?? $etag, $keyTargets);
        }
        if ($response->status === 200) {
            // Decoded only to check it is an object; the text itself is kept (see FetchOutcome).
            if (!(json_decode($response->body) instanceof \stdClass)) {
                throw new FetchFailure(new MailrenderError(
                    MailrenderError::UNKNOWN,
                    200,
                    'The service answered 200 with a body that is not a template JSON object',
                ));
            }
            return new FetchOutcome($response->body, $newEtag, $keyTargets);
        }
        throw new FetchFailure(
            self::errorFromResponse($response),
            RetryPolicy::parseRetryAfter($response->header('retry-after')),
        );
    }

    /** @return list<string>|null known targets in the service's order; null when the header is absent */
    public static function parseKeyTargets(?string $header): ?array
    {
        if ($header === null) {
            return null;
        }
        $listed = array_map('trim', explode(',', $header));
        if (in_array('all', $listed, true)) {
            return Defaults::TARGETS;
        }
        return array_values(array_intersect(Defaults::TARGETS, $listed));
    }

    /** The service's error body {code, message, issues} mapped to the client's codes by status. */
    public static function errorFromResponse(HttpResponse $response): MailrenderError
    {
        $body = json_decode($response->body, true);
        $message = is_array($body) && is_string($body['message'] ?? null)
            ? $body['message']
            : "The service answered HTTP {$response->status}";
        $issues = MailrenderError::normalizeIssues(is_array($body) ? ($body['issues'] ?? null) : null);
        $code = MailrenderError::codeForStatus($response->status);
        return new MailrenderError($code, $response->status, $message, $issues);
    }
}
