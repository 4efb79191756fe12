<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\Defaults;

/** The environment an engine process gets: ours, without the API key (the engine never needs it). */
final class ProcessEnv
{
    /** @return array<string, string> */
    public static function forEngine(): array
    {
        $env = getenv();
        unset($env[Defaults::ENV_API_KEY]);
        return $env;
    }
}
