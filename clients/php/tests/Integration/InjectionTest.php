<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use Mailrender\Http\HttpResponse;
use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\Json;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\RecordingEngine;
use Mailrender\Tests\Support\ScriptedTransport;

/** The two seams: an injected engine (with the real server) and an injected transport (with the real engine). */
final class InjectionTest extends ServerTestCase
{
    public function testAnInjectedEngineGetsTheTemplateDataAndOptionsAndItsAnswerIsReturned(): void
    {
        $created = self::server()->createTemplate(Paths::sampleTemplate('Injected'));
        $engine = new RecordingEngine();
        $wire = self::wire();
        $client = $this->client([], $wire, $engine);
        $data = ['merge_tags' => ['text' => ['first_name' => 'Ada']], 'context' => ['plan' => 'pro', 'seats' => 3]];
        $result = $client->render(['templateId' => $created['id'], 'target' => 'mjml', 'dynamicData' => $data, 'strict' => true, 'minify' => false]);
        self::assertSame('fake:mjml', $result->output);
        self::assertSame('mjml', $result->target);
        self::assertSame([['code' => 'FAKE', 'message' => 'from the fake', 'path' => []]], $result->warnings);
        self::assertCount(1, $engine->requests);
        $request = $engine->requests[0] ?? null;
        self::assertNotNull($request);
        self::assertSame($data, $request->dynamicData, 'merge tags and context go to the engine, not to the service');
        self::assertTrue($request->strict);
        self::assertFalse($request->minify);
        self::assertSame($created['id'] . '@' . $created['etag'], $request->templateRef);
        self::assertSame($created['id'], Json::value(Json::decode($request->templateJson), 'template_id'));
        self::assertStringNotContainsString('Ada', $wire->request(0)->url);
        self::assertSame(['authorization', 'accept', 'user-agent'], array_keys($wire->request(0)->headers));
    }

    public function testAnInjectedTransportCarriesTheFetchAndTheRealEngineRenders(): void
    {
        $transport = new ScriptedTransport([
            new HttpResponse(200, ['ETag' => 'W/"7"', 'X-Key-Targets' => 'html,react-email,mjml'], Paths::sampleTemplate('Scripted')),
        ]);
        $client = new MailrenderClient(['apiKey' => 'sk_injected', 'baseUrl' => 'https://mail.example.com/'], $transport);
        $out = $client->renderReact('welcome', ['merge_tags' => ['text' => ['first_name' => 'Bo']]]);
        self::assertStringContainsString('Bo', $out);
        self::assertCount(1, $transport->requests);
        $request = $transport->requests[0] ?? null;
        self::assertNotNull($request);
        self::assertSame('GET', $request->method);
        self::assertSame('https://mail.example.com/v1/sdk/template/welcome?target=react-email', $request->url);
        self::assertSame('Bearer sk_injected', $request->headers['authorization'] ?? null);
        self::assertSame(30000, $request->timeoutMs);
        self::assertArrayNotHasKey('authorization', $request->safeHeaders());
    }

    public function testATransportAnswerThatIsNotATemplateIsUnknown(): void
    {
        $transport = new ScriptedTransport([new HttpResponse(200, [], '[1,2]')]);
        $client = new MailrenderClient(['apiKey' => 'k'], $transport, new RecordingEngine());
        try {
            $client->renderHtml('x');
            self::fail('expected UNKNOWN');
        } catch (MailrenderError $e) {
            self::assertSame('UNKNOWN', $e->getErrorCode());
            self::assertSame('The service answered 200 with a body that is not a template JSON object', $e->getMessage());
        }
    }

    public function testIdsAreEncodedIntoThePath(): void
    {
        $transport = new ScriptedTransport([new HttpResponse(404, [], '{"code":"TEMPLATE_NOT_FOUND","message":"no"}')]);
        $client = new MailrenderClient(['apiKey' => 'k'], $transport, new RecordingEngine());
        try {
            $client->renderHtml('../keys?x=1');
        } catch (MailrenderError $e) {
            self::assertSame('TEMPLATE_NOT_FOUND', $e->getErrorCode());
        }
        self::assertSame('http://localhost:8787/v1/sdk/template/..%2Fkeys%3Fx%3D1?target=html', ($transport->requests[0] ?? null)?->url);
    }
}
