<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use RuntimeException;

/** Internal: the --serve process went away mid-exchange; ServeEngine restarts it and retries once. */
final class EngineDied extends RuntimeException
{
}
