<?php

// The PHP side of the cross-language disk-cache test (tests/Integration/CacheInteropTest.php):
//   write <dir> <entry.json>   writes the entry ({templateId, template, etag, fetchedAt, scope}) with DiskCache
//   read <dir> <templateId>    prints the entry DiskCache reads back, or null

declare(strict_types=1);

require dirname(__DIR__, 2) . '/vendor/autoload.php';

use Mailrender\Cache\CachedScope;
use Mailrender\Cache\CacheEntry;
use Mailrender\Cache\DiskCache;

$fail = static function (string $why): never {
    fwrite(STDERR, "cache-interop.php: {$why}\n");
    exit(2);
};
$encode = static fn (mixed $value): string
    => json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);

$args = $argv ?? [];
[$command, $dir, $arg] = [$args[1] ?? '', $args[2] ?? '', $args[3] ?? ''];
$cache = new DiskCache($dir, 50);
if ($command === 'write') {
    // Objects stay objects, so the template's {} is written as {}.
    $e = json_decode((string) file_get_contents($arg), false, 512, JSON_THROW_ON_ERROR);
    if (!$e instanceof stdClass) {
        $fail("{$arg} is not an entry object");
    }
    $raw = $e->scope ?? null;
    $scope = null;
    if ($raw !== null) {
        if (!$raw instanceof stdClass || !is_string($raw->key ?? null) || !is_bool($raw->complete ?? null)) {
            $fail('a malformed scope');
        }
        $targets = [];
        foreach (is_array($raw->targets ?? null) ? $raw->targets : $fail('scope.targets is not a list') as $target) {
            $targets[] = is_string($target) ? $target : $fail('scope.targets has a non-string');
        }
        $scope = new CachedScope($raw->key, $targets, $raw->complete);
    }
    $id = is_string($e->templateId ?? null) ? $e->templateId : $fail('templateId is not a string');
    $etag = $e->etag ?? null;
    $etag = $etag === null || is_string($etag) ? $etag : $fail('etag is not a string');
    $fetchedAt = is_int($e->fetchedAt ?? null) ? $e->fetchedAt : $fail('fetchedAt is not an integer');
    $cache->set(new CacheEntry($id, $encode($e->template ?? null), $etag, $fetchedAt, $scope));
    exit(0);
}
$entry = $cache->get($arg);
if ($entry === null) {
    echo "null";
    exit(0);
}
$scope = $entry->scope === null
    ? null
    : ['key' => $entry->scope->key, 'targets' => $entry->scope->targets, 'complete' => $entry->scope->complete];
echo '{"templateId":' . $encode($entry->templateId) . ',"template":' . $entry->templateJson
    . ',"etag":' . $encode($entry->etag) . ',"fetchedAt":' . $entry->fetchedAt . ',"scope":' . $encode($scope) . '}';
