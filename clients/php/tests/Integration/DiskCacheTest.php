<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use Mailrender\Cache\CacheEntry;
use Mailrender\Cache\DiskCache;
use Mailrender\Tests\Support\Json;
use Mailrender\Tests\Support\Paths;

/** The disk cache with the real server, shared by several PHP processes. */
final class DiskCacheTest extends ServerTestCase
{
    /**
     * Renders $id in a child process (tests/scripts/render.php) sharing the disk cache.
     *
     * @return array{stale: bool, sha1: string}
     */
    private function renderInChild(string $id, int $ttl = 300000): array
    {
        $out = (string) shell_exec($this->command([$id], $ttl, 50) . ' 2>&1');
        $results = Json::arrays(Json::decode($out));
        self::assertCount(1, $results, "the child process printed: {$out}");
        return ['stale' => Json::bool($results, 0, 'stale'), 'sha1' => Json::string($results, 0, 'sha1')];
    }

    /** @param list<string> $ids */
    private function command(array $ids, int $ttl, int $maxEntries): string
    {
        $args = json_encode([
            'baseUrl' => self::server()->url,
            'apiKey' => static::$key,
            'cachePath' => $this->dir . '/shared-cache',
            'ttl' => $ttl,
            'maxEntries' => $maxEntries,
            'templateIds' => $ids,
        ]);
        return escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(dirname(__DIR__) . '/scripts/render.php') . ' ' . escapeshellarg((string) $args);
    }

    public function testOneProcessFetchesAndAnotherRendersFromTheSharedFolder(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate('Shared'))['id'];
        $first = $this->renderInChild($id);
        self::assertFalse($first['stale']);
        self::assertFileExists($this->dir . '/shared-cache/' . rawurlencode($id) . '.json');

        // With the server gone, a second process still renders: the entry is fresh, read from disk.
        self::server()->stop();
        $second = $this->renderInChild($id);
        self::assertSame($first['sha1'], $second['sha1']);
        self::assertFalse($second['stale'], 'fresh from the shared cache, no network needed');

