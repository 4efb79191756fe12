<?php

declare(strict_types=1);

namespace Mailrender\Tests\Engine;

use Mailrender\Engine\ServeEngine;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\FakeExecutables;
use Mailrender\Tests\Support\Paths;

final class ServeEngineTest extends EngineTestCase
{
    public function testOneProcessServesManyRendersAndATemplateIsSentOnce(): void
    {
        $engine = new ServeEngine(Paths::builtEngine());
        $first = $engine->render(self::request('html'));
        $pid = $engine->pid();
        self::assertNotNull($pid);
        for ($i = 0; $i < 10; $i++) {
            $again = $engine->render(self::request('html', ['merge_tags' => ['text' => ['first_name' => "n{$i}"]]]));
            self::assertStringContainsString("Hi n{$i}", $again->output);
        }
        self::assertSame(self::referenceOutput('mjml', Paths::sampleTemplate()), $engine->render(self::request('mjml'))->output);
        self::assertSame(self::referenceOutput('html', Paths::sampleTemplate()), $first->output);
        self::assertSame($pid, $engine->pid(), 'the same process throughout');
        self::assertSame(['starts' => 1, 'requests' => 12, 'templatesSent' => 1, 'refResends' => 0, 'layoutsResent' => 0], $engine->stats());

        // A new version of the template has a new ref: sent once more.
        $engine->render(self::request('html', [], Paths::sampleTemplate('v2'), 'sample@2'));
        self::assertSame(2, $engine->stats()['templatesSent']);
        $engine->close();
        self::assertNull($engine->pid());
    }

    /**
     * The real engine keeps at most 256 templates: after 257 others, the first ref is gone from the
     * process and the engine answers TEMPLATE_REF_UNKNOWN; the client resends the template and carries on.
     */
    public function testTemplateRefUnknownMakesItResendTheTemplate(): void
    {
        $engine = new ServeEngine(Paths::builtEngine());
        $engine->render(self::request('html', [], Paths::sampleTemplate('first'), 'ref-0'));
        for ($i = 1; $i <= 257; $i++) {
            $engine->render(self::request('mjml', [], Paths::sampleTemplate("t{$i}"), "ref-{$i}"));
        }
        $stats = $engine->stats();
        self::assertSame(0, $stats['refResends']);
        $out = $engine->render(self::request('html', [], Paths::sampleTemplate('first'), 'ref-0'))->output;
        self::assertSame(self::referenceOutput('html', Paths::sampleTemplate('first')), $out);
        $after = $engine->stats();
        self::assertSame(1, $after['refResends'], 'the engine had evicted ref-0');
        self::assertSame($stats['requests'] + 2, $after['requests'], 'ref only, then ref + template');
        self::assertSame(1, $after['starts']);
        $engine->close();
    }

    public function testADeadProcessIsRestartedAndTheRenderSucceeds(): void
    {
        $engine = new ServeEngine(Paths::builtEngine());
        $engine->render(self::request());
        $pid = $engine->pid();
        self::assertNotNull($pid);
        posix_kill($pid, SIGKILL);
        usleep(100_000);
        $out = $engine->render(self::request('html', ['merge_tags' => ['text' => ['first_name' => 'again']]]))->output;
        self::assertStringContainsString('Hi again', $out);
        self::assertNotSame($pid, $engine->pid());
        $stats = $engine->stats();
        self::assertSame(2, $stats['starts']);
        self::assertSame(2, $stats['templatesSent'], 'the new process holds no templates: it got the template again');
        $engine->close();
    }

    public function testRenderErrorsComeBackAndTheProcessCarriesOn(): void
    {
        $engine = new ServeEngine(Paths::builtEngine());
        try {
            $engine->render(self::request('html', [], Paths::sampleTemplate('S', 'Hi {{first_name}}'), 'strict@1', true));
            self::fail('expected RENDER_ERROR');
        } catch (MailrenderError $e) {
            self::assertSame('RENDER_ERROR', $e->getErrorCode());
            self::assertSame('Missing merge tags: first_name', $e->getMessage());
        }
        $pid = $engine->pid();
        self::assertStringStartsWith('<!doctype html>', $engine->render(self::request())->output);
        self::assertSame($pid, $engine->pid());
        $engine->close();
    }

    public function testAnotherProtocolVersionIsRefused(): void
    {
        $fake = FakeExecutables::protocolTwo($this->dir);
        $engine = new ServeEngine($fake);
        try {
            $engine->render(self::request());
            self::fail('expected a refusal');
        } catch (MailrenderError $e) {
            self::assertStringStartsWith("{$fake} speaks engine protocol 2 (engine 2.0.0), but mailrender/client 2.0.1 speaks protocol 1", $e->getMessage());
        }
        $engine->close();
    }

    public function testAHangingProcessIsKilledAtTheTimeout(): void
    {
        $fake = FakeExecutables::hangs($this->dir);
        $engine = new ServeEngine($fake, 300);
        try {
            $engine->render(self::request());
            self::fail('expected a timeout');
        } catch (MailrenderError $e) {
            self::assertSame("{$fake} --serve did not answer within 300 ms and was stopped", $e->getMessage());
        }
        self::assertNull($engine->pid());
    }

    public function testAProcessThatKeepsDyingGivesUpAfterOneRestart(): void
    {
        $fake = FakeExecutables::crashes($this->dir);
        $engine = new ServeEngine($fake);
        try {
            $engine->render(self::request());
            self::fail('expected an error');
        } catch (MailrenderError $e) {
            self::assertSame('UNKNOWN', $e->getErrorCode());
            self::assertMatchesRegularExpression('/--serve (exited with status 139|closed its output) before answering/', $e->getMessage());
        }
        self::assertSame(2, $engine->stats()['starts']);
    }

    /** Layouts are used after the first answer; one dropped by the client's bound is asked for again. */
    public function testADroppedLayoutIsAskedForAgainAndTheOutputStaysTheEngines(): void
    {
        $engine = new ServeEngine(Paths::builtEngine(), maxLayouts: 1);
        $html = self::referenceOutput('html', Paths::sampleTemplate());
        self::assertSame($html, $engine->render(self::request('html'))->output, 'first answer: whole output');
        self::assertSame($html, $engine->render(self::request('html'))->output, 'second: layout with parts');
        self::assertSame($html, $engine->render(self::request('html'))->output, 'third: values only');
        self::assertSame(0, $engine->stats()['layoutsResent']);
        self::assertSame(self::referenceOutput('mjml', Paths::sampleTemplate()), $engine->render(self::request('mjml'))->output);
        self::assertSame($html, $engine->render(self::request('html'))->output, 'its layout was dropped for the mjml one');
        self::assertSame(1, $engine->stats()['layoutsResent']);
        $engine->close();
    }

    public function testAnEngineBefore11IsNeverAskedForLayouts(): void
    {
        // An engine 1.0 would refuse the unknown key; this stand-in says so in its output instead.
        $ok = '"ok":true,"target":"html","template_id":"t","warnings":[],"engine_version":"1.0.0","protocol_version":1';
        $fake = FakeExecutables::write($this->dir, 'engine-1.0', 'id=0; while read -r line; do id=$((id+1)); '
            . 'case "$line" in *output_format*) out=asked;; *) out=whole;; esac; '
            . 'echo "{\"id\":$id,\"output\":\"$out\",' . str_replace('"', '\\"', $ok) . '}"; done');
        $engine = new ServeEngine($fake);
        for ($i = 0; $i < 3; $i++) {
            self::assertSame('whole', $engine->render(self::request())->output);
        }
        $engine->close();
    }
}
