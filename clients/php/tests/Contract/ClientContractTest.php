<?php

declare(strict_types=1);

namespace Mailrender\Tests\Contract;

use Mailrender\Cache\CachedScope;
use Mailrender\Cache\CacheEntry;
use Mailrender\Cache\CacheTime;
use Mailrender\Cache\DiskCache;
use Mailrender\Defaults;
use Mailrender\Engine\Envelope;
use Mailrender\Http\RetryPolicy;
use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\Json;
use Mailrender\Tests\Support\Paths;
use PHPUnit\Framework\TestCase;

/** The shared client contract (spec/clients.md): every fixtures/client/v1 file against this client's pure functions. */
final class ClientContractTest extends TestCase
{
    private static function dir(): string
    {
        return Paths::fixtures() . '/client/v1';
    }

    /** @return array<string, array{array<mixed>}> each case of the file, by its name */
    private static function cases(string $file): array
    {
        $out = [];
        foreach (Json::arrays(Json::file(self::dir() . '/' . $file), 'cases') as $i => $case) {
            $name = $case['name'] ?? $i;
            $out[is_string($name) ? $name : (string) $i] = [$case];
        }
        return $out;
    }

    /**
     * The fixture's error {code, status} at $key of $case.
     *
     * @param array<mixed> $case
     */
    private static function error(array $case, string $key = 'error'): MailrenderError
    {
        return new MailrenderError(Json::string($case, $key, 'code'), Json::int($case, $key, 'status'), 'fixture');
    }

    /** The fixture's scope {key, targets, complete} (or null) at $path of $doc. */
    private static function scope(mixed $doc, string ...$path): ?CachedScope
    {
        $raw = Json::arrayOrNull($doc, ...$path);
        return $raw === null
            ? null
            : new CachedScope(Json::string($raw, 'key'), Json::strings($raw, 'targets'), Json::bool($raw, 'complete'));
    }

    public function testEveryFixtureFileIsRunHere(): void
    {
        $source = (string) file_get_contents(__FILE__);
        foreach (glob(self::dir() . '/*.json') ?: [] as $path) {
            self::assertStringContainsString(basename($path) . "'", $source, basename($path) . ' is not run by the PHP client');
        }
    }

    /** @return array<string, array{array<mixed>}> */
    public static function statusCodes(): array
    {
        return self::cases('status-code.json');
    }

    /**
     * @dataProvider statusCodes
     * @param array<mixed> $case
     */
    public function testStatusCode(array $case): void
    {
        self::assertSame(Json::string($case, 'code'), MailrenderError::codeForStatus(Json::int($case, 'status')));
    }

    /** @return array<string, array{array<mixed>}> */
    public static function retryAfters(): array
    {
        return self::cases('retry-after.json');
    }

    /**
     * @dataProvider retryAfters
     * @param array<mixed> $case
     */
    public function testRetryAfter(array $case): void
    {
        self::assertSame(
            Json::intOrNull($case, 'ms'),
            RetryPolicy::parseRetryAfter(Json::stringOrNull($case, 'header'), Json::intOrNull($case, 'now_ms')),
        );
    }

    /** @return array<string, array{array<mixed>}> */
    public static function retryDelays(): array
    {
        return self::cases('retry-delay.json');
    }

    /**
     * @dataProvider retryDelays
     * @param array<mixed> $case
     */
    public function testRetryDelay(array $case): void
    {
        $random = (float) Json::number($case, 'random');
        $policy = new RetryPolicy(random: static fn (): float => $random);
        self::assertSame(
            Json::intOrNull($case, 'delay_ms'),
            $policy->delayFor(self::error($case), Json::intOrNull($case, 'retry_after_ms'), Json::int($case, 'retry_index')),
        );
    }

    /** @return array<string, array{array<mixed>}> */
    public static function fingerprints(): array
    {
        return self::cases('key-fingerprint.json');
    }

    /**
     * @dataProvider fingerprints
     * @param array<mixed> $case
     */
    public function testKeyFingerprint(array $case): void
    {
        self::assertSame(Json::string($case, 'fingerprint'), CachedScope::fingerprint(Json::string($case, 'api_key')));
    }

    /** @return array<string, array{array<mixed>}> */
    public static function verdicts(): array
    {
        return self::cases('scope-verdict.json');
    }

    /**
     * @dataProvider verdicts
     * @param array<mixed> $case
     */
    public function testScopeVerdict(array $case): void
    {
        $verdict = CachedScope::verdict(self::scope($case, 'scope'), Json::string($case, 'fingerprint'), Json::string($case, 'target'));
        self::assertSame(Json::string($case, 'verdict'), $verdict);
    }

    /** @return array<string, array{array<mixed>}> */
    public static function staleOrRaise(): array
    {
        return self::cases('stale-or-raise.json');
    }

    /**
     * @dataProvider staleOrRaise
     * @param array<mixed> $case
     */
    public function testStaleOrRaise(array $case): void
    {
        $stale = MailrenderClient::mayServeStale(self::error($case), Json::string($case, 'verdict'));
        self::assertSame(Json::string($case, 'outcome'), $stale ? 'stale' : 'raise');
    }

    /** @return array<string, array{array<mixed>}> */
    public static function layoutFileNames(): array
    {
        return self::cases('cache-layout-file-name.json');
    }

