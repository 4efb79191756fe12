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
     * Starts the engine with an argument array (never through a shell).
     *
     * @param list<string> $command
     * @return array{resource, array{resource, resource, resource}} the process and its stdin, stdout and stderr pipes
     * @throws MailrenderError UNKNOWN when the process cannot be started
     */
    public static function start(array $command): array
    {
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
