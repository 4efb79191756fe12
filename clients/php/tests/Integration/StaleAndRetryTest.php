<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use Mailrender\Http\HttpResponse;
use Mailrender\Http\RetryPolicy;
use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\CountingTransport;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\ScriptedTransport;

/** Outages: the server stopped, a silent server, 5xx runs; stale-on-error and the retry rules. */
final class StaleAndRetryTest extends ServerTestCase
{
    public function testWithTheServerStoppedTheLastGoodCopyIsUsedAndFlaggedStale(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate('Stale'))['id'];
        $wire = self::wire();
        $client = $this->client(['cache' => ['ttl' => 0]], $wire, null, self::quickRetries());
        $fresh = $client->render(['templateId' => $id, 'dynamicData' => ['merge_tags' => ['text' => ['first_name' => 'Ada']]]]);
        self::assertFalse($fresh->fromStaleCache);

        self::server()->stop();
        $wire->reset();
        $stale = $client->render(['templateId' => $id, 'dynamicData' => ['merge_tags' => ['text' => ['first_name' => 'Ada']]]]);
        self::assertTrue($stale->fromStaleCache);
        self::assertSame($fresh->output, $stale->output);
        self::assertSame(['NETWORK_ERROR', 'NETWORK_ERROR', 'NETWORK_ERROR'], $wire->statuses(), 'the first attempt and 2 retries');

        // Nothing cached: the outage is raised, status 0, naming the address and never the key.
        try {
            $client->renderHtml('00000000-0000-4000-8000-000000000001');
            self::fail('expected NETWORK_ERROR');
        } catch (MailrenderError $e) {
            self::assertSame('NETWORK_ERROR', $e->getErrorCode());
            self::assertSame(0, $e->status);
            self::assertStringStartsWith('Could not reach ' . self::server()->url . ':', $e->getMessage());
            self::assertStringNotContainsString(static::$key, $e->getMessage());
        }

        // Back up: the next render is fresh again.
        self::server()->boot();
        self::assertFalse($client->render(['templateId' => $id])->fromStaleCache);
    }

    public function testASilentServerIsATimeoutNotRetriedAndStaleStillServes(): void
    {
        $errno = 0;
        $error = '';
        $socket = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
        self::assertNotFalse($socket, (string) $error);
        $address = (string) stream_socket_get_name($socket, false);
        $port = (int) substr($address, (int) strrpos($address, ':') + 1);
        try {
            $wire = new CountingTransport(new \Mailrender\Http\CurlTransport());
            $client = new MailrenderClient(['apiKey' => 'sk_test', 'baseUrl' => "http://127.0.0.1:{$port}", 'timeout' => 300], $wire, null, self::quickRetries());
            $started = microtime(true);
            try {
                $client->renderHtml('00000000-0000-4000-8000-000000000002');
                self::fail('expected TIMEOUT');
            } catch (MailrenderError $e) {
                self::assertSame('TIMEOUT', $e->getErrorCode());
                self::assertSame(0, $e->status);
                self::assertSame("No answer from http://127.0.0.1:{$port} within 300 ms", $e->getMessage());
            }
            self::assertSame(['TIMEOUT'], $wire->statuses(), 'a timeout is not retried');
            self::assertLessThan(2.0, microtime(true) - $started);
        } finally {
            fclose($socket);
        }
    }

    public function testRetriesOn5xxThenSucceeds(): void
    {
        $ok = new HttpResponse(200, ['ETag' => '"v1"', 'X-Key-Targets' => 'html'], Paths::sampleTemplate());
        $transport = new ScriptedTransport([
            new HttpResponse(503, ['Retry-After' => '0'], '{"code":"UNAVAILABLE","message":"down"}'),
            new HttpResponse(502, [], 'bad gateway'),
            $ok,
        ]);
        $slept = [];
        $policy = new RetryPolicy(2, 250, 30000, static function (int $ms) use (&$slept): void {
            $slept[] = $ms;
        }, static fn (): float => 0.5);
        $client = new MailrenderClient(['apiKey' => 'sk_test'], $transport, null, $policy);
        self::assertStringStartsWith('<!doctype html>', $client->renderHtml('t1'));
        self::assertCount(3, $transport->requests);
        self::assertSame([0, 375], $slept, 'Retry-After: 0 first, then the jittered backoff for retry 2 (500 * 0.75)');
    }

    public function testPersistent5xxIsRaisedWithoutACopyAndServedStaleWithOne(): void
    {
        $ok = new HttpResponse(200, ['ETag' => '"v1"', 'X-Key-Targets' => 'html'], Paths::sampleTemplate());
        $err = static fn (): HttpResponse => new HttpResponse(500, [], '{"code":"INTERNAL_ERROR","message":"Internal server error"}');
        $noSleep = new RetryPolicy(2, 0, 30000, static function (int $_ms): void {
        });

        $bare = new ScriptedTransport([$err(), $err(), $err()]);
        try {
            (new MailrenderClient(['apiKey' => 'sk_test'], $bare, null, $noSleep))->renderHtml('t1');
            self::fail('expected an error');
        } catch (MailrenderError $e) {
            self::assertSame('UNKNOWN', $e->getErrorCode());
            self::assertSame(500, $e->status);
            self::assertSame('Internal server error', $e->getMessage());
        }
        self::assertCount(3, $bare->requests);

        $transport = new ScriptedTransport([$ok, $err(), $err(), $err()]);
        $client = new MailrenderClient(['apiKey' => 'sk_test', 'cache' => ['ttl' => 0]], $transport, null, $noSleep);
        $fresh = $client->render(['templateId' => 't1']);
        $stale = $client->render(['templateId' => 't1']);
        self::assertTrue($stale->fromStaleCache);
        self::assertSame($fresh->output, $stale->output);
        self::assertSame('"v1"', ($transport->requests[1] ?? null)?->headers['if-none-match'] ?? null);
    }

    /** @return iterable<string, array{int, string}> */
    public static function answers(): iterable
    {
        yield '400' => [400, 'UNKNOWN'];
        yield '401' => [401, 'INVALID_API_KEY'];
        yield '403' => [403, 'FORBIDDEN'];
        yield '404' => [404, 'TEMPLATE_NOT_FOUND'];
    }

    /** @dataProvider answers */
    public function testFourHundredsAreAnswersNeverRetriedNorServedStale(int $status, string $code): void
    {
        $ok = new HttpResponse(200, ['ETag' => '"v1"', 'X-Key-Targets' => 'html'], Paths::sampleTemplate());
        $transport = new ScriptedTransport([$ok, new HttpResponse($status, [], '{"code":"X","message":"refused ' . $status . '"}')]);
        $client = new MailrenderClient(['apiKey' => 'sk_test', 'cache' => ['ttl' => 0]], $transport, null, self::quickRetries());
        $client->renderHtml('t1');
        try {
            $client->renderHtml('t1');
            self::fail("expected {$code}");
        } catch (MailrenderError $e) {
            self::assertSame($code, $e->getErrorCode());
            self::assertSame($status, $e->status);
            self::assertSame("refused {$status}", $e->getMessage());
        }
        self::assertCount(2, $transport->requests, 'not retried');
        self::assertSame($status === 404 ? [] : ['t1'], $client->listCached(), 'only a 404 drops the entry');
    }
}