    /**
     * @dataProvider layoutFileNames
     * @param array<mixed> $case
     */
    public function testCacheLayoutFileName(array $case): void
    {
        self::assertSame(
            Json::string($case, 'file_name'),
            DiskCache::layoutFileNameFor(Json::string($case, 'template_id'), Json::string($case, 'target'), Json::bool($case, 'minify')),
        );
    }

    /** @return array<string, array{array<mixed>}> */
    public static function fileNames(): array
    {
        return self::cases('cache-file-name.json');
    }

    /**
     * @dataProvider fileNames
     * @param array<mixed> $case
     */
    public function testCacheFileName(array $case): void
    {
        self::assertSame(Json::string($case, 'file_name'), DiskCache::fileNameFor(Json::string($case, 'template_id')));
    }

    /** @return array<string, array{array<mixed>}> */
    public static function entryReads(): array
    {
        return self::cases('cache-entry-read.json');
    }

    /**
     * @dataProvider entryReads
     * @param array<mixed> $case
     */
    public function testCacheEntryRead(array $case): void
    {
        $file = Json::string($case, 'file');
        $entry = CacheEntry::fromJson($file, Json::stringOrNull($case, 'template_id'));
        $expected = Json::arrayOrNull($case, 'entry');
        if ($expected === null) {
            self::assertNull($entry);
            return;
        }
        self::assertNotNull($entry);
        self::assertSame(Json::value($expected, 'templateId'), $entry->templateId);
        self::assertSame(Json::value($expected, 'etag'), $entry->etag);
        self::assertSame(Json::value($expected, 'fetchedAt'), $entry->fetchedAt);
        $scope = $entry->scope === null
            ? null
            : ['key' => $entry->scope->key, 'targets' => $entry->scope->targets, 'complete' => $entry->scope->complete];
        self::assertEquals(Json::value($expected, 'scope'), $scope);
        // Compared as JSON text of the decoded objects: {} and [] must stay apart.
        $fixtureTemplate = Json::member(json_decode($file, false), 'template');
        self::assertSame(Json::encode($fixtureTemplate), Json::encode(json_decode($entry->templateJson, false)));
        self::assertStringContainsString('"empty_object":{}', $entry->templateJson);
    }

    /** @return array<string, array{array<mixed>}> */
    public static function entryWrites(): array
    {
        return self::cases('cache-entry-write.json');
    }

    /**
     * @dataProvider entryWrites
     * @param array<mixed> $case
     */
    public function testCacheEntryWrite(array $case): void
    {
        // The case decoded again with objects kept as objects, for the template's JSON text as the service would send it.
        $raw = null;
        $file = json_decode((string) file_get_contents(self::dir() . '/cache-entry-write.json'), false);
        foreach (Json::array(Json::member($file, 'cases')) as $candidate) {
            if (Json::member($candidate, 'name') === Json::value($case, 'name')) {
                $raw = $candidate;
            }
        }
        $template = Json::member(Json::member($raw, 'entry'), 'template');
        $entry = new CacheEntry(
            Json::string($case, 'entry', 'templateId'),
            Json::encode($template),
            Json::stringOrNull($case, 'entry', 'etag'),
            Json::int($case, 'entry', 'fetchedAt'),
            self::scope($case, 'entry', 'scope'),
        );
        $written = $entry->toJson();
        self::assertEquals(Json::array($case, 'file'), json_decode($written, true));
        $writtenTemplate = Json::member(json_decode($written, false), 'template');
        self::assertSame(Json::encode(Json::member(Json::member($raw, 'file'), 'template')), Json::encode($writtenTemplate));
    }

    /** @return array<string, array{array<mixed>}> */
    public static function cacheTimes(): array
    {
        return self::cases('cache-time.json');
    }

    /**
     * @dataProvider cacheTimes
     * @param array<mixed> $case
     */
    public function testCacheTime(array $case): void
    {
        $fetchedAt = CacheTime::millis(Json::number($case, 'written_at'));
        self::assertSame(Json::int($case, 'fetched_at'), $fetchedAt);
        $fresh = CacheTime::isFresh($fetchedAt, CacheTime::millis(Json::number($case, 'read_at')), Json::number($case, 'ttl'));
        self::assertSame(Json::bool($case, 'fresh'), $fresh);
    }

    /** @return array<string, array{array<mixed>}> */
    public static function envelopes(): array
    {
        return self::cases('engine-envelope.json');
    }

    /**
     * @dataProvider envelopes
     * @param array<mixed> $case
     */
    public function testEngineEnvelope(array $case): void
    {
        if (isset($case['result'])) {
            $result = Envelope::result(Json::array($case, 'envelope'));
            self::assertSame($case['result'], ['output' => $result->output, 'warnings' => $result->warnings]);
            return;
        }
        try {
            Envelope::result(Json::array($case, 'envelope'));
            self::fail('no error');
        } catch (MailrenderError $error) {
            self::assertSame(Json::value($case, 'error'), ['code' => $error->getErrorCode(), 'status' => $error->status, 'issues' => $error->issues]);
        }
    }

    public function testUserAgent(): void
    {
        $fixture = Json::file(self::dir() . '/user-agent.json');
        $pattern = '#' . Json::string($fixture, 'pattern') . '#';
        foreach (Json::arrays($fixture, 'cases') as $case) {
            $userAgent = Json::string($case, 'user_agent');
            self::assertSame(Json::bool($case, 'valid'), preg_match($pattern, $userAgent) === 1, $userAgent);
        }
        self::assertMatchesRegularExpression($pattern, Defaults::userAgent());
        self::assertStringStartsWith('mailrender-php/', Defaults::userAgent());
    }
}
