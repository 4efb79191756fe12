<?php

declare(strict_types=1);

// The package's own autoloader (composer dump-autoload, or the fallback scripts/test-client-php.sh writes).
require dirname(__DIR__) . '/vendor/autoload.php';

// Debian's PSR-7/17/18 interfaces and Guzzle (php-psr-http-*, php-guzzlehttp-*), used only by the
// Psr18Transport test; the package itself does not depend on them.
foreach (
    [
        '/usr/share/php/Psr/Http/Message/autoload.php',
        '/usr/share/php/Psr/Http/Client/autoload.php',
        '/usr/share/php/GuzzleHttp/autoload.php',
        '/usr/share/php/GuzzleHttp/Psr7/autoload.php',
    ] as $debianAutoload
) {
    if (is_file($debianAutoload)) {
        require_once $debianAutoload;
    }
}
