<?php

declare(strict_types=1);

namespace Mailrender\Tests\Unit;

use InvalidArgumentException;
use Mailrender\Config;
use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\RecordingEngine;
use PHPUnit\Framework\TestCase;

final class ConfigTest extends TestCase
{
    public function testDefaultsFollowTheSpec(): void
    {
        $config = Config::resolve(['apiKey' => 'sk_test'], []);
        self::assertSame('http://localhost:8787', $config->baseUrl);
        self::assertSame(30000, $config->timeoutMs);
        self::assertSame('memory', $config->cacheType);
        self::assertSame('.mailrender-cache', $config->cachePath);
        self::assertSame(300000, $config->cacheTtlMs, 'the seed: 5 minutes');
        self::assertSame(50, $config->cacheMaxEntries, 'the seed: 50 entries');
        self::assertNull($config->enginePath);
    }

    public function testEnvironmentSuppliesKeyAndBaseUrl(): void
    {
        $config = Config::resolve([], ['MAILRENDER_API_KEY' => 'sk_env', 'MAILRENDER_BASE_URL' => 'https://mail.example.com/']);
        self::assertSame('sk_env', $config->apiKey);
        self::assertSame('https://mail.example.com', $config->baseUrl);
        $explicit = Config::resolve(['apiKey' => 'sk_arg', 'baseUrl' => 'http://h:1'], ['MAILRENDER_API_KEY' => 'sk_env']);
        self::assertSame('sk_arg', $explicit->apiKey);
        self::assertSame('http://h:1', $explicit->baseUrl);
    }

    public function testTheClientReadsTheRealEnvironment(): void
    {
        putenv('MAILRENDER_API_KEY=sk_from_env');
        try {
            $client = new MailrenderClient([], null, new RecordingEngine());
            self::assertSame('http://localhost:8787', $client->baseUrl());
        } finally {
            putenv('MAILRENDER_API_KEY');
        }
    }

    /** @return iterable<string, array{array<mixed>, array<string, string>}> */
    public static function emptyKeys(): iterable
    {
        yield 'no key anywhere' => [[], []];
        yield 'empty string' => [['apiKey' => ''], ['MAILRENDER_API_KEY' => 'sk_env']];
        yield 'whitespace' => [['apiKey' => '   '], []];
        yield 'empty env' => [[], ['MAILRENDER_API_KEY' => '']];
    }

    /**
     * @dataProvider emptyKeys
     * @param array<mixed> $config
     * @param array<string, string> $env
     */
    public function testAnEmptyKeyFailsAtConstructionWithInvalidApiKey(array $config, array $env): void
    {
        try {
            Config::resolve($config, $env);
            self::fail('expected INVALID_API_KEY');
        } catch (MailrenderError $e) {
            self::assertSame('INVALID_API_KEY', $e->getErrorCode());
            self::assertSame(0, $e->status);
            self::assertSame("An API key is required: pass 'apiKey' or set MAILRENDER_API_KEY", $e->getMessage());
        }
    }

    public function testTheConstructorRaisesItToo(): void
    {
        putenv('MAILRENDER_API_KEY');
        $this->expectException(MailrenderError::class);
        $this->expectExceptionMessage('An API key is required');
        new MailrenderClient(['apiKey' => ''], null, new RecordingEngine());
    }

    /** @return iterable<string, array{array<mixed>, string}> */
    public static function unknownKeys(): iterable
    {
        yield 'typo' => [['apiKey' => 'k', 'timeOut' => 5], "MailrenderClient: unknown config key 'timeOut'; known keys: apiKey, baseUrl, timeout, cache, enginePath"];
        yield 'JS 2.0 option' => [['apiKey' => 'k', 'cacheTtl' => 5], "MailrenderClient: unknown config key 'cacheTtl' (use cache => ['ttl' => ...]); known keys: apiKey, baseUrl, timeout, cache, enginePath"];
        yield 'python spelling' => [['api_key' => 'k'], "MailrenderClient: unknown config key 'api_key' (use apiKey); known keys: apiKey, baseUrl, timeout, cache, enginePath"];
        yield 'cache key' => [['apiKey' => 'k', 'cache' => ['ttl' => 1, 'max' => 3]], "MailrenderClient: unknown config key 'cache.max'; known keys: cache.type, cache.path, cache.ttl, cache.maxEntries"];
    }

