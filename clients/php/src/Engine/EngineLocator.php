<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\Defaults;
use Mailrender\MailrenderError;

/**
 * Finds the engine executable: `enginePath` when given, else the one installed for this platform in
 * `bin/<os>-<arch>/mailrender-engine` of the package (by `vendor/bin/mailrender-install-engine`).
 * Every failure says exactly what is missing and how to get it.
 */
final class EngineLocator
{
    /** The functions a subprocess engine needs; php.ini's disable_functions may remove them. */
    private const PROCESS_FUNCTIONS = ['proc_open', 'proc_get_status', 'proc_terminate', 'proc_close'];

    /** `<os>-<arch>` in Node's naming, as engine/dist and bin/ use it: linux-x64, darwin-arm64, win32-x64. */
    public static function platform(?string $osFamily = null, ?string $machine = null): string
    {
        $os = match ($osFamily ?? PHP_OS_FAMILY) {
            'Linux' => 'linux',
            'Darwin' => 'darwin',
            'Windows' => 'win32',
            'BSD' => 'freebsd',
            default => strtolower($osFamily ?? PHP_OS_FAMILY),
        };
        $machine = strtolower($machine ?? php_uname('m'));
        $arch = match ($machine) {
            'x86_64', 'amd64', 'x64' => 'x64',
            'aarch64', 'arm64', 'armv8', 'armv8l' => 'arm64',
            'i386', 'i686', 'x86' => 'ia32',
            default => $machine,
        };
        return "{$os}-{$arch}";
    }

    public static function packageRoot(): string
    {
        return dirname(__DIR__, 2);
    }

    public static function bundledPath(?string $platform = null): string
    {
        $platform ??= self::platform();
        $exe = str_starts_with($platform, 'win32-') ? '.exe' : '';
        return self::packageRoot() . '/bin/' . $platform . '/' . Defaults::ENGINE_NAME . $exe;
    }

    /** @throws MailrenderError UNKNOWN naming the missing piece */
    public static function assertProcessFunctions(): void
    {
        $disabled = array_map('trim', explode(',', (string) ini_get('disable_functions')));
        $missing = array_values(array_filter(
            self::PROCESS_FUNCTIONS,
            static fn (string $f): bool => !function_exists($f) || in_array($f, $disabled, true),
        ));
        if ($missing !== []) {
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                sprintf(
                    'mailrender/client runs its engine executable as a subprocess, but %s %s disabled in this PHP '
                    . '(disable_functions in php.ini). Enable %s, or pass your own Engine as the third '
                    . 'MailrenderClient constructor argument.',
                    implode(', ', array_map(static fn (string $f): string => $f . '()', $missing)),
                    count($missing) === 1 ? 'is' : 'are',
                    count($missing) === 1 ? 'it' : 'them',
                ),
            );
        }
    }

    /**
     * The executable to run, checked: exists, is a file, is executable.
     *
     * @throws MailrenderError UNKNOWN
     */
    public static function locate(?string $enginePath = null): string
    {
        self::assertProcessFunctions();
        if ($enginePath !== null) {
            $fix = 'Fix enginePath, or remove it to use the installed engine.';
            self::check($enginePath, "enginePath '{$enginePath}'", $fix);
            return $enginePath;
        }
        $platform = self::platform();
        $path = self::bundledPath($platform);
        $bundled = glob(self::packageRoot() . '/bin/*/' . Defaults::ENGINE_NAME . '*') ?: [];
        if (!file_exists($path)) {
            $available = array_map(static fn (string $p): string => basename(dirname($p)), $bundled);
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                sprintf(
                    'No mailrender-engine for %s: %s does not exist (installed platforms: %s). '
                    . 'Install it with vendor/bin/mailrender-install-engine (--from <dir> takes it from a local '
                    . "copy, without network), or set 'enginePath' to a mailrender-engine executable built for %s.",
                    $platform,
                    $path,
                    $available === [] ? 'none' : implode(', ', $available),
                    $platform,
                ),
            );
        }
        $fix = "Run vendor/bin/mailrender-install-engine again, or set 'enginePath'.";
        self::check($path, "The installed engine {$path}", $fix);
        return $path;
    }

    private static function check(string $path, string $what, string $fix): void
    {
        clearstatcache(true, $path);
        if (!file_exists($path)) {
            throw new MailrenderError(MailrenderError::UNKNOWN, 0, "{$what} does not exist. {$fix}");
        }
        if (is_dir($path)) {
            $message = "{$what} is a directory, not the mailrender-engine executable. {$fix}";
            throw new MailrenderError(MailrenderError::UNKNOWN, 0, $message);
        }
        if (!is_executable($path)) {
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                "{$what} is not executable by this PHP process (check its permissions: chmod +x). {$fix}",
            );
        }
    }
}
