<?php

declare(strict_types=1);

namespace Mailrender\Install;

use RuntimeException;

/**
 * Where `mailrender-install-engine` takes the engine and its SHA256SUMS from: a release on an HTTP
 * server (`--base-url`, the default), a local release directory, or one local engine file (`--from`).
 * A release (remote or local) is laid out as the release build writes it: `SHA256SUMS` at the top and
 * `<os>-<arch>/mailrender-engine[.exe]` beside it. Only the HTTP source touches the network.
 */
final class EngineSource
{
    private const TIMEOUT_SECONDS = 120;

    /** @param 'url'|'directory'|'file' $kind */
    private function __construct(private readonly string $kind, private readonly string $location)
    {
    }

    /** A release served over HTTP(S), e.g. `https://…/engine-v1.2.0`. */
    public static function url(string $baseUrl): self
    {
        return new self('url', rtrim($baseUrl, '/'));
    }

    /**
     * `--from <path>`: a local release directory, or one engine executable whose SHA256SUMS lies next
     * to it or one directory up (the release layout). Relative paths are taken from the working directory.
     */
    public static function local(string $path): self
    {
        $real = realpath($path);
        if ($real === false) {
            throw new RuntimeException("--from {$path}: no such file or directory");
        }
        return new self(is_dir($real) ? 'directory' : 'file', $real);
    }

    /**
     * The SHA256SUMS text and where it was read.
     *
     * @return array{string, string}
     */
    public function sums(): array
    {
        if ($this->kind === 'url') {
            return [$this->download("{$this->location}/SHA256SUMS"), "{$this->location}/SHA256SUMS"];
        }
        $candidates = $this->kind === 'directory'
            ? [$this->location]
            : [dirname($this->location), dirname($this->location, 2)];
        foreach ($candidates as $dir) {
            if (is_file("{$dir}/SHA256SUMS")) {
                return [$this->readFile("{$dir}/SHA256SUMS"), "{$dir}/SHA256SUMS"];
            }
        }
        throw new RuntimeException(
            $this->kind === 'directory'
                ? "{$this->location} has no SHA256SUMS: --from takes a release directory "
                    . '(SHA256SUMS and <os>-<arch>/mailrender-engine) or an engine file'
                : 'no SHA256SUMS next to ' . $this->location . ' or in ' . dirname($this->location, 2)
                    . ': the engine cannot be checked, so it was not installed',
        );
    }

    /**
     * The bytes of `$asset` (`<os>-<arch>/mailrender-engine[.exe]`) and where they were read.
     *
     * @return array{string, string}
     */
    public function binary(string $asset): array
    {
        return match ($this->kind) {
            'url' => [$this->download("{$this->location}/{$asset}"), "{$this->location}/{$asset}"],
            'directory' => [$this->readFile("{$this->location}/{$asset}"), "{$this->location}/{$asset}"],
            'file' => [$this->readFile($this->location), $this->location],
        };
    }

    private function readFile(string $path): string
    {
        $bytes = is_file($path) ? @file_get_contents($path) : false;
        if ($bytes === false) {
            throw new RuntimeException("cannot read {$path}");
        }
        return $bytes;
    }

    private function download(string $url): string
    {
        $context = stream_context_create([
            'http' => ['timeout' => self::TIMEOUT_SECONDS, 'follow_location' => 1, 'ignore_errors' => true],
        ]);
        $stream = @fopen($url, 'rb', false, $context);
        $body = false;
        $status = 0;
        if ($stream !== false) {
            $body = stream_get_contents($stream);
            $status = self::status(stream_get_meta_data($stream)['wrapper_data'] ?? null);
            fclose($stream);
        }
        if ($body === false || $status !== 200) {
            $reason = $status !== 0 ? "HTTP {$status}" : (error_get_last()['message'] ?? 'no answer');
            throw new RuntimeException("cannot download {$url}: {$reason}");
        }
        return $body;
    }

    /** The status of the last response in an http stream's headers (redirects come first), 0 if none. */
    private static function status(mixed $headers): int
    {
        $status = 0;
        foreach (is_array($headers) ? $headers : [] as $line) {
            if (is_string($line) && preg_match('#^HTTP/\S+ (\d{3})#', $line, $m) === 1 && isset($m[1])) {
                $status = (int) $m[1];
            }
        }
        return $status;
    }
}
