<?php

declare(strict_types=1);

namespace Mailrender\Install;

use Mailrender\Engine\EngineLocator;
use RuntimeException;

/**
 * Installs the engine executable this package is pinned to (composer.json `extra.mailrender-engine`)
 * for one platform: reads SHA256SUMS and the platform's binary from an EngineSource (the release URL,
 * or a local directory or file), checks the binary against its line in SHA256SUMS, and only then puts
 * it where EngineLocator looks for it (`bin/<os>-<arch>/mailrender-engine[.exe]`). On the platform it
 * runs on, it also checks that the binary starts and reports the pinned engine version. Nothing is
 * left behind when a step fails.
 */
final class EngineInstaller
{
    public function __construct(
        private readonly string $engineVersion,
        private readonly EngineSource $source,
        private readonly string $binDir,
    ) {
    }

    /**
     * The installer as composer.json configures it. `$source` replaces the release URL composer.json
     * names: `EngineSource::url()` for a mirror, `EngineSource::local()` for `--from`.
     */
    public static function fromComposerJson(string $packageRoot, ?EngineSource $source = null): self
    {
        $manifest = json_decode((string) file_get_contents($packageRoot . '/composer.json'), true);
        $pin = is_array($manifest) ? ($manifest['extra']['mailrender-engine'] ?? null) : null;
        if (!is_array($pin) || !is_string($pin['version'] ?? null) || !is_string($pin['base-url'] ?? null)) {
            throw new RuntimeException(
                "{$packageRoot}/composer.json has no extra.mailrender-engine {version, base-url}",
            );
        }
        $source ??= EngineSource::url(str_replace('{version}', $pin['version'], $pin['base-url']));
        return new self($pin['version'], $source, $packageRoot . '/bin');
    }

    public function engineVersion(): string
    {
        return $this->engineVersion;
    }

    /** @return string the installed executable's path */
    public function install(string $platform): string
    {
        $exe = 'mailrender-engine' . (str_starts_with($platform, 'win32-') ? '.exe' : '');
        $asset = "{$platform}/{$exe}";
        $expected = $this->expectedHash($asset);
        [$binary, $from] = $this->source->binary($asset);
        $actual = hash('sha256', $binary);
        if (!hash_equals($expected, $actual)) {
            throw new RuntimeException(
                "{$from} does not match SHA256SUMS for {$asset} (expected {$expected}, got {$actual}): not installed",
            );
        }
        $target = "{$this->binDir}/{$platform}/{$exe}";
        $dir = dirname($target);
        if (!is_dir($dir) && !mkdir($dir, 0755, true) && !is_dir($dir)) {
            throw new RuntimeException("cannot create {$dir}");
        }
        $partial = $target . '.partial';
        if (file_put_contents($partial, $binary) !== strlen($binary) || !chmod($partial, 0755)) {
            @unlink($partial);
            throw new RuntimeException("cannot write {$partial}");
        }
        if ($platform === EngineLocator::platform()) {
            $this->checkRuns($partial);
        }
        if (!rename($partial, $target)) {
            @unlink($partial);
            throw new RuntimeException("cannot move the engine into {$target}");
        }
        return $target;
    }

    private function expectedHash(string $asset): string
    {
        [$sums, $from] = $this->source->sums();
        foreach (preg_split('/\R/', trim($sums)) ?: [] as $line) {
            $m = [];
            if (preg_match('/^([0-9a-f]{64}) [ *](.+)$/', $line, $m) !== 1 || !isset($m[1], $m[2])) {
                continue;
            }
            if ($m[2] === $asset) {
                return $m[1];
            }
        }
        throw new RuntimeException(
            "{$from} lists no {$asset}: this engine release has no binary for that platform",
        );
    }

    private function checkRuns(string $path): void
    {
        $output = [];
        $status = 0;
        exec(escapeshellarg($path) . ' --version 2>&1', $output, $status);
        $line = $output[0] ?? '';
        if ($status !== 0 || !str_starts_with($line, "mailrender-engine {$this->engineVersion} ")) {
            @unlink($path);
            throw new RuntimeException(
                "the engine does not run here or is not version {$this->engineVersion} "
                . "(exit {$status}: {$line}): not installed",
            );
        }
    }
}
