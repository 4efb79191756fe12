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
use Mailrender\Tests\Support\Paths;
use PHPUnit\Framework\TestCase;

/** The shared client contract (spec/clients.md): every fixtures/client/v1 file against this client's pure functions. */
final class ClientContractTest extends TestCase
{
    private static function dir(): string
    {
        return Paths::fixtures() . '/client/v1';
    }

    /** @return array<string, array{array<string, mixed>}> */
    private static function cases(string $file): array
    {
        $doc = json_decode((string) file_get_contents(self::dir() . '/' . $file), true, 512, JSON_THROW_ON_ERROR);
        $out = [];
        foreach ($doc['cases'] as $i => $case) {
            $out[(string) ($case['name'] ?? $i)] = [$case];
        }
        return $out;
    }

    /** @param array{code: string, status: int} $e */
    private static function error(array $e): MailrenderError
    {
        return new MailrenderError($e['code'], $e['status'], 'fixture');
    }

    /** @param array{key: string, targets: list<string>, complete: bool}|null $raw */
    private static function scope(?array $raw): ?CachedScope
    {
        return $raw === null ? null : new CachedScope($raw['key'], $raw['targets'], $raw['complete']);
    }

    public function testEveryFixtureFileIsRunHere(): void
    {
        $source = (string) file_get_contents(__FILE__);
        foreach (glob(self::dir() . '/*.json') ?: [] as $path) {
            self::assertStringContainsString(basename($path) . "'", $source, basename($path) . ' is not run by the PHP client');
        }
    }

    public static function statusCodes(): array
    {
        return self::cases('status-code.json');
    }

    /** @dataProvider statusCodes */
    public function testStatusCode(array $case): void
    {
        self::assertSame($case['code'], MailrenderError::codeForStatus($case['status']));
    }

    public static function retryAfters(): array
    {
        return self::cases('retry-after.json');
    }

    /** @dataProvider retryAfters */
    public function testRetryAfter(array $case): void
    {
        self::assertSame($case['ms'], RetryPolicy::parseRetryAfter($case['header'], $case['now_ms']));
    }

    public static function retryDelays(): array
    {
        return self::cases('retry-delay.json');
    }

    /** @dataProvider retryDelays */
    public function testRetryDelay(array $case): void
    {
        $policy = new RetryPolicy(random: static fn (): float => (float) $case['random']);
        self::assertSame($case['delay_ms'], $policy->delayFor(self::error($case['error']), $case['retry_after_ms'], $case['retry_index']));
    }

    public static function fingerprints(): array
    {
        return self::cases('key-fingerprint.json');
    }

    /** @dataProvider fingerprints */
    public function testKeyFingerprint(array $case): void
    {
        self::assertSame($case['fingerprint'], CachedScope::fingerprint($case['api_key']));
    }

    public static function verdicts(): array
    {
        return self::cases('scope-verdict.json');
    }

    /** @dataProvider verdicts */
    public function testScopeVerdict(array $case): void
    {
        self::assertSame($case['verdict'], CachedScope::verdict(self::scope($case['scope']), $case['fingerprint'], $case['target']));
    }

    public static function staleOrRaise(): array
    {
        return self::cases('stale-or-raise.json');
    }

    /** @dataProvider staleOrRaise */
    public function testStaleOrRaise(array $case): void
    {
        $stale = MailrenderClient::mayServeStale(self::error($case['error']), $case['verdict']);
        self::assertSame($case['outcome'], $stale ? 'stale' : 'raise');
    }

    public static function fileNames(): array
    {
        return self::cases('cache-file-name.json');
    }

    /** @dataProvider fileNames */
    public function testCacheFileName(array $case): void
    {
        self::assertSame($case['file_name'], DiskCache::fileNameFor($case['template_id']));
    }

    public static function entryReads(): array
    {
        return self::cases('cache-entry-read.json');
    }

    /** @dataProvider entryReads */
    public function testCacheEntryRead(array $case): void
    {
        $entry = CacheEntry::fromJson($case['file'], $case['template_id']);
        if ($case['entry'] === null) {
            self::assertNull($entry);
            return;
        }
        self::assertNotNull($entry);
        $expected = json_decode(json_encode($case['entry'], JSON_THROW_ON_ERROR), false);
        self::assertSame($expected->templateId, $entry->templateId);
        self::assertSame($expected->etag, $entry->etag);
        self::assertSame($expected->fetchedAt, $entry->fetchedAt);
        self::assertEquals($case['entry']['scope'], $entry->scope === null ? null : (array) $entry->scope);
        // Compared as JSON text of the decoded objects: {} and [] must stay apart.
        $fixtureTemplate = json_decode((string) json_encode(json_decode($case['file'], false)->template), false);
        self::assertSame(json_encode($fixtureTemplate), json_encode(json_decode($entry->templateJson, false)));
        self::assertStringContainsString('"empty_object":{}', $entry->templateJson);
    }

    public static function entryWrites(): array
    {
        return self::cases('cache-entry-write.json');
    }

    /** @dataProvider entryWrites */
    public function testCacheEntryWrite(array $case): void
    {
        $file = (string) file_get_contents(self::dir() . '/cache-entry-write.json');
        // The template's own JSON text, objects kept as objects, as the service would send it.
        $raw = json_decode($file, false)->cases[array_search($case, array_column(self::cases('cache-entry-write.json'), 0), true)];
        $e = $case['entry'];
        $entry = new CacheEntry($e['templateId'], (string) json_encode($raw->entry->template), $e['etag'], $e['fetchedAt'], self::scope($e['scope']));
        $written = $entry->toJson();
        self::assertEquals(json_decode((string) json_encode($raw->file), true), json_decode($written, true));
        self::assertSame(json_encode($raw->file->template), json_encode(json_decode($written, false)->template));
    }

    public static function cacheTimes(): array
    {
        return self::cases('cache-time.json');
    }

    /** @dataProvider cacheTimes */
    public function testCacheTime(array $case): void
    {
        $fetchedAt = CacheTime::millis($case['written_at']);
        self::assertSame($case['fetched_at'], $fetchedAt);
        self::assertSame($case['fresh'], CacheTime::isFresh($fetchedAt, CacheTime::millis($case['read_at']), $case['ttl']));
    }

    public static function envelopes(): array
    {
        return self::cases('engine-envelope.json');
    }

    /** @dataProvider envelopes */
    public function testEngineEnvelope(array $case): void
    {
        if (isset($case['result'])) {
            $result = Envelope::result($case['envelope']);
            self::assertSame($case['result'], ['output' => $result->output, 'warnings' => $result->warnings]);
            return;
        }
        try {
            Envelope::result($case['envelope']);
            self::fail('no error');
        } catch (MailrenderError $error) {
            self::assertSame($case['error'], ['code' => $error->getErrorCode(), 'status' => $error->status, 'issues' => $error->issues]);
        }
    }

    public function testUserAgent(): void
    {
        $fixture = json_decode((string) file_get_contents(self::dir() . '/user-agent.json'), true, 512, JSON_THROW_ON_ERROR);
        $pattern = '#' . $fixture['pattern'] . '#';
        foreach ($fixture['cases'] as $case) {
            self::assertSame($case['valid'], preg_match($pattern, $case['user_agent']) === 1, $case['user_agent']);
        }
        self::assertMatchesRegularExpression($pattern, Defaults::userAgent());
        self::assertStringStartsWith('mailrender-php/', Defaults::userAgent());
    }
}
