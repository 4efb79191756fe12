<?php

declare(strict_types=1);

namespace Mailrender\Tests\Support;

/** A bare cURL call for test set-up (admin API, health checks); independent of the client's own transport. */
final class Http
{
    /** @return array{int, string, array<string, string>} status (0 when no answer), body, headers */
    public static function request(string $method, string $url, ?string $bearer = null, ?string $jsonBody = null): array
    {
        /** @var array<string, string> $headers filled by the header callback */
        $headers = [];
        $lines = [];
        if ($bearer !== null) {
            $lines[] = 'Authorization: Bearer ' . $bearer;
        }
        if ($jsonBody !== null) {
            $lines[] = 'Content-Type: application/json';
        }
        $ch = curl_init($url);
        curl_setopt_array($ch, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_TIMEOUT => 10,
            CURLOPT_HEADERFUNCTION => static function (\CurlHandle $_handle, string $line) use (&$headers): int {
                $colon = strpos($line, ':');
                if ($colon !== false) {
                    $headers[strtolower(trim(substr($line, 0, $colon)))] = trim(substr($line, $colon + 1));
                }
                return strlen($line);
            },
        ]);
        if ($jsonBody !== null) {
            curl_setopt($ch, CURLOPT_POSTFIELDS, $jsonBody);
        }
        $body = curl_exec($ch);
        $status = (int) curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
        return [$body === false ? 0 : $status, is_string($body) ? $body : '', $headers];
    }
}
