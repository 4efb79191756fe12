<?php

declare(strict_types=1);

namespace Mailrender\Tests\Fixtures;

use Mailrender\Engine\EngineLocator;
use Mailrender\Engine\EngineRequest;
use Mailrender\Engine\ProcessEngine;
use Mailrender\Engine\ServeEngine;
use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\TestServer;
use PHPUnit\Framework\TestCase;

/**
 * fixtures/README.md, run through the client: every render case is stored on the real server, fetched
 * by the client and rendered by the bundled engine, one-shot (the default ProcessEngine) and long-lived
 * (ServeEngine); output byte for byte, warnings by code and path. Options (minify, strict) are passed
 * through render(), so cases with non-default options run through the client too.
 *
 * errors/: the strict-mode cases have valid templates and run through the server and the client; the
 * others are invalid templates the server refuses to store (checked: 422), so they run through the
 * client's engine classes directly.
 */
final class GoldenFixturesTest extends TestCase
{
    private const EXT = ['html' => 'html', 'mjml' => 'mjml', 'react-email' => 'tsx'];

    private static ?TestServer $server = null;
    private static string $key = '';
    private static ?ServeEngine $serve = null;

    public static function setUpBeforeClass(): void
    {
        self::$server = TestServer::start();
        self::$key = self::$server->createKey(['all'])['key'];
        self::$serve = new ServeEngine(EngineLocator::locate());
    }

    public static function tearDownAfterClass(): void
    {
        self::$serve?->close();
        self::$server?->destroy();
        self::$server = null;
    }

    /** @return iterable<string, array{string}> */
    public static function renderCases(): iterable
    {
        foreach (glob(Paths::fixtures() . '/render/*/case.json') ?: [] as $file) {
            yield basename(dirname($file)) => [dirname($file)];
        }
    }

    /** @return iterable<string, array{string}> */
    public static function errorCases(): iterable
    {
        foreach (glob(Paths::fixtures() . '/errors/*/case.json') ?: [] as $file) {
            yield basename(dirname($file)) => [dirname($file)];
        }
    }

    public function testTheFixtureFoldersAreFound(): void
    {
        self::assertGreaterThanOrEqual(70, iterator_count(self::renderCases()));
        self::assertGreaterThanOrEqual(20, iterator_count(self::errorCases()));
    }

    /** @return array{object, string, array<string, mixed>, array<string, bool>} case, template JSON, dynamic data, options */
    private static function load(string $dir): array
    {
        $text = (string) file_get_contents($dir . '/case.json');
        // Objects stay objects for the template ({} must not become []); data and options as arrays.
        $case = json_decode($text, false, 512, JSON_THROW_ON_ERROR);
        $asArray = json_decode($text, true, 512, JSON_THROW_ON_ERROR);
        return [$case, (string) json_encode($case->template, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), $asArray['dynamic_data'] ?? [], $asArray['options'] ?? []];
    }

    /** @return array<string, mixed> */
    private static function renderArgs(string $id, string $target, array $data, array $options): array
    {
        return ['templateId' => $id, 'target' => $target, 'dynamicData' => $data, 'plainText' => true]
            + array_intersect_key($options, ['minify' => 1, 'strict' => 1]);
    }

    /** @dataProvider renderCases */
    public function testRenderCase(string $dir): void
    {
        self::assertNotNull(self::$server);
        [, $template, $data, $options] = self::load($dir);
        $id = self::$server->createTemplate($template)['id'];
        $warnings = json_decode((string) file_get_contents($dir . '/expected.warnings.json'), true);
        $clients = [
            'one-shot' => new MailrenderClient(['apiKey' => self::$key, 'baseUrl' => self::$server->url]),
            'serve' => new MailrenderClient(['apiKey' => self::$key, 'baseUrl' => self::$server->url], null, self::$serve),
        ];
        foreach ($clients as $mode => $client) {
            foreach (self::EXT as $target => $ext) {
                $result = $client->render(self::renderArgs($id, $target, $data, $options));
                $where = basename($dir) . " [{$target}, {$mode}]";
                self::assertSame((string) file_get_contents("{$dir}/expected.{$ext}"), $result->output, "{$where}: output differs from the golden");
                self::assertSame((string) file_get_contents("{$dir}/expected.txt"), $result->text, "{$where}: plain text differs from expected.txt");
                $pick = static fn (array $w): array => ['code' => $w['code'], 'path' => $w['path']];
                self::assertSame(array_map($pick, $warnings[$target] ?? []), array_map($pick, $result->warnings), "{$where}: warnings differ");
                self::assertSame($target, $result->target);
                self::assertFalse($result->fromStaleCache);
            }
        }
    }

    /** @dataProvider errorCases */
    public function testErrorCase(string $dir): void
    {
        self::assertNotNull(self::$server);
        [$case, $template, $data, $options] = self::load($dir);
        $expected = json_decode((string) file_get_contents($dir . '/expected.error.json'), true);
        $target = $case->target;
        [$status, $created] = self::$server->admin('POST', '/api/v1/templates', TestServer::withoutId($template));
        if ($status === 201) {
            // A valid template that fails only at render time (strict mode): through the server and the client.
            $client = new MailrenderClient(['apiKey' => self::$key, 'baseUrl' => self::$server->url]);
            $this->expectFailure($expected, fn () => $client->render(self::renderArgs($created['id'], $target, $data, $options)));
            return;
        }
        self::assertSame(422, $status, 'the server refuses an invalid template');
        $request = new EngineRequest($template, 'fixture:' . basename($dir), $target, $data, $options['minify'] ?? null, $options['strict'] ?? null);
        $this->expectFailure($expected, fn () => self::$serve?->render($request));
        $this->expectFailure($expected, fn () => ProcessEngine::locate()->render($request));
    }

    /** @param array{code: string, issues: list<array{loc: list<string>, msg: string, type: string}>} $expected */
    private function expectFailure(array $expected, callable $render): void
    {
        try {
            $render();
            self::fail('expected ' . $expected['code']);
        } catch (MailrenderError $e) {
            self::assertSame($expected['code'], $e->getErrorCode());
            self::assertSame($expected['message'], $e->getMessage());
            $pick = static fn (array $i): array => ['loc' => $i['loc'], 'msg' => $i['msg'], 'type' => $i['type']];
            self::assertSame(array_map($pick, $expected['issues'] ?? []), array_map($pick, $e->issues));
        }
    }
}