        // Once expired, it is the stale copy (the server is still down).
        $third = $this->renderInChild($id, 0);
        self::assertTrue($third['stale']);
        self::assertSame($first['sha1'], $third['sha1']);
    }

    public function testConcurrentProcessesKeepTheFolderConsistentAndBounded(): void
    {
        $ids = [];
        for ($i = 0; $i < 5; $i++) {
            $ids[] = self::server()->createTemplate(Paths::sampleTemplate("T{$i}"))['id'];
        }
        $processes = [];
        for ($p = 0; $p < 6; $p++) {
            $order = $ids;
            shuffle($order);
            $handle = popen($this->command($order, 0, 3), 'r');
            self::assertNotFalse($handle);
            $processes[] = $handle;
        }
        foreach ($processes as $handle) {
            $out = (string) stream_get_contents($handle);
            pclose($handle);
            $results = json_decode($out, true);
            self::assertIsArray($results, $out);
            self::assertArrayNotHasKey('error', $results, $out);
            self::assertCount(5, $results);
        }
        $files = array_values(array_diff(scandir($this->dir . '/shared-cache') ?: [], ['.', '..', '.lock']));
        // Beside the entries, their templates' saved layouts (one per target rendered).
        $layouts = array_values(array_filter($files, static fn (string $n): bool => str_ends_with($n, '.html.layout')));
        $names = array_values(array_diff($files, $layouts));
        self::assertLessThanOrEqual(3, count($names), 'maxEntries holds across processes: ' . implode(', ', $names));
        foreach ($names as $name) {
            self::assertStringEndsWith('.json', $name, 'no temp file left behind');
            self::assertNotNull(CacheEntry::fromJson((string) file_get_contents($this->dir . '/shared-cache/' . $name)), "{$name} is a whole entry");
        }
        self::assertNotSame([], $layouts);
        foreach ($layouts as $name) {
            self::assertStringStartsWith('mailrender-layout ', (string) file_get_contents($this->dir . '/shared-cache/' . $name), "{$name} is whole");
        }
    }

    public function testACorruptFileIsAMissAndIsRewritten(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $wire = self::wire();
        $client = $this->client(['cache' => ['type' => 'disk', 'path' => $this->dir . '/c']], $wire);
        $client->renderHtml($id);
        $file = (new DiskCache($this->dir . '/c', 50))->pathFor($id);
        file_put_contents($file, '{"format":1,"templateId":"' . $id . '","tem');
        $wire2 = self::wire();
        $again = $this->client(['cache' => ['type' => 'disk', 'path' => $this->dir . '/c']], $wire2);
        self::assertStringStartsWith('<!doctype html>', $again->renderHtml($id));
        self::assertSame([200], $wire2->statuses(), 'a full fetch, not a conditional one');
        self::assertNotNull(CacheEntry::fromJson((string) file_get_contents($file), $id));
    }

    public function testSavedLayoutsAreKeptBesideTheTemplateUsedWhenSoundAndReplacedWhenNot(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $config = ['cache' => ['type' => 'disk', 'path' => $this->dir . '/l']];
        $data = ['merge_tags' => ['text' => ['first_name' => 'Ada <&>']]];
        $expected = $this->client($config)->render(['templateId' => $id, 'dynamicData' => $data])->output;
        $file = $this->dir . '/l/' . DiskCache::layoutFileNameFor($id, 'html', true);
        $layout = (string) file_get_contents($file);
        self::assertStringStartsWith('mailrender-layout ', $layout);

        // A later process renders from it: a layout changed and signed again (as only someone who can
        // write the cache folder and knows the format could) shows in the output.
        $newline = (int) strpos($layout, "\n");
        $header = substr($layout, 0, $newline);
        $body = substr($layout, $newline + 1);
        $marked = str_replace('<!doctype html>', '<!doctype html><!-- from the saved layout -->', $body);
        self::assertNotSame($body, $marked);
        file_put_contents($file, 'mailrender-layout ' . hash('crc32b', $marked) . "\n" . $marked);
        $fromLayout = $this->client($config)->render(['templateId' => $id, 'dynamicData' => $data])->output;
        self::assertSame(str_replace('<!doctype html>', '<!doctype html><!-- from the saved layout -->', $expected), $fromLayout);

        // A damaged one is ignored (the output is the template's) and replaced by a sound one.
        file_put_contents($file, $header . "\n" . $marked);
        self::assertSame($expected, $this->client($config)->render(['templateId' => $id, 'dynamicData' => $data])->output);
        self::assertSame($layout, file_get_contents($file));

        // Unminified output has a layout of its own; both go with the template.
        $this->client($config)->render(['templateId' => $id, 'minify' => false]);
        self::assertFileExists($this->dir . '/l/' . DiskCache::layoutFileNameFor($id, 'html', false));
        $this->client($config)->deleteCached($id);
        self::assertSame([], array_values(array_diff(scandir($this->dir . '/l') ?: [], ['.', '..'])));
    }

    public function testAnUnwritableCacheWarnsOnceAndRendersAnyway(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        $blocker = $this->dir . '/a-file';
        file_put_contents($blocker, 'x');
        $client = $this->client(['cache' => ['type' => 'disk', 'path' => $blocker . '/cache']]);
        $warnings = [];
        set_error_handler(static function (int $_level, string $message) use (&$warnings): bool {
            $warnings[] = $message;
            return true;
        }, E_USER_WARNING);
        try {
            self::assertStringStartsWith('<!doctype html>', $client->renderHtml($id));
            self::assertStringStartsWith('<!doctype html>', $client->renderHtml($id));
        } finally {
            restore_error_handler();
        }
        self::assertCount(1, $warnings);
        self::assertStringStartsWith('mailrender: could not write the template cache (cannot create the cache folder', $warnings[0] ?? '');
    }

    public function testDiskCacheManagementThroughTheClient(): void
    {
        $a = self::server()->createTemplate(Paths::sampleTemplate('A'))['id'];
        $client = $this->client(['cache' => ['type' => 'disk', 'path' => $this->dir . '/m']]);
        $client->renderHtml($a);
        self::assertSame([$a], $client->listCached());
        // Another client instance (a restart) sees the same entries.
        $wire = self::wire();
        $other = $this->client(['cache' => ['type' => 'disk', 'path' => $this->dir . '/m']], $wire);
        self::assertSame([$a], $other->listCached());
        $other->renderHtml($a);
        self::assertSame([], $wire->statuses());
        $other->clearCache();
        self::assertSame([], $client->listCached());
    }
}
