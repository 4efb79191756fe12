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
     * A client on the real server and the real engine; its transport is $wire (the real cURL
     * transport by default), through which the test sees what went over the wire.
     *
     * @param array{apiKey?: string, baseUrl?: string, timeout?: int, cache?: array{type?: 'memory'|'disk',
     *     path?: string, ttl?: int, maxEntries?: int}, enginePath?: string} $config
     */
    protected function client(array $config = [], ?CountingTransport $wire = null, ?Engine $engine = null, ?RetryPolicy $retry = null): MailrenderClient
    {
        $config += ['apiKey' => static::$key, 'baseUrl' => self::server()->url];
        return new MailrenderClient($config, $wire ?? self::wire(), $engine, $retry);
    }

    /** A recording wrapper around $transport (the real cURL transport by default). */
    protected static function wire(?Transport $transport = null): CountingTransport
    {
        return new CountingTransport($transport ?? new CurlTransport());
    }

    /** Retries without the real backoff sleeps, for tests that count attempts. */
    protected static function quickRetries(): RetryPolicy
    {
        return new RetryPolicy(2, 1, 30000, static function (int $ms): void {
            usleep(max(0, min($ms, 2000)) * 1000);
        });
    }
}
