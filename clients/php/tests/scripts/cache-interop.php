<?php

// The PHP side of the cross-language disk-cache test (tests/Integration/CacheInteropTest.php):
//   write <dir> <entry.json>   writes the entry ({templateId, template, etag, fetchedAt, scope}) with DiskCache
//   read <dir> <templateId>    prints the entry DiskCache reads back, or null

declare(strict_types=1);

require dirname(__DIR__, 2) . '/vendor/autoload.php';

use Mailrender\Cache\CachedScope;
use Mailrender\Cache\CacheEntry;
use Mailrender\Cache\DiskCache;

[, $command, $dir, $arg] = $argv;
$cache = new DiskCache($dir, 50);
if ($command === 'write') {
    $e = json_decode((string) file_get_contents($arg), false, 512, JSON_THROW_ON_ERROR);
    $scope = $e->scope === null ? null : new CachedScope($e->scope->key, $e->scope->targets, $e->scope->complete);
    $template = json_encode($e->template, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
    $cache->set(new CacheEntry($e->templateId, $template, $e->etag, $e->fetchedAt, $scope));
    exit(0);
}
$entry = $cache->get($arg);
if ($entry === null) {
    echo "null";
    exit(0);
}
echo '{"templateId":' . json_encode($entry->templateId) . ',"template":' . $entry->templateJson
    . ',"etag":' . json_encode($entry->etag) . ',"fetchedAt":' . $entry->fetchedAt . ',"scope":'
    . json_encode($entry->scope === null ? null : (array) $entry->scope) . '}';
