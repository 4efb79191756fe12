<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use Mailrender\Engine\Engine;
use Mailrender\Http\CurlTransport;
use Mailrender\Http\RetryPolicy;
use Mailrender\Http\Transport;
use Mailrender\MailrenderClient;
use Mailrender\Tests\Support\CountingTransport;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\TestServer;
use PHPUnit\Framework\TestCase;

/** One real server per test class; each test gets a fresh temp folder. */
abstract class ServerTestCase extends TestCase
{
    protected static ?TestServer $server = null;
    /** A key for every target. */
    protected static string $key = '';
    protected string $dir;

    /** @return array<string, string> extra server environment for the class */
    protected static function serverEnv(): array
    {
        return [];
    }

    public static function setUpBeforeClass(): void
    {
        static::$server = TestServer::start(static::serverEnv());
        static::$key = static::$server->createKey(['all'])['key'];
    }

    public static function tearDownAfterClass(): void
    {
        static::$server?->destroy();
        static::$server = null;
    }

    protected function setUp(): void
    {
        $this->dir = Paths::tempDir();
        static::$server?->boot();
    }

    protected function tearDown(): void
    {
        Paths::removeTree($this->dir);
    }

    protected static function server(): TestServer
    {
        self::assertNotNull(static::$server);
        return static::$server;
    }

    /**
     * A client on the real server and the real engine, with the real cURL transport wrapped so the
     * test can see what went over the wire.
     *
     * @param array<string, mixed> $config
     */
    protected function client(array $config = [], ?CountingTransport &$wire = null, ?Engine $engine = null, ?Transport $transport = null, ?RetryPolicy $retry = null): MailrenderClient
    {
        $wire = new CountingTransport($transport ?? new CurlTransport());
        return new MailrenderClient($config + ['apiKey' => static::$key, 'baseUrl' => self::server()->url], $wire, $engine, $retry);
    }

    /** Retries without the real backoff sleeps, for tests that count attempts. */
    protected static function quickRetries(): RetryPolicy
    {
        return new RetryPolicy(2, 1, 30000, static function (int $ms): void {
            usleep(min($ms, 2000) * 1000);
        });
    }
}
