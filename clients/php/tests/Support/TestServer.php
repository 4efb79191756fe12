<?php

declare(strict_types=1);

namespace Mailrender\Tests\Support;

use RuntimeException;

/**
 * The real mailrender server (`node server/lib/cli.js`, built by `npm run build -w @mailrender/server`)
 * on a free loopback port with a throwaway SQLite file and a bootstrap admin key, as an operator runs it.
 */
final class TestServer
{
    /** @var resource|null */
    private mixed $process = null;
    public readonly string $adminKey;
    public readonly int $port;
    public readonly string $url;
    /** @var non-empty-string */
    private readonly string $dir;

    /** @param array<string, string> $env extra environment, e.g. a rate limit */
    private function __construct(private readonly array $env)
    {
        $this->adminKey = 'sk_live_' . bin2hex(random_bytes(32));
        $this->port = self::freePort();
        $this->url = "http://127.0.0.1:{$this->port}";
        $this->dir = Paths::tempDir('mailrender-php-server-');
    }

    /** @param array<string, string> $env */
    public static function start(array $env = []): self
    {
        $server = new self($env);
        $server->boot();
        return $server;
    }

    public static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
        if ($socket === false) {
            throw new RuntimeException("no free port: {$error}");
        }
        $name = (string) stream_socket_get_name($socket, false);
        fclose($socket);
        return (int) substr($name, (int) strrpos($name, ':') + 1);
    }

    public function boot(): void
    {
        if ($this->process !== null) {
            return;
        }
        $cli = Paths::repoRoot() . '/server/lib/cli.js';
        if (!is_file($cli)) {
            throw new RuntimeException("{$cli} is missing: run `npm run build -w @mailrender/server` (scripts/test-client-php.sh does)");
        }
        $env = getenv();
        unset($env['DATABASE_URL']);
        $env = array_merge($env, [
            'HOST' => '127.0.0.1',
            'PORT' => (string) $this->port,
            'MAILRENDER_SQLITE_PATH' => $this->dir . '/mailrender.db',
            'MAILRENDER_ADMIN_KEY' => $this->adminKey,
            // No server-side lookup cache: a change made through the admin API is seen at once.
            'MAILRENDER_CACHE_TTL_MS' => '0',
            'MAILRENDER_RATE_LIMIT_MAX' => '0',
            'LOG_LEVEL' => 'warn',
        ], $this->env);
        $log = $this->dir . '/server.log';
        // One append-mode handle for stdout and stderr, so neither overwrites the other.
        $logFile = fopen($log, 'ab');
        if ($logFile === false) {
            throw new RuntimeException("cannot open {$log}");
        }
        $pipes = [];
        $process = proc_open(['node', $cli, 'serve'], [0 => ['file', '/dev/null', 'r'], 1 => $logFile, 2 => $logFile], $pipes, $this->dir, $env);
        fclose($logFile);
        if (!is_resource($process)) {
            throw new RuntimeException('could not start node');
        }
        $this->process = $process;
        $deadline = microtime(true) + 30;
        while (microtime(true) < $deadline) {
            if (!proc_get_status($process)['running']) {
                $this->process = null;
                throw new RuntimeException('the server exited at start: ' . self::read($log));
            }
            [$status] = Http::request('GET', $this->url . '/healthz');
            if ($status === 200) {
                return;
            }
            usleep(50_000);
        }
        $this->stop();
        throw new RuntimeException('the server did not become healthy: ' . self::read($log));
    }

    /** SIGTERM (the server drains and exits), SIGKILL after 5 s. The port is free afterwards. */
    public function stop(): void
    {
        if ($this->process === null) {
            return;
        }
        proc_terminate($this->process, 15);
        $deadline = microtime(true) + 5;
        while (proc_get_status($this->process)['running'] && microtime(true) < $deadline) {
            usleep(20_000);
        }
        if (proc_get_status($this->process)['running']) {
            proc_terminate($this->process, 9);
        }
        proc_close($this->process);
        $this->process = null;
    }

    public function destroy(): void
    {
        $this->stop();
        Paths::removeTree($this->dir);
    }

    /** @return array{int, mixed, array<string, string>} status, decoded JSON body, headers */
    public function admin(string $method, string $path, ?string $jsonBody = null): array
    {
        // The admin key is rate limited too when a test class lowers the limit: wait and try again.
        $attempt = 0;
        while (true) {
            [$status, $body, $headers] = Http::request($method, $this->url . $path, $this->adminKey, $jsonBody);
            if ($status !== 429 || $attempt >= 5) {
                return [$status, json_decode($body, true), $headers];
            }
            usleep(max(1, (int) ($headers['retry-after'] ?? '1')) * 1_000_000);
            $attempt++;
        }
    }

    /**
     * @param list<string> $targets
     * @return array{id: string, key: string}
     */
    public function createKey(array $targets, string $name = 'php-test'): array
    {
        [$status, $json] = $this->admin('POST', '/api/v1/keys', Json::encode(['name' => $name, 'targets' => $targets]));
        if ($status !== 201) {
            throw new RuntimeException("key creation answered {$status}: " . Json::encode($json));
        }
        return ['id' => Json::string($json, 'id'), 'key' => Json::string($json, 'key')];
    }

    /**
     * The template JSON without its template_id: the fixtures' ids are not UUIDs, which the service
     * refuses; stored without one, a template gets the service's own. Anything but an object is kept.
     */
    public static function withoutId(string $templateJson): string
    {
        $template = json_decode($templateJson);
        if (!$template instanceof \stdClass) {
            return $templateJson;
        }
        unset($template->template_id);
        return (string) json_encode($template, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
    }

    /** @return array{id: string, etag: string} */
    public function createTemplate(string $templateJson): array
    {
        [$status, $json] = $this->admin('POST', '/api/v1/templates', self::withoutId($templateJson));
        if ($status !== 201) {
            throw new RuntimeException("template creation answered {$status}: " . Json::encode($json));
        }
        return ['id' => Json::string($json, 'id'), 'etag' => Json::string($json, 'etag')];
    }

    public function replaceTemplate(string $id, string $templateJson): void
    {
        [$status, $json] = $this->admin('PUT', '/api/v1/templates/' . $id, self::withoutId($templateJson));
        if ($status !== 200) {
            throw new RuntimeException("template replace answered {$status}: " . Json::encode($json));
        }
    }

    public function deleteTemplate(string $id): void
    {
        [$status] = $this->admin('DELETE', '/api/v1/templates/' . $id);
        if ($status !== 204) {
            throw new RuntimeException("template delete answered {$status}");
        }
    }

    private static function read(string $path): string
    {
        $text = @file_get_contents($path);
        return $text === false ? "({$path} is unreadable)" : $text;
    }

    public function revokeKey(string $id): void
    {
        [$status] = $this->admin('DELETE', '/api/v1/keys/' . $id);
        if ($status >= 300) {
            throw new RuntimeException("key revoke answered {$status}");
        }
    }
}
