<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use Mailrender\Engine\EngineLocator;
use Mailrender\Engine\ServeEngine;
use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;
use Mailrender\RenderResult;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\RecordingEngine;
use ReflectionProperty;
use stdClass;

/** The client against the real server and the real engine executable. */
final class ClientTest extends ServerTestCase
{
    private static function engineCli(string $target, string $templateJson, string $dataJson = '{}'): string
    {
        $tpl = tempnam(sys_get_temp_dir(), 'tpl');
        $data = tempnam(sys_get_temp_dir(), 'data');
        self::assertIsString($tpl);
        self::assertIsString($data);
        file_put_contents($tpl, $templateJson);
        file_put_contents($data, $dataJson);
        $out = (string) shell_exec(escapeshellarg(Paths::builtEngine()) . ' render --template ' . escapeshellarg($tpl)
            . ' --data ' . escapeshellarg($data) . ' --target ' . escapeshellarg($target) . ' 2>/dev/null');
        unlink($tpl);
        unlink($data);
        return $out;
    }

    public function testRendersEveryTargetThroughTheServerAndTheBundledEngine(): void
    {
        $template = Paths::sampleTemplate('Welcome');
        $id = self::server()->createTemplate($template)['id'];
        $wire = self::wire();
        $client = $this->client([], $wire);
        $data = ['merge_tags' => ['text' => ['first_name' => 'Ada']], 'context' => []];
        // What the server stores: the template with its id written into template_id ({} kept as objects).
        $stored = json_decode($template);
        self::assertInstanceOf(stdClass::class, $stored);
        $stored->template_id = $id;
        $stored = json_encode($stored);
        $result = $client->render(['templateId' => $id, 'target' => 'html', 'dynamicData' => $data]);
        self::assertInstanceOf(RenderResult::class, $result);
        self::assertSame('html', $result->target);
        self::assertSame($id, $result->templateId);
        self::assertFalse($result->fromStaleCache);
        self::assertSame([], $result->warnings);
        self::assertStringContainsString('Hi Ada', $result->output);
        $dataJson = '{"merge_tags":{"text":{"first_name":"Ada"}},"context":{}}';
        self::assertSame(self::engineCli('html', (string) $stored, $dataJson), $result->output);
        self::assertSame(self::engineCli('react-email', (string) $stored, $dataJson), $client->renderReact($id, $data));
        self::assertSame(self::engineCli('mjml', (string) $stored, $dataJson), $client->renderMjml($id, $data));
        self::assertSame($result->output, $client->renderHtml($id, $data));
        self::assertSame([200], $wire->statuses(), 'one fetch; every later render came from the cache');
        $request = $wire->request(0);
        self::assertSame(self::server()->url . "/v1/sdk/template/{$id}?target=html", $request->url);
        self::assertSame('Bearer ' . static::$key, $request->headers['authorization'] ?? null);
        self::assertSame('mailrender-php/2.0.1 php/' . PHP_VERSION, $request->headers['user-agent'] ?? null);
    }

    public function testRenderResultIsReadonly(): void
    {
        $result = new RenderResult('out', 'html', 'id');
        self::assertFalse($result->fromStaleCache);
        self::assertTrue((new ReflectionProperty(RenderResult::class, 'output'))->isReadOnly());
        $this->expectException(\Error::class);
        // @mago-expect analysis:invalid-property-write (the write PHP must refuse)
        $result->output = 'changed';
    }

