<?php

declare(strict_types=1);

namespace Mailrender\Tests\Engine;

use Mailrender\Engine\EngineLocator;
use Mailrender\Engine\ProcessEngine;
use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\Paths;

final class EngineLocatorTest extends EngineTestCase
{
    public function testPlatformNamesFollowNode(): void
    {
        self::assertSame('linux-x64', EngineLocator::platform('Linux', 'x86_64'));
        self::assertSame('linux-arm64', EngineLocator::platform('Linux', 'aarch64'));
        self::assertSame('darwin-arm64', EngineLocator::platform('Darwin', 'arm64'));
        self::assertSame('win32-x64', EngineLocator::platform('Windows', 'AMD64'));
    }

    public function testTheBundledBinaryForThisPlatformIsFoundAndUsed(): void
    {
        $path = EngineLocator::locate();
        self::assertSame(Paths::packageRoot() . '/bin/' . EngineLocator::platform() . '/mailrender-engine', $path);
        $engine = ProcessEngine::locate();
        self::assertStringStartsWith('<!doctype html>', $engine->render(self::request())->output);
    }

    public function testEnginePathOverridesAutoDetection(): void
    {
        $copy = $this->dir . '/my-engine';
        symlink(Paths::builtEngine(), $copy);
        self::assertSame($copy, EngineLocator::locate($copy));
    }

    public function testAWrongEnginePathGivesAClearErrorAtConstruction(): void
    {
        $missing = $this->dir . '/nope/mailrender-engine';
        try {
            new MailrenderClient(['apiKey' => 'k', 'enginePath' => $missing]);
            self::fail('expected an error');
        } catch (MailrenderError $e) {
            self::assertSame('UNKNOWN', $e->getErrorCode());
            self::assertSame(0, $e->status);
            self::assertSame("enginePath '{$missing}' does not exist. Fix enginePath, or remove it to use the installed engine.", $e->getMessage());
        }
    }

    public function testADirectoryOrANonExecutableFileIsNamedAsSuch(): void
    {
        try {
            EngineLocator::locate($this->dir);
            self::fail('expected an error');
        } catch (MailrenderError $e) {
            self::assertStringContainsString("enginePath '{$this->dir}' is a directory, not the mailrender-engine executable", $e->getMessage());
        }
        $plain = $this->dir . '/engine.txt';
        file_put_contents($plain, 'not a program');
        chmod($plain, 0644);
        if (posix_geteuid() === 0) {
            // root may execute nothing without an x bit either, but is_executable() says so only for files with one.
            self::assertFalse(is_executable($plain));
        }
        try {
            EngineLocator::locate($plain);
            self::fail('expected an error');
        } catch (MailrenderError $e) {
            self::assertStringContainsString("enginePath '{$plain}' is not executable by this PHP process (check its permissions: chmod +x)", $e->getMessage());
        }
    }

    /**
     * The package copied without bin/ (as a broken install would be): the message names the expected
     * path, the platform and what to do. Run in a separate PHP so the copy's own autoloading is used.
     */
    public function testAMissingBundledBinarySaysWhatIsMissing(): void
    {
        $copy = $this->dir . '/package';
        mkdir($copy);
        exec('cp -R ' . escapeshellarg(Paths::packageRoot() . '/src') . ' ' . escapeshellarg($copy . '/src'));
        $script = $this->dir . '/probe.php';
        file_put_contents($script, '<?php
declare(strict_types=1);
spl_autoload_register(static function (string $c): void {
    $f = ' . var_export($copy . '/src/', true) . ' . str_replace("\\\\", "/", substr($c, strlen("Mailrender\\\\"))) . ".php";
    if (is_file($f)) { require $f; }
});
try { new Mailrender\MailrenderClient(["apiKey" => "k"]); echo "constructed"; }
catch (Mailrender\MailrenderError $e) { echo $e->getErrorCode(), "|", $e->getMessage(); }
');
        $out = (string) shell_exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg($script) . ' 2>&1');
        $platform = EngineLocator::platform();
        self::assertSame(
            "UNKNOWN|No mailrender-engine for {$platform}: {$copy}/bin/{$platform}/mailrender-engine does not exist "
            . '(installed platforms: none). Install it with vendor/bin/mailrender-install-engine (--from <dir> takes it '
            . "from a local copy, without network), or set 'enginePath' to a mailrender-engine executable built for {$platform}.",
            $out,
        );
    }

    public function testDisabledProcOpenIsReportedExactly(): void
    {
        $script = $this->dir . '/probe.php';
        file_put_contents($script, '<?php
declare(strict_types=1);
require ' . var_export(Paths::packageRoot() . '/vendor/autoload.php', true) . ';
try { new Mailrender\MailrenderClient(["apiKey" => "k"]); echo "constructed"; }
catch (Mailrender\MailrenderError $e) { echo $e->getErrorCode(), "|", $e->getMessage(); }
');
        $out = (string) shell_exec(escapeshellarg(PHP_BINARY) . ' -d disable_functions=proc_open ' . escapeshellarg($script) . ' 2>&1');
        self::assertSame(
            'UNKNOWN|mailrender/client runs its engine executable as a subprocess, but proc_open() is disabled in this PHP '
            . '(disable_functions in php.ini). Enable it, or pass your own Engine as the third MailrenderClient constructor argument.',
            $out,
        );
    }
}
