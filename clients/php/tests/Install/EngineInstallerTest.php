<?php

declare(strict_types=1);

namespace Mailrender\Tests\Install;

use Mailrender\Engine\EngineLocator;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\TestServer;
use PHPUnit\Framework\TestCase;
use RuntimeException;

/**
 * bin/mailrender-install-engine as a user runs it after `composer require`: against a real HTTP
 * server (PHP's built-in one) serving a copy of the release build (make engine-all:
 * engine/dist/release), or with --from on that copy on disk, from a copy of the package, so what it
 * installs lands in that copy's bin/.
 */
final class EngineInstallerTest extends TestCase
{
    /** @var resource|null */
    private static mixed $server = null;
    private static string $mirror = '';
    private static string $baseUrl = '';
    private string $package = '';

    public static function setUpBeforeClass(): void
    {
        $release = Paths::repoRoot() . '/engine/dist/release';
        if (!is_file("{$release}/SHA256SUMS")) {
            throw new RuntimeException("{$release} is not built: run `make engine-all` (scripts/test-client-php.sh does)");
        }
        self::$mirror = Paths::tempDir('mailrender-php-mirror-');
        self::copyTree($release, self::$mirror);
        $port = TestServer::freePort();
        self::$baseUrl = "http://127.0.0.1:{$port}";
        $router = Paths::packageRoot() . '/tests/scripts/release-mirror-router.php';
        $command = [PHP_BINARY, '-S', "127.0.0.1:{$port}", '-t', self::$mirror, $router];
        $pipes = [];
        $process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        if (!is_resource($process)) {
            throw new RuntimeException('cannot start php -S');
        }
        self::$server = $process;
        $errno = 0;
        $error = '';
        for ($i = 0; $i < 100; $i++) {
            $socket = @stream_socket_client("tcp://127.0.0.1:{$port}", $errno, $error, 0.1);
            if ($socket !== false) {
                fclose($socket);
                return;
            }
            usleep(50_000);
        }
        throw new RuntimeException('php -S did not start listening');
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$server !== null) {
            proc_terminate(self::$server);
            proc_close(self::$server);
            self::$server = null;
        }
        Paths::removeTree(self::$mirror);
    }

    protected function setUp(): void
    {
        $this->package = Paths::tempDir('mailrender-php-package-');
        copy(Paths::packageRoot() . '/composer.json', "{$this->package}/composer.json");
        self::copyTree(Paths::packageRoot() . '/src', "{$this->package}/src");
        mkdir("{$this->package}/bin");
        copy(Paths::packageRoot() . '/bin/mailrender-install-engine', "{$this->package}/bin/mailrender-install-engine");
    }

    protected function tearDown(): void
    {
        Paths::removeTree($this->package);
    }

    public function testThePinnedEngineVersionIsTheEnginePackagesVersion(): void
    {
        self::assertSame(Paths::engineVersion(), self::pinnedVersion(Paths::packageRoot()));
    }

    public function testInstallsTheHostEngineCheckedAndRunnable(): void
    {
        $platform = EngineLocator::platform();
        [$status, $out] = $this->runInstaller(['--base-url=' . self::$baseUrl]);
        self::assertSame(0, $status, $out);
        $installed = "{$this->package}/bin/{$platform}/mailrender-engine";
        self::assertFileEquals(self::$mirror . "/{$platform}/mailrender-engine", $installed);
        self::assertTrue(is_executable($installed));
        $version = (string) shell_exec(escapeshellarg($installed) . ' --version');
        self::assertStringStartsWith('mailrender-engine ' . Paths::engineVersion() . ' ', $version);
        self::assertStringContainsString('installed mailrender-engine ' . self::pinnedVersion($this->package), $out);
    }

    public function testInstallsAnotherPlatformsEngineByChecksumOnly(): void
    {
        [$status, $out] = $this->runInstaller(['--platform=win32-x64', '--base-url=' . self::$baseUrl]);
        self::assertSame(0, $status, $out);
        self::assertFileEquals(self::$mirror . '/win32-x64/mailrender-engine.exe', "{$this->package}/bin/win32-x64/mailrender-engine.exe");
    }

    public function testFollowsARedirectedDownload(): void
    {
        // Release hosts redirect downloads (302 to a CDN): the status that counts is the last one.
        $platform = EngineLocator::platform();
        [$status, $out] = $this->runInstaller(['--base-url=' . self::$baseUrl . '/moved']);
        self::assertSame(0, $status, $out);
        self::assertFileEquals(self::$mirror . "/{$platform}/mailrender-engine", "{$this->package}/bin/{$platform}/mailrender-engine");
    }

    public function testRefusesABinaryThatDoesNotMatchSha256sums(): void
    {
        $platform = 'linux-arm64';
        $original = self::$mirror . "/{$platform}/mailrender-engine";
        $bytes = (string) file_get_contents($original);
        file_put_contents($original, $bytes . "\0");
        try {
            [$status, $out] = $this->runInstaller(["--platform={$platform}", '--base-url=' . self::$baseUrl]);
        } finally {
            file_put_contents($original, $bytes);
        }
        self::assertSame(1, $status);
        self::assertStringContainsString('does not match SHA256SUMS', $out);
        self::assertFileDoesNotExist("{$this->package}/bin/{$platform}/mailrender-engine");
        self::assertFileDoesNotExist("{$this->package}/bin/{$platform}/mailrender-engine.partial");
    }

    public function testNamesAPlatformTheReleaseDoesNotHave(): void
    {
        [$status, $out] = $this->runInstaller(['--platform=freebsd-x64', '--base-url=' . self::$baseUrl]);
        self::assertSame(1, $status);
        self::assertStringContainsString('lists no freebsd-x64/mailrender-engine', $out);
    }

    public function testReportsAnUnreachableRelease(): void
    {
        [$status, $out] = $this->runInstaller(['--base-url=' . self::$baseUrl . '/no-such-release']);
        self::assertSame(1, $status);
        self::assertStringContainsString('cannot download ' . self::$baseUrl . '/no-such-release/SHA256SUMS: HTTP 404', $out);
    }

    public function testInstallsFromALocalReleaseDirectoryWithoutNetwork(): void
    {
        $platform = EngineLocator::platform();
        // The release URL points nowhere: only the local directory can supply the engine.
        [$status, $out] = $this->runInstaller(['--from=' . self::$mirror], env: ['MAILRENDER_ENGINE_BASE_URL' => 'http://127.0.0.1:9/none']);
        self::assertSame(0, $status, $out);
        self::assertFileEquals(self::$mirror . "/{$platform}/mailrender-engine", "{$this->package}/bin/{$platform}/mailrender-engine");
        self::assertStringContainsString('installed mailrender-engine ' . self::pinnedVersion($this->package) . " for {$platform}", $out);
    }

    public function testARelativeFromIsTakenFromTheWorkingDirectory(): void
    {
        [$status, $out] = $this->runInstaller(['--platform=win32-x64', '--from', basename(self::$mirror)], cwd: dirname(self::$mirror));
        self::assertSame(0, $status, $out);
        self::assertFileEquals(self::$mirror . '/win32-x64/mailrender-engine.exe', "{$this->package}/bin/win32-x64/mailrender-engine.exe");
    }

    public function testInstallsOneFileCheckedAgainstTheSumsOfItsRelease(): void
    {
        $platform = EngineLocator::platform();
        // The release layout: SHA256SUMS one directory up, naming <platform>/mailrender-engine.
        [$status, $out] = $this->runInstaller(['--from=' . self::$mirror . "/{$platform}/mailrender-engine"]);
        self::assertSame(0, $status, $out);
        self::assertFileEquals(self::$mirror . "/{$platform}/mailrender-engine", "{$this->package}/bin/{$platform}/mailrender-engine");
        // A download folder: the binary and SHA256SUMS side by side.
        $flat = Paths::tempDir('mailrender-php-download-');
        try {
            copy(self::$mirror . '/linux-arm64/mailrender-engine', "{$flat}/mailrender-engine");
            copy(self::$mirror . '/SHA256SUMS', "{$flat}/SHA256SUMS");
            [$status, $out] = $this->runInstaller(['--platform=linux-arm64', "--from={$flat}/mailrender-engine"]);
            self::assertSame(0, $status, $out);
            self::assertFileEquals("{$flat}/mailrender-engine", "{$this->package}/bin/linux-arm64/mailrender-engine");
        } finally {
            Paths::removeTree($flat);
        }
    }

    public function testRefusesALocalFileThatIsNotTheReleasesBinaryForThePlatform(): void
    {
        $platform = EngineLocator::platform();
        $flat = Paths::tempDir('mailrender-php-download-');
        try {
            // Another platform's genuine binary is still the wrong file for this one.
            copy(self::$mirror . '/linux-arm64/mailrender-engine', "{$flat}/mailrender-engine");
            copy(self::$mirror . '/SHA256SUMS', "{$flat}/SHA256SUMS");
            [$status, $out] = $this->runInstaller(["--from={$flat}/mailrender-engine"]);
            self::assertSame(1, $status, $out);
            self::assertStringContainsString("{$flat}/mailrender-engine does not match SHA256SUMS for {$platform}/mailrender-engine", $out);
            self::assertFileDoesNotExist("{$this->package}/bin/{$platform}/mailrender-engine");
            self::assertFileDoesNotExist("{$this->package}/bin/{$platform}/mailrender-engine.partial");
            unlink("{$flat}/SHA256SUMS");
            [$status, $out] = $this->runInstaller(["--from={$flat}/mailrender-engine"]);
            self::assertSame(1, $status, $out);
            self::assertStringContainsString("no SHA256SUMS next to {$flat}/mailrender-engine", $out);
            [$status, $out] = $this->runInstaller(["--from={$flat}"]);
            self::assertSame(1, $status, $out);
            self::assertStringContainsString("{$flat} has no SHA256SUMS: --from takes a release directory", $out);
        } finally {
            Paths::removeTree($flat);
        }
    }

    public function testFromNeedsAnExistingPathAndIsTheOnlySource(): void
    {
        [$status, $out] = $this->runInstaller(['--from=/no/such/engine']);
        self::assertSame(1, $status);
        self::assertStringContainsString('--from /no/such/engine: no such file or directory', $out);
        [$status, $out] = $this->runInstaller(['--from=' . self::$mirror, '--base-url=' . self::$baseUrl]);
        self::assertSame(1, $status);
        self::assertStringContainsString('--from and --base-url name two sources: give one', $out);
        [$status, $out] = $this->runInstaller([self::$mirror]);
        self::assertSame(1, $status);
        self::assertStringContainsString("unexpected argument '" . self::$mirror . "'", $out);
    }

    /**
     * @param list<string> $args
     * @param string|null $cwd the working directory (null or '': this process's)
     * @param array<string, string> $env added to this process's environment
     * @return array{int, string}
     */
    private function runInstaller(array $args, ?string $cwd = null, array $env = []): array
    {
        $command = array_merge([PHP_BINARY, "{$this->package}/bin/mailrender-install-engine"], $args);
        $descriptors = [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']];
        $pipes = [];
        $process = proc_open($command, $descriptors, $pipes, $cwd === '' ? null : $cwd, array_merge(getenv(), $env));
        [$stdin, $stdout, $stderr] = [$pipes[0] ?? null, $pipes[1] ?? null, $pipes[2] ?? null];
        if (!is_resource($process) || $stdin === null || $stdout === null || $stderr === null) {
            throw new RuntimeException('cannot run the installer');
        }
        fclose($stdin);
        $out = (string) stream_get_contents($stdout) . (string) stream_get_contents($stderr);
        fclose($stdout);
        fclose($stderr);
        return [proc_close($process), $out];
    }

    private static function pinnedVersion(string $packageRoot): string
    {
        $manifest = json_decode((string) file_get_contents("{$packageRoot}/composer.json"), true);
        $version = is_array($manifest) ? ($manifest['extra']['mailrender-engine']['version'] ?? null) : null;
        return is_string($version) ? $version : '';
    }

    private static function copyTree(string $from, string $to): void
    {
        if (!is_dir($to)) {
            mkdir($to, 0777, true);
        }
        foreach (scandir($from) ?: [] as $name) {
            if ($name === '.' || $name === '..') {
                continue;
            }
            is_dir("{$from}/{$name}") ? self::copyTree("{$from}/{$name}", "{$to}/{$name}") : copy("{$from}/{$name}", "{$to}/{$name}");
            if (is_executable("{$from}/{$name}")) {
                chmod("{$to}/{$name}", 0755);
            }
        }
    }
}
