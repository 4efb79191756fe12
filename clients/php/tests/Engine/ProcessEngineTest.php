<?php

declare(strict_types=1);

namespace Mailrender\Tests\Engine;

use Mailrender\Engine\ProcessEngine;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\FakeExecutables;
use Mailrender\Tests\Support\Paths;

final class ProcessEngineTest extends EngineTestCase
{
    public function testRendersEachTargetLikeTheEngineCli(): void
    {
        $engine = new ProcessEngine(Paths::builtEngine());
        foreach (['html', 'mjml', 'react-email'] as $target) {
            $result = $engine->render(self::request($target));
            self::assertSame(self::referenceOutput($target, Paths::sampleTemplate()), $result->output, $target);
        }
    }

    public function testMergeTagsAndContextReachTheEngine(): void
    {
        $engine = new ProcessEngine(Paths::builtEngine());
        $out = $engine->render(self::request('html', ['merge_tags' => ['text' => ['first_name' => 'Ada <3']], 'context' => []]))->output;
        self::assertStringContainsString('Hi Ada &lt;3', $out);
        $default = $engine->render(self::request('html', ['merge_tags' => ['text' => []], 'context' => []]))->output;
        self::assertStringContainsString('Hi there', $default, 'empty maps are sent as JSON objects, not []');
    }

    public function testARenderFailureIsRenderErrorWithTheEnginesMessageAndIssues(): void
    {
        $engine = new ProcessEngine(Paths::builtEngine());
        try {
            $engine->render(self::request('html', [], '{"template_name":"x","canvas":{},"rows":"nope"}'));
            self::fail('expected RENDER_ERROR');
        } catch (MailrenderError $e) {
            self::assertSame('RENDER_ERROR', $e->getErrorCode());
            self::assertSame(422, $e->status);
            self::assertStringStartsWith('Invalid template', $e->getMessage());
            self::assertContains(['rows'], array_column($e->issues, 'loc'), 'the issues point into the template');
            self::assertContains(['template_id'], array_column($e->issues, 'loc'));
        }
    }

    public function testStrictMissingTagsFail(): void
    {
        $engine = new ProcessEngine(Paths::builtEngine());
        $template = Paths::sampleTemplate('S', 'Hi {{first_name}}');
        try {
            $engine->render(self::request('html', [], $template, 'x', true));
            self::fail('expected RENDER_ERROR');
        } catch (MailrenderError $e) {
            self::assertSame('Missing merge tags: first_name', $e->getMessage());
            self::assertSame([['loc' => ['dynamic_data', 'merge_tags', 'first_name'], 'msg' => 'Merge tag "first_name" has no value and no default', 'type' => 'missing_merge_tag']], $e->issues);
        }
    }

    public function testABadRequestFromTheEngineIsRenderErrorNamingTheEngineCode(): void
    {
        $engine = new ProcessEngine(Paths::builtEngine());
        try {
            $engine->render(self::request('html', ['context' => ['nested' => ['no' => 'objects']]]));
            self::fail('expected RENDER_ERROR');
        } catch (MailrenderError $e) {
            self::assertSame('RENDER_ERROR', $e->getErrorCode());
            self::assertSame(422, $e->status);
            self::assertStringStartsWith('The engine refused the render request (BAD_REQUEST): ', $e->getMessage());
            self::assertSame(['dynamic_data', 'context', 'nested'], $e->issues[0]['loc'] ?? null);
        }
    }

    public function testALargeTemplateAndOutputDoNotDeadlockThePipes(): void
    {
        $paragraph = '<p>' . str_repeat('Lorem ipsum dolor sit amet. ', 4000) . '</p>';
        $children = [];
        for ($i = 0; $i < 20; $i++) {
            $children[] = ['id' => "p{$i}", 'type' => 'component', 'componentType' => 'paragraph', 'props' => ['content' => $paragraph]];
        }
        $template = (string) json_encode(['template_id' => 'big', 'template_name' => 'big', 'schema_version' => '1.0', 'canvas' => new \stdClass(), 'rows' => [[
            'id' => 'r', 'type' => 'row', 'columns' => [['id' => 'c', 'width' => 100, 'children' => $children]],
        ]]]);
        self::assertGreaterThan(2_000_000, strlen($template));
        $out = (new ProcessEngine(Paths::builtEngine()))->render(self::request('html', [], $template))->output;
        self::assertGreaterThan(2_000_000, strlen($out));
    }

