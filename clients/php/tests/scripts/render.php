<?php

// A separate PHP process using the client with a disk cache, for the multi-process tests.
// Usage: php render.php '<json: {baseUrl, apiKey, cachePath, maxEntries, ttl, templateIds}>'
// Prints one JSON line: [{id, stale, sha1}, ...] or {"error": code, "message": ...}.

declare(strict_types=1);

require dirname(__DIR__, 2) . '/vendor/autoload.php';

use Mailrender\MailrenderClient;
use Mailrender\MailrenderError;

$args = json_decode(($argv ?? [])[1] ?? '{}', true, 512, JSON_THROW_ON_ERROR);
if (
    !is_array($args)
    || !is_string($args['apiKey'] ?? null)
    || !is_string($args['baseUrl'] ?? null)
    || !is_string($args['cachePath'] ?? null)
    || !is_int($args['ttl'] ?? null)
    || !is_int($args['maxEntries'] ?? null)
    || !is_array($args['templateIds'] ?? null)
) {
    fwrite(STDERR, "render.php: the argument is not {baseUrl, apiKey, cachePath, maxEntries, ttl, templateIds}\n");
    exit(2);
}
try {
    $client = new MailrenderClient([
        'apiKey' => $args['apiKey'],
        'baseUrl' => $args['baseUrl'],
        'cache' => ['type' => 'disk', 'path' => $args['cachePath'], 'ttl' => $args['ttl'], 'maxEntries' => $args['maxEntries']],
    ]);
    $results = [];
    foreach ($args['templateIds'] as $id) {
        $result = $client->render(['templateId' => is_string($id) ? $id : var_export($id, true)]);
        $results[] = ['id' => $id, 'stale' => $result->fromStaleCache, 'sha1' => sha1($result->output)];
    }
    echo json_encode($results), "\n";
} catch (MailrenderError $e) {
    echo json_encode(['error' => $e->getErrorCode(), 'message' => $e->getMessage()]), "\n";
}