    /**
     * @dataProvider unknownKeys
     * @param array<mixed> $config
     */
    public function testUnknownKeysAreRejectedWithAClearMessage(array $config, string $message): void
    {
        try {
            // @mago-expect analysis:possibly-invalid-argument (a config with keys the client refuses)
            new MailrenderClient($config, null, new RecordingEngine());
            self::fail('expected a rejection');
        } catch (InvalidArgumentException $e) {
            self::assertSame($message, $e->getMessage());
        }
    }

    /** @return iterable<string, array{array<mixed>, string}> */
    public static function badValues(): iterable
    {
        yield 'cache type' => [['cache' => ['type' => 'redis']], "cache.type must be 'memory' or 'disk', got 'redis'"];
        yield 'negative ttl' => [['cache' => ['ttl' => -1]], 'cache.ttl (milliseconds) must be an integer >= 0, got -1'];
        yield 'zero entries' => [['cache' => ['maxEntries' => 0]], 'cache.maxEntries must be an integer >= 1, got 0'];
        yield 'timeout as string' => [['timeout' => '30'], "timeout (milliseconds) must be an integer >= 1, got '30'"];
        yield 'base url scheme' => [['baseUrl' => 'ftp://x'], "baseUrl must use http or https, got 'ftp'"];
        yield 'base url junk' => [['baseUrl' => 'not a url'], "baseUrl is not a valid URL: 'not a url'"];
        yield 'cache not array' => [['cache' => 'disk'], "'cache' must be an array"];
        yield 'engine path' => [['enginePath' => ''], 'enginePath must be a non-empty string'];
    }

    /**
     * @dataProvider badValues
     * @param array<mixed> $config
     */
    public function testMalformedValuesAreRejected(array $config, string $message): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($message);
        Config::resolve(['apiKey' => 'k'] + $config, []);
    }

    public function testTheKeyNeverShowsInDumps(): void
    {
        $secret = 'sk_live_' . str_repeat('ab', 32);
        $client = new MailrenderClient(['apiKey' => $secret], null, new RecordingEngine());
        self::assertStringNotContainsString($secret, print_r($client, true));
        ob_start();
        var_dump($client);
        $dump = (string) ob_get_clean();
        self::assertStringNotContainsString($secret, $dump);
        self::assertStringContainsString('[redacted]', $dump);
    }

    public function testEngineAndEnginePathTogetherAreRefused(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('pass either an Engine or enginePath, not both');
        new MailrenderClient(['apiKey' => 'k', 'enginePath' => '/bin/true'], null, new RecordingEngine());
    }

    public function testTheEnvironmentSuppliesTheEnginePathAndAnOptionWins(): void
    {
        $env = ['MAILRENDER_ENGINE_PATH' => '/opt/engine'];
        self::assertSame('/opt/engine', Config::resolve(['apiKey' => 'k'], $env)->enginePath);
        self::assertSame('/x', Config::resolve(['apiKey' => 'k', 'enginePath' => '/x'], $env)->enginePath);
        self::assertNull(Config::resolve(['apiKey' => 'k'], [])->enginePath);
    }

    public function testAKeyThatCannotBeSentInAHeaderIsInvalidApiKeyWithoutShowingIt(): void
    {
        try {
            Config::resolve(['apiKey' => "sk_live_\u{e9}t\u{e9}"], []);
            self::fail('expected INVALID_API_KEY');
        } catch (MailrenderError $e) {
            self::assertSame('INVALID_API_KEY', $e->getErrorCode());
            self::assertStringNotContainsString('sk_live', $e->getMessage());
        }
    }
}