    public function testWarningsAndOptionsPassThrough(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate('W', 'Hi {{first_name}}'))['id'];
        $client = $this->client();
        $result = $client->render(['templateId' => $id]);
        self::assertSame('html', $result->target, 'html is the default target');
        self::assertSame(['MISSING_MERGE_TAG'], array_column($result->warnings, 'code'));
        try {
            $client->render(['templateId' => $id, 'strict' => true]);
            self::fail('expected RENDER_ERROR');
        } catch (MailrenderError $e) {
            self::assertSame('RENDER_ERROR', $e->getErrorCode());
            self::assertSame(422, $e->status);
            self::assertSame('Missing merge tags: first_name', $e->getMessage());
            self::assertSame('missing_merge_tag', $e->issues[0]['type'] ?? null);
        }
        $unminified = $client->render(['templateId' => $id, 'minify' => false])->output;
        self::assertNotSame($result->output, $unminified);
    }

    public function testBadRenderArgumentsAreRejectedBeforeAnyRequest(): void
    {
        $wire = self::wire();
        $client = $this->client([], $wire);
        try {
            // @mago-expect analysis:possibly-invalid-argument (a caller without static analysis)
            $client->render(['templateId' => '', 'target' => 'pdf', 'dynamic_data' => []]);
            self::fail('expected RENDER_ERROR');
        } catch (MailrenderError $e) {
            self::assertSame('RENDER_ERROR', $e->getErrorCode());
            $fields = array_map(
                /** @param array{loc: list<string>, msg: string, type: string} $i */
                static fn (array $i): ?string => $i['loc'][0] ?? null,
                $e->issues,
            );
            self::assertSame(['dynamic_data', 'templateId', 'target'], $fields);
            self::assertSame(['extra_forbidden', 'string_type', 'literal_error'], array_column($e->issues, 'type'));
        }
        self::assertSame([], $wire->statuses());
    }

    public function testServiceErrorsMapToCodes(): void
    {
        $client = $this->client();
        $cases = [
            ['00000000-0000-4000-8000-000000000000', 'TEMPLATE_NOT_FOUND', 404],
            ['not-a-uuid', 'RENDER_ERROR', 422],
        ];
        foreach ($cases as [$id, $code, $status]) {
            try {
                $client->renderHtml($id);
                self::fail("expected {$code}");
            } catch (MailrenderError $e) {
                self::assertSame($code, $e->getErrorCode());
                self::assertSame($status, $e->status);
            }
        }
        try {
            $client->renderHtml('not-a-uuid');
        } catch (MailrenderError $invalid) {
            $issue = $invalid->issues[0] ?? null;
            self::assertNotNull($issue);
            self::assertSame([['loc' => ['path', 'id'], 'msg' => $issue['msg'], 'type' => $issue['type']]], $invalid->issues);
        }
        $bad = new MailrenderClient(['apiKey' => 'sk_live_' . str_repeat('0', 64), 'baseUrl' => self::server()->url]);
        try {
            $bad->renderHtml('00000000-0000-4000-8000-000000000000');
            self::fail('expected INVALID_API_KEY');
        } catch (MailrenderError $unauthorized) {
            self::assertSame('INVALID_API_KEY', $unauthorized->getErrorCode());
            self::assertSame(401, $unauthorized->status);
            self::assertStringNotContainsString(str_repeat('0', 64), $unauthorized->getMessage());
        }
    }

    public function testScopeIsEnforcedByTheServerAndThenFromTheCacheWithTheSameMessage(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $key = self::server()->createKey(['html', 'mjml'])['key'];
        $wire = self::wire();
        $client = $this->client(['apiKey' => $key], $wire);
        $message = "API key is limited to targets [html, mjml]; requested 'react-email'";

        // First request: the server refuses (?target=react-email).
        try {
            $client->renderReact($id);
            self::fail('expected FORBIDDEN');
        } catch (MailrenderError $e) {
            self::assertSame('FORBIDDEN', $e->getErrorCode());
            self::assertSame(403, $e->status);
            self::assertSame($message, $e->getMessage());
        }
        // Cache the template through an allowed target; X-Key-Targets tells the client the whole scope.
        $client->renderHtml($id);
        $wire->reset();
        try {
            $client->renderReact($id);
            self::fail('expected FORBIDDEN');
        } catch (MailrenderError $e) {
            self::assertSame('FORBIDDEN', $e->getErrorCode());
            self::assertSame(403, $e->status);
            self::assertSame($message, $e->getMessage());
        }
        self::assertSame([], $wire->statuses(), 'refused from the cache, without a network call');
        self::assertStringStartsWith('<mjml', $client->renderMjml($id));
        self::assertSame([], $wire->statuses());
    }

    public function testAnExpiredEntryIsRevalidatedWithIfNoneMatchAnd304RenewsIt(): void
    {
        $created = self::server()->createTemplate(Paths::sampleTemplate('Rev'));
        $wire = self::wire();
        $client = $this->client(['cache' => ['ttl' => 0]], $wire);
        $first = $client->renderHtml($created['id']);
        self::assertSame($first, $client->renderHtml($created['id']));
        self::assertSame([200, 304], $wire->statuses());
        self::assertArrayNotHasKey('if-none-match', $wire->request(0)->headers);
        self::assertSame($created['etag'], $wire->request(1)->headers['if-none-match'] ?? null);

        // A changed template has a new ETag: the next revalidation gets 200 and the new body.
        self::server()->replaceTemplate($created['id'], Paths::sampleTemplate('Rev', 'Changed {{first_name}}'));
        self::assertStringContainsString('Changed', $client->renderHtml($created['id']));
        self::assertSame([200, 304, 200], $wire->statuses());
    }

    public function testAFreshEntryNeedsNoNetworkAndTtlIsHonoured(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        // A RecordingEngine: two engine process starts can outlast 400 ms on a loaded machine.
        $wire = self::wire();
        $client = $this->client(['cache' => ['ttl' => 400]], $wire, new RecordingEngine());
        $client->renderHtml($id);
        $client->renderMjml($id);
        self::assertSame([200], $wire->statuses());
        usleep(500_000);
        $client->renderHtml($id);
        self::assertSame([200, 304], $wire->statuses());
    }

    public function testADeletedTemplateIsRaisedAndDroppedFromTheCache(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $client = $this->client(['cache' => ['ttl' => 0]]);
        $client->renderHtml($id);
        self::assertSame([$id], $client->listCached());
        self::server()->deleteTemplate($id);
        try {
            $client->renderHtml($id);
            self::fail('expected TEMPLATE_NOT_FOUND');
        } catch (MailrenderError $e) {
            self::assertSame('TEMPLATE_NOT_FOUND', $e->getErrorCode());
            self::assertSame(404, $e->status);
        }
        self::assertSame([], $client->listCached(), 'a 404 drops the entry');
    }

    public function testARevokedKeyStopsWorkingEvenWithACachedTemplate(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $key = self::server()->createKey(['all']);
        $client = $this->client(['apiKey' => $key['key'], 'cache' => ['ttl' => 0]]);
        $client->renderHtml($id);
        self::server()->revokeKey($key['id']);
        try {
            $client->renderHtml($id);
            self::fail('expected INVALID_API_KEY');
        } catch (MailrenderError $e) {
            self::assertSame('INVALID_API_KEY', $e->getErrorCode());
            self::assertSame(401, $e->status);
        }
        self::assertSame([$id], $client->listCached(), 'a 401 is raised; the entry stays for a valid key');
    }

    public function testCacheManagementAndTheDeprecatedInvalidate(): void
    {
        $a = self::server()->createTemplate(Paths::sampleTemplate('A'))['id'];
        $b = self::server()->createTemplate(Paths::sampleTemplate('B'))['id'];
        $wire = self::wire();
        $client = $this->client([], $wire);
        $client->renderHtml($a);
        $client->renderHtml($b);
        $ids = $client->listCached();
        sort($ids);
        $expected = [$a, $b];
        sort($expected);
        self::assertSame($expected, $ids);
        self::assertTrue($client->deleteCached($a));
        self::assertFalse($client->deleteCached($a));
        self::assertSame([$b], $client->listCached());

        $deprecations = [];
        set_error_handler(static function (int $level, string $message) use (&$deprecations): bool {
            $deprecations[] = [$level, $message];
            return true;
        }, E_USER_DEPRECATED);
        try {
            // @mago-expect analysis:deprecated-method (its deprecation notice is under test)
            self::assertTrue($client->invalidate($b));
        } finally {
            restore_error_handler();
        }
        self::assertSame([[E_USER_DEPRECATED, 'MailrenderClient::invalidate() is deprecated since 2.0.0; use deleteCached($templateId)']], $deprecations);
        self::assertSame([], $client->listCached(), 'invalidate still works');

        $client->renderHtml($a);
        $client->renderHtml($b);
        $client->clearCache();
        self::assertSame([], $client->listCached());
        $wire->reset();
        $client->renderHtml($a);
        self::assertSame([200], $wire->statuses(), 'cleared entries are fetched again');
    }

    public function testMemoryCacheEvictsTheEntryFetchedLongestAgo(): void
    {
        $ids = [];
        foreach (['one', 'two', 'three'] as $name) {
            $ids[$name] = self::server()->createTemplate(Paths::sampleTemplate($name))['id'];
        }
        $client = $this->client(['cache' => ['maxEntries' => 2]]);
        $client->renderHtml($ids['one']);
        usleep(2000);
        $client->renderHtml($ids['two']);
        usleep(2000);
        $client->renderHtml($ids['one']); // a cache hit: does not make 'one' younger
        $client->renderHtml($ids['three']);
        $cached = $client->listCached();
        sort($cached);
        $expected = [$ids['two'], $ids['three']];
        sort($expected);
        self::assertSame($expected, $cached);
    }

    public function testEnginePathOverrideIsUsed(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $link = $this->dir . '/custom-engine';
        symlink(Paths::builtEngine(), $link);
        $client = $this->client(['enginePath' => $link]);
        self::assertStringStartsWith('<!doctype html>', $client->renderHtml($id));
        try {
            $this->client(['enginePath' => $this->dir . '/missing-engine']);
            self::fail('expected a clear error');
        } catch (MailrenderError $e) {
            self::assertSame("enginePath '{$this->dir}/missing-engine' does not exist. Fix enginePath, or remove it to use the installed engine.", $e->getMessage());
        }
    }

    public function testTheLongLivedEngineThroughTheClientSendsEachTemplateOnce(): void
    {
        $a = self::server()->createTemplate(Paths::sampleTemplate('A'))['id'];
        $b = self::server()->createTemplate(Paths::sampleTemplate('B'))['id'];
        $engine = new ServeEngine(EngineLocator::locate());
        $wire = self::wire();
        $client = $this->client(['cache' => ['ttl' => 0]], $wire, $engine);
        for ($i = 0; $i < 5; $i++) {
            self::assertStringContainsString("Hi n{$i}", $client->renderHtml($a, ['merge_tags' => ['text' => ['first_name' => "n{$i}"]]]));
            $client->renderMjml($b);
        }
        self::assertSame(2, $engine->stats()['templatesSent'], 'revalidated (304) templates keep their ref');
        self::assertSame(1, $engine->stats()['starts']);
        self::server()->replaceTemplate($a, Paths::sampleTemplate('A', 'Changed {{first_name}}'));
        self::assertStringContainsString('Changed x', $client->renderHtml($a, ['merge_tags' => ['text' => ['first_name' => 'x']]]));
        self::assertSame(3, $engine->stats()['templatesSent'], 'a new ETag is a new ref');
        $engine->close();
    }
}
