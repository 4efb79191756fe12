<?php

declare(strict_types=1);

namespace Mailrender\Tests\Consumer;

use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\TestServer;
use PHPUnit\Framework\TestCase;
use stdClass;

/**
 * The package as an application gets it: a temporary project requires mailrender/client through a
 * composer path repository (mirrored, not symlinked; Packagist disabled, so it installs offline), then
 * renders a golden fixture from the real server with the engine from its own vendor/ folder.
 */
final class ComposerConsumerTest extends TestCase
{
    private const FIXTURE = 'realistic-receipt';

    public function testAProjectInstallsThePackageOfflineAndRendersAFixture(): void
    {
        $composer = trim((string) shell_exec('command -v composer'));
        self::assertNotSame('', $composer, 'composer is needed for the consumer test (Debian: composer)');
        $project = Paths::tempDir('mailrender-php-consumer-');
        $server = TestServer::start();
        try {
            file_put_contents($project . '/composer.json', json_encode([
                'name' => 'acme/mailer',
                'require' => ['php' => '>=8.1', 'mailrender/client' => '^2.0'],
                'repositories' => [
                    ['type' => 'path', 'url' => Paths::packageRoot(), 'options' => ['symlink' => false]],
                    ['packagist.org' => false],
                ],
            ], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES));
            $env = 'COMPOSER_HOME=' . escapeshellarg($project . '/.composer') . ' COMPOSER_CACHE_DIR=' . escapeshellarg($project . '/.composer-cache')
                . ' COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1';
            $lines = [];
            $status = -1;
            exec("cd " . escapeshellarg($project) . " && {$env} {$composer} install --no-progress --no-dev 2>&1", $lines, $status);
            $log = implode("\n", $lines);
            self::assertSame(0, $status, $log);
            self::assertStringContainsString('Installing mailrender/client (2.0.1)', $log);
            self::assertDirectoryExists($project . '/vendor/mailrender/client/src');
            self::assertFalse(is_link($project . '/vendor/mailrender/client'), 'a copy, as a dist install would be');

            // Objects stay objects, so the template's {} is sent as {}.
            $case = json_decode((string) file_get_contents(Paths::fixtures() . '/render/' . self::FIXTURE . '/case.json'));
            self::assertInstanceOf(stdClass::class, $case);
            $id = $server->createTemplate((string) json_encode($case->template ?? null, JSON_UNESCAPED_SLASHES))['id'];
            $key = $server->createKey(['html'], 'consumer')['key'];
            file_put_contents($project . '/data.json', json_encode($case->dynamic_data ?? null));
            file_put_contents($project . '/app.php', <<<'PHP'
<?php

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Mailrender\Engine\EngineLocator;
use Mailrender\MailrenderClient;

// Key and address from the environment, as the README recommends.
$client = new MailrenderClient(['cache' => ['type' => 'disk', 'path' => __DIR__ . '/var/mailrender-cache']]);
$data = json_decode((string) file_get_contents(__DIR__ . '/data.json'), true);
$result = $client->render(['templateId' => $argv[1], 'target' => 'html', 'dynamicData' => $data]);
fwrite(STDERR, (new ReflectionClass(MailrenderClient::class))->getFileName() . "\n" . EngineLocator::locate() . "\n");
echo $result->output;
PHP);
            $cmd = 'cd ' . escapeshellarg($project) . ' && MAILRENDER_API_KEY=' . escapeshellarg($key)
                . ' MAILRENDER_BASE_URL=' . escapeshellarg($server->url) . ' ' . escapeshellarg(PHP_BINARY) . ' app.php ' . escapeshellarg($id);
            $pipes = [];
            $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
            self::assertIsResource($proc);
            $stdoutPipe = $pipes[1] ?? null;
            $stderrPipe = $pipes[2] ?? null;
            self::assertIsResource($stdoutPipe);
            self::assertIsResource($stderrPipe);
            $stdout = (string) stream_get_contents($stdoutPipe);
            $stderr = (string) stream_get_contents($stderrPipe);
            self::assertSame(0, proc_close($proc), $stderr);
            self::assertSame((string) file_get_contents(Paths::fixtures() . '/render/' . self::FIXTURE . '/expected.html'), $stdout);
            // The class and the engine app.php used: the installed copies.
            self::assertSame([
                $project . '/vendor/mailrender/client/src/MailrenderClient.php',
                $project . '/vendor/mailrender/client/bin/linux-x64/mailrender-engine',
            ], explode("\n", trim($stderr)));
            self::assertFileExists($project . '/var/mailrender-cache/' . rawurlencode($id) . '.json');

            // The README's quick start, as written; only the template id is the reader's own.
            $quickId = $server->createTemplate(Paths::sampleTemplate('Quick', 'Quick {{first_name}}'))['id'];
            $quickStart = self::readmeBlocks()[0] ?? null;
            self::assertNotNull($quickStart, 'the README has a quick start');
            $pattern = '/\$templateId = \'[^\']+\';/';
            $script = (string) preg_replace($pattern, '$templateId = \'' . $quickId . '\';', $quickStart, 1, $replaced);
            self::assertSame(1, $replaced, 'the quick start names a $templateId');
            file_put_contents($project . '/quickstart.php', $script);
            $run = 'cd ' . escapeshellarg($project) . ' && MAILRENDER_API_KEY=' . escapeshellarg($key)
                . ' MAILRENDER_BASE_URL=' . escapeshellarg($server->url) . ' ' . escapeshellarg(PHP_BINARY) . ' quickstart.php 2>&1';
            $out = [];
            exec($run, $out, $status);
            self::assertSame(0, $status, implode("\n", $out));
            self::assertStringContainsString('Quick Ada', implode("\n", $out));
        } finally {
            $server->destroy();
            Paths::removeTree($project);
        }
    }

    public function testEveryPhpExampleInTheReadmeParses(): void
    {
        $blocks = self::readmeBlocks();
        self::assertGreaterThanOrEqual(3, count($blocks));
        foreach ($blocks as $i => $code) {
            $file = tempnam(sys_get_temp_dir(), 'readme-php-');
            self::assertIsString($file);
            $out = [];
            $status = -1;
            file_put_contents($file, str_starts_with($code, '<?php') ? $code : "<?php\n{$code}");
            exec(escapeshellarg(PHP_BINARY) . ' -l ' . escapeshellarg($file) . ' 2>&1', $out, $status);
            unlink($file);
            self::assertSame(0, $status, "README php block {$i}: " . implode("\n", $out) . "\n{$code}");
        }
    }

    /** @return list<string> the ```php blocks of the README, in order (indented ones unindented) */
    private static function readmeBlocks(): array
    {
        $readme = (string) file_get_contents(Paths::packageRoot() . '/README.md');
        $matches = [];
        preg_match_all('/^( *)```php\n(.*?)^\1```/ms', $readme, $matches, PREG_SET_ORDER);
        $blocks = [];
        foreach ($matches as $m) {
            $blocks[] = (string) preg_replace('/^' . ($m[1] ?? '') . '/m', '', $m[2] ?? '');
        }
        return $blocks;
    }
}