    public function testAnotherProtocolVersionIsRefusedNamingBothVersions(): void
    {
        $fake = FakeExecutables::protocolTwo($this->dir);
        try {
            (new ProcessEngine($fake))->render(self::request());
            self::fail('expected a refusal');
        } catch (MailrenderError $e) {
            self::assertSame('UNKNOWN', $e->getErrorCode());
            self::assertSame(
                "{$fake} speaks engine protocol 2 (engine 2.0.0), but mailrender/client 2.0.1 speaks protocol 1: "
                . 'install the engine pinned to this client version with vendor/bin/mailrender-install-engine',
                $e->getMessage(),
            );
        }
    }

    public function testAHangingEngineIsKilledAtTheTimeout(): void
    {
        $fake = FakeExecutables::hangs($this->dir);
        $started = microtime(true);
        try {
            (new ProcessEngine($fake, 300))->render(self::request());
            self::fail('expected a timeout');
        } catch (MailrenderError $e) {
            self::assertSame('TIMEOUT', $e->getErrorCode());
            self::assertSame(0, $e->status);
            self::assertSame("{$fake} did not answer within 300 ms and was stopped", $e->getMessage());
        }
        self::assertLessThan(3.0, microtime(true) - $started);
    }

    public function testACrashWithoutAnEnvelopeReportsStatusAndStderr(): void
    {
        $fake = FakeExecutables::crashes($this->dir);
        try {
            (new ProcessEngine($fake))->render(self::request());
            self::fail('expected an error');
        } catch (MailrenderError $e) {
            self::assertSame("{$fake} exited with status 139 without an answer: Segmentation fault (core dumped)", $e->getMessage());
        }
    }

    public function testTheApiKeyIsNotInTheEnginesEnvironment(): void
    {
        $probe = FakeExecutables::write($this->dir, 'env-probe', 'cat >/dev/null; printf \'{"ok":true,"output":"%s","warnings":[],"engine_version":"1.0.0","protocol_version":1}\' "${MAILRENDER_API_KEY:-absent}"');
        putenv('MAILRENDER_API_KEY=sk_live_should_not_leak');
        try {
            self::assertSame('absent', (new ProcessEngine($probe))->render(self::request())->output);
        } finally {
            putenv('MAILRENDER_API_KEY');
        }
    }

    public function testTheMemoryCeilingFromTheEnvironmentIsPassedToTheEngine(): void
    {
        $probe = FakeExecutables::write($this->dir, 'args-probe', 'cat >/dev/null; printf \'{"ok":true,"output":"%s","warnings":[],"engine_version":"1.0.0","protocol_version":1}\' "$*"');
        putenv('MAILRENDER_ENGINE_MAX_MEMORY= 64 ');
        try {
            self::assertSame('--max-memory 64', (new ProcessEngine($probe))->render(self::request())->output);
            // The real engine takes it (what it does under the ceiling is the engine suite's).
            putenv('MAILRENDER_ENGINE_MAX_MEMORY=512');
            self::assertStringStartsWith('<!doctype html>', (new ProcessEngine(Paths::builtEngine()))->render(self::request())->output);
            foreach (['abc', '8', '1.5'] as $bad) {
                putenv("MAILRENDER_ENGINE_MAX_MEMORY={$bad}");
                try {
                    (new ProcessEngine($probe))->render(self::request());
                    self::fail("expected {$bad} to be refused");
                } catch (MailrenderError $e) {
                    self::assertStringContainsString('MAILRENDER_ENGINE_MAX_MEMORY', $e->getMessage());
                }
            }
        } finally {
            putenv('MAILRENDER_ENGINE_MAX_MEMORY');
        }
        self::assertSame('', (new ProcessEngine($probe))->render(self::request())->output);
    }
}
