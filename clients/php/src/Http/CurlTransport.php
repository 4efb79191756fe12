<?php

declare(strict_types=1);

namespace Mailrender\Http;

use Mailrender\MailrenderError;

/** The default transport: ext-curl, one handle per request, the request's timeout covering the whole exchange. */
final class CurlTransport implements Transport
{
    public function __construct()
    {
        if (!function_exists('curl_init')) {
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                'ext-curl is not loaded: install it (Debian: php-curl) or pass a Transport, e.g. '
                . 'new Psr18Transport($psr18Client, $requestFactory), as the second constructor argument',
            );
        }
    }

    public function send(HttpRequest $request): HttpResponse
    {
        /** @var array<string, string> $headers filled by the header callback */
        $headers = [];
        $lines = [];
        foreach ($request->headers as $name => $value) {
            $lines[] = "{$name}: {$value}";
        }
        $handle = curl_init();
        curl_setopt_array($handle, [
            CURLOPT_URL => $request->url,
            CURLOPT_CUSTOMREQUEST => $request->method,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => $request->timeoutMs,
            CURLOPT_CONNECTTIMEOUT_MS => $request->timeoutMs,
            // Millisecond timeouts below one second need this with the synchronous resolver.
            CURLOPT_NOSIGNAL => true,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_HEADERFUNCTION => static function (\CurlHandle $_handle, string $line) use (&$headers): int {
                $colon = strpos($line, ':');
                if ($colon === false) {
                    // A status line starts a new header block (e.g. after "100 Continue").
                    if (str_starts_with($line, 'HTTP/')) {
                        $headers = [];
                    }
                    return strlen($line);
                }
                $name = strtolower(trim(substr($line, 0, $colon)));
                $value = trim(substr($line, $colon + 1));
                $headers[$name] = isset($headers[$name]) ? $headers[$name] . ', ' . $value : $value;
                return strlen($line);
            },
        ]);
        $body = curl_exec($handle);
        $errno = curl_errno($handle);
        $error = curl_error($handle);
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);

        $origin = self::origin($request->url);
        if ($errno === CURLE_OPERATION_TIMEDOUT) {
            throw new MailrenderError(
                MailrenderError::TIMEOUT,
                0,
                "No answer from {$origin} within {$request->timeoutMs} ms",
            );
        }
        if ($errno !== 0 || !is_string($body)) {
            // curl's message names the host and the cause, never the request headers (so never the key).
            throw new MailrenderError(MailrenderError::NETWORK_ERROR, 0, "Could not reach {$origin}: {$error}");
        }
        return new HttpResponse($status, $headers, $body);
    }

    /** scheme://host[:port] of a URL: what error messages name. */
    public static function origin(string $url): string
    {
        $parts = parse_url($url);
        if ($parts === false || !isset($parts['scheme'], $parts['host'])) {
            return 'the service';
        }
        return $parts['scheme'] . '://' . $parts['host'] . (isset($parts['port']) ? ':' . $parts['port'] : '');
    }
}
