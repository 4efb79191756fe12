<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\Defaults;
use Mailrender\MailrenderError;

/** How an engine process is started: no shell, our environment without the API key, non-blocking pipes. */
final class ProcessEnv
{
    /** @return array<string, string> */
    public static function forEngine(): array
    {
        $env = getenv();
        unset($env[Defaults::ENV_API_KEY]); // the engine never needs it
        return $env;
    }

    /**
     * `--max-memory <MiB>` from MAILRENDER_ENGINE_MAX_MEMORY (blank: none): the engine answers
     * output_too_large rather than grow past it.
     *
     * @return list<string>
     * @throws MailrenderError UNKNOWN when the value is not a whole number of MiB, at least 32
     */
    public static function memoryCeiling(): array
    {
        $raw = getenv(Defaults::ENV_ENGINE_MAX_MEMORY);
        $value = is_string($raw) ? trim($raw) : '';
        if ($value === '') {
            return [];
        }
        if (!ctype_digit($value) || (int) $value < 32) {
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                Defaults::ENV_ENGINE_MAX_MEMORY . " must be a whole number of MiB, at least 32, got '{$value}'",
            );
        }
        return ['--max-memory', $value];
    }

    /**
     * Starts the engine with an argument array (never through a shell).
     *
     * @param list<string> $command
     * @return array{resource, array{resource, resource, resource}} the process and its stdin, stdout and stderr pipes
     * @throws MailrenderError UNKNOWN when the process cannot be started
     */
    public static function start(array $command): array
    {
        $command = [...$command, ...self::memoryCeiling()];
        $pipes = [];
        $process = @proc_open(
            $command,
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes,
            null,
            self::forEngine(),
        );
        if (!is_resource($process)) {
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                'Could not start ' . implode(' ', $command) . ': '
                    . (error_get_last()['message'] ?? 'proc_open failed'),
            );
        }
        if (!isset($pipes[0], $pipes[1], $pipes[2])) {
            proc_close($process);
            throw new MailrenderError(MailrenderError::UNKNOWN, 0, 'Could not open pipes to ' . implode(' ', $command));
        }
        $pipes = [$pipes[0], $pipes[1], $pipes[2]];
        foreach ($pipes as $pipe) {
            stream_set_blocking($pipe, false);
        }
        return [$process, $pipes];
    }
}
