<?php

// The engine installer test's release mirror (`php -S ... -t <release> release-mirror-router.php`):
// files as they are, and under /moved/ a 302 to the same path without it, as release hosts answer
// a download with a redirect to their CDN.

declare(strict_types=1);

$path = (string) parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
if (str_starts_with($path, '/moved/')) {
    header('Location: ' . substr($path, strlen('/moved')), true, 302);
    return true;
}
return false;
