<?php

declare(strict_types=1);

namespace Mailrender\Tests\Fixtures;

use Mailrender\Engine\EngineLocator;
use Mailrender\Engine\EngineRequest;
use Mailrender\Engine\EngineResult;
use Mailrender\Engine\ProcessEngine;
use Mailrender\Engine\ServeEngine;
use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;
use Mailrender\RenderResult;
use Mailrender\Tests\Support\Json;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\TestServer;
use PHPUnit\Framework\TestCase;
use stdClass;

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

    /**
     * The case's template as JSON text, its target (error cases), dynamic data and options.
     *
     * @return array{template: string, target: ?string, data: array<string, mixed>, minify: ?bool, strict: ?bool}
     */
    private static function load(string $dir): array
    {
        $text = (string) file_get_contents($dir . '/case.json');
        $case = Json::decode($text);
        // Objects stay objects for the template ({} must not become []).
        $objects = json_decode($text, false, 512, JSON_THROW_ON_ERROR);
        self::assertInstanceOf(stdClass::class, $objects);
        $options = isset($case['options']) ? Json::object($case, 'options') : [];
        return [
            'template' => (string) json_encode($objects->template ?? null, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE),
            'target' => isset($case['target']) ? Json::string($case, 'target') : null,
            'data' => isset($case['dynamic_data']) ? Json::object($case, 'dynamic_data') : [],
            'minify' => isset($options['minify']) ? Json::bool($options, 'minify') : null,
            'strict' => isset($options['strict']) ? Json::bool($options, 'strict') : null,
        ];
    }

    /**
     * @param array{template: string, target: ?string, data: array<string, mixed>, minify: ?bool, strict: ?bool} $case
     * @return array{templateId: string, target: string, dynamicData: array<string, mixed>, plainText: bool, minify?: bool, strict?: bool}
     */
    private static function renderArgs(string $id, string $target, array $case): array
    {
        $args = ['templateId' => $id, 'target' => $target, 'dynamicData' => $case['data'], 'plainText' => true];
        if ($case['minify'] !== null) {
            $args['minify'] = $case['minify'];
        }
        if ($case['strict'] !== null) {
            $args['strict'] = $case['strict'];
        }
        return $args;
    }

    /**
     * A warning or an issue reduced to the fields compared.
     *
     * @param array<mixed> $item
     * @param list<string> $fields
     * @return array<string, mixed>
     */
    private static function pick(array $item, array $fields): array
    {
        $out = [];
        foreach ($fields as $field) {
            $out[$field] = Json::value($item, $field);
        }
        return $out;
    }

    /** @dataProvider renderCases */
    public function testRenderCase(string $dir): void
    {
        self::assertNotNull(self::$server);
        $case = self::load($dir);
        $id = self::$server->createTemplate($case['template'])['id'];
        $warnings = Json::file($dir . '/expected.warnings.json');
        $clients = [
            'one-shot' => new MailrenderClient(['apiKey' => self::$key, 'baseUrl' => self::$server->url]),
            'serve' => new MailrenderClient(['apiKey' => self::$key, 'baseUrl' => self::$server->url], null, self::$serve),
        ];
        foreach ($clients as $mode => $client) {
            foreach (self::EXT as $target => $ext) {
                $result = $client->render(self::renderArgs($id, $target, $case));
                $where = basename($dir) . " [{$target}, {$mode}]";
                self::assertSame((string) file_get_contents("{$dir}/expected.{$ext}"), $result->output, "{$where}: output differs from the golden");
                self::assertSame((string) file_get_contents("{$dir}/expected.txt"), $result->text, "{$where}: plain text differs from expected.txt");
                $expectedWarnings = isset($warnings[$target]) ? Json::arrays($warnings, $target) : [];
                $pick =
                /**
                 * @param array<mixed> $w
                 * @return array<string, mixed>
                 */
                static fn (array $w): array => self::pick($w, ['code', 'path']);
                self::assertSame(array_map($pick, $expectedWarnings), array_map($pick, $result->warnings), "{$where}: warnings differ");
                self::assertSame($target, $result->target);
                self::assertFalse($result->fromStaleCache);
            }
        }
    }

    /** The engine's component through both engine modes; a recipient's data beside it names the key. */
    public function testComponentProps(): void
    {
        self::assertNotNull(self::$server);
        $case = self::load(Paths::fixtures() . '/render/merge-tag-positions');
        $id = self::$server->createTemplate($case['template'])['id'];
        $direct = ProcessEngine::locate()->render(new EngineRequest($case['template'], 'component', 'react-email', [], null, null, null, true));
        self::assertStringContainsString('Props = {}) {', $direct->output);
        $clients = [
            new MailrenderClient(['apiKey' => self::$key, 'baseUrl' => self::$server->url]),
            new MailrenderClient(['apiKey' => self::$key, 'baseUrl' => self::$server->url], null, self::$serve),
        ];
        foreach ($clients as $client) {
            $result = $client->render(['templateId' => $id, 'target' => 'react-email', 'componentProps' => true]);
            self::assertSame($direct->output, $result->output);
            try {
                $client->render(['templateId' => $id, 'target' => 'react-email', 'componentProps' => true, 'dynamicData' => $case['data']]);
                self::fail('expected RENDER_ERROR');
            } catch (MailrenderError $e) {
                self::assertSame(MailrenderError::RENDER_ERROR, $e->getErrorCode());
                self::assertSame([['dynamic_data'], 'component_props_conflict'], [$e->issues[0]['loc'] ?? null, $e->issues[0]['type'] ?? null]);
            }
        }
    }

    /** @dataProvider errorCases */
    public function testErrorCase(string $dir): void
    {
        self::assertNotNull(self::$server);
        $case = self::load($dir);
        $expected = Json::file($dir . '/expected.error.json');
        $target = $case['target'];
        self::assertNotNull($target, 'an error case names its target');
        [$status, $created] = self::$server->admin('POST', '/api/v1/templates', TestServer::withoutId($case['template']));
        if ($status === 201) {
            // A valid template that fails only at render time (strict mode): through the server and the client.
            $client = new MailrenderClient(['apiKey' => self::$key, 'baseUrl' => self::$server->url]);
            $args = self::renderArgs(Json::string($created, 'id'), $target, $case);
            $this->expectFailure($expected, static fn (): RenderResult => $client->render($args));
            return;
        }
        self::assertSame(422, $status, 'the server refuses an invalid template');
        $request = new EngineRequest($case['template'], 'fixture:' . basename($dir), $target, $case['data'], $case['minify'], $case['strict']);
        $this->expectFailure($expected, static fn (): ?EngineResult => self::$serve?->render($request));
        $this->expectFailure($expected, static fn (): EngineResult => ProcessEngine::locate()->render($request));
    }

    /**
     * @param array<mixed> $expected {code, message, issues?}
     * @param callable(): mixed $render
     */
    private function expectFailure(array $expected, callable $render): void
    {
        $code = Json::string($expected, 'code');
        try {
            $render();
            self::fail('expected ' . $code);
        } catch (MailrenderError $e) {
            self::assertSame($code, $e->getErrorCode());
            self::assertSame(Json::string($expected, 'message'), $e->getMessage());
            $expectedIssues = isset($expected['issues']) ? Json::arrays($expected, 'issues') : [];
            $pick =
                /**
                 * @param array<mixed> $i
                 * @return array<string, mixed>
                 */
                static fn (array $i): array => self::pick($i, ['loc', 'msg', 'type']);
            self::assertSame(array_map($pick, $expectedIssues), array_map($pick, $e->issues));
        }
    }
}
