<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\Defaults;

/**
 * How long a ServeEngine render checks the pipe for the engine's answer before it sleeps in
 * stream_select.
 *
 * A sleeping reader costs a wake-up on each side of the pipe when the answer comes (tens of
 * microseconds each on a virtual machine, more than the engine's work for a cached template), and
 * the engine usually answers within ~0.1 ms. So a render polls without blocking for up to 200 µs
 * first: at most that much CPU, spent while the caller waits anyway. Never on one CPU, where
 * spinning would only delay the engine. MAILRENDER_ENGINE_SPIN_US overrides it (0 turns it off).
 */
final class Spin
{
    /** @param array<string, string|false>|null $env lookups default to getenv() */
    public static function micros(?array $env = null): int
    {
        $name = Defaults::ENV_ENGINE_SPIN_US;
        $configured = $env === null ? getenv($name) : ($env[$name] ?? false);
        if (is_string($configured) && is_numeric(trim($configured))) {
            return max(0, (int) round((float) trim($configured)));
        }
        $cpus = self::cpusAllowed();
        return $cpus === 1 ? 0 : Defaults::ENGINE_SPIN_US;
    }

    /**
     * CPUs this process may run on: Linux's affinity list, Windows' processor count; null when
     * unknown (macOS: every Mac has several).
     */
    public static function cpusAllowed(): ?int
    {
        $status = @file_get_contents('/proc/self/status');
        if (is_string($status) && preg_match('/^Cpus_allowed_list:\s*(\S+)/m', $status, $match) === 1) {
            return self::countCpuList($match[1]);
        }
        $windows = getenv('NUMBER_OF_PROCESSORS');
        return is_string($windows) && ctype_digit($windows) ? (int) $windows : null;
    }

    /** The number of CPUs in a Linux CPU list such as "0-3,8,10-11". */
    public static function countCpuList(string $list): int
    {
        $count = 0;
        foreach (explode(',', $list) as $range) {
            $bounds = explode('-', $range);
            $count += count($bounds) === 2 ? (int) $bounds[1] - (int) $bounds[0] + 1 : 1;
        }
        return $count;
    }
}
