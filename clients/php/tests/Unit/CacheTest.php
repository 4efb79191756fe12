<?php

declare(strict_types=1);

namespace Mailrender\Tests\Unit;

use Mailrender\Cache\CachedScope;
use Mailrender\Cache\CacheEntry;
use Mailrender\Cache\CacheStore;
use Mailrender\Cache\DiskCache;
use Mailrender\Cache\MemoryCache;
use Mailrender\Tests\Support\Paths;
use Mailrender\Tests\Support\Json;
use PHPUnit\Framework\TestCase;

final class CacheTest extends TestCase
{
    private string $dir;

    protected function setUp(): void
    {
        $this->dir = Paths::tempDir();
    }

    protected function tearDown(): void
    {
        Paths::removeTree($this->dir);
    }

    private static function entry(string $id, int $fetchedAt, string $json = '{"a":{}}'): CacheEntry
    {
        return new CacheEntry($id, $json, "\"etag-{$id}\"", $fetchedAt, new CachedScope('fp', ['html'], true));
    }

    /** @return iterable<string, array{string}> */
    public static function stores(): iterable
    {
        yield 'memory' => ['memory'];
        yield 'disk' => ['disk'];
    }

    private function store(string $type, int $max): CacheStore
    {
        return $type === 'memory' ? new MemoryCache($max) : new DiskCache($this->dir . '/cache', $max);
    }

    /** @dataProvider stores */
    public function testSetGetListDeleteClear(string $type): void
    {
        $store = $this->store($type, 10);
        self::assertNull($store->get('a'));
        self::assertSame([], $store->list());
        $store->set(self::entry('a', 1));
        $store->set(self::entry('b/c?d', 2));
        self::assertSame('{"a":{}}', $store->get('a')?->templateJson, 'the JSON text is kept verbatim: {} stays {}');
        self::assertSame('"etag-a"', $store->get('a')?->etag);
        self::assertSame(['html'], $store->get('a')?->scope?->targets);
        $ids = $store->list();
        sort($ids);
        self::assertSame(['a', 'b/c?d'], $ids);
        self::assertTrue($store->delete('a'));
        self::assertFalse($store->delete('a'));
        self::assertNull($store->get('a'));
        $store->clear();
        self::assertSame([], $store->list());
        self::assertNull($store->get('b/c?d'));
    }

    /** @dataProvider stores */
    public function testEvictsTheEntryFetchedLongestAgo(string $type): void
    {
        $store = $this->store($type, 2);
        $store->set(self::entry('second', 200));
        $store->set(self::entry('first', 100));
        $store->set(self::entry('third', 300));
        $ids = $store->list();
        sort($ids);
        self::assertSame(['second', 'third'], $ids, 'the entry fetched longest ago goes, not the one written first');
        // A renewed entry (a 304 rewrites it with a new fetchedAt) is young again.
        $store->set(self::entry('second', 400));
        $store->set(self::entry('fourth', 350));
        $ids = $store->list();
        sort($ids);
        self::assertSame(['fourth', 'second'], $ids);
    }

    public function testDiskWritesOneJsonFilePerTemplateAndLeavesNoTempFiles(): void
    {
        $store = new DiskCache($this->dir . '/cache', 10);
        $store->set(self::entry('welcome', 1));
        $store->set(self::entry('receipt', 2));
        $names = array_values(array_diff(scandir($this->dir . '/cache') ?: [], ['.', '..']));
        sort($names);
        self::assertSame(['receipt.json', 'welcome.json'], $names);
        $text = (string) file_get_contents($this->dir . '/cache/welcome.json');
        self::assertSame('welcome', Json::value(Json::decode($text), 'templateId'));
        // The template is stored as the JSON object itself (the format every client shares).
        self::assertStringEndsWith(',"template":{"a":{}}}', $text);
    }

    public function testACorruptOrForeignFileIsAMissNotAnError(): void
    {
        $store = new DiskCache($this->dir . '/cache', 10);
        $store->set(self::entry('t1', 1));
        $path = $store->pathFor('t1');
        foreach (['{"format":1,"templateId":"t1"', '', 'null', '{"format":99}', '{"format":1,"templateId":"other","template":"{}","etag":null,"fetchedAt":1,"scope":null}'] as $junk) {
            file_put_contents($path, $junk);
            self::assertNull($store->get('t1'), "corrupt content: {$junk}");
        }
        $store->set(self::entry('t1', 5));
        self::assertSame(5, $store->get('t1')?->fetchedAt, 'the next write repairs it');
    }

    public function testVeryLongIdsGetHashedFileNamesAndAreStillListed(): void
    {
        $store = new DiskCache($this->dir . '/cache', 10);
        $id = str_repeat('x', 300);
        $store->set(self::entry($id, 1));
        self::assertStringStartsWith('~', basename($store->pathFor($id)));
        self::assertSame([$id], $store->list());
        self::assertSame($id, $store->get($id)?->templateId);
    }

    public function testRelativeDiskPathIsFixedAtConstruction(): void
    {
        $cwd = (string) getcwd();
        chdir($this->dir);
        try {
            $store = new DiskCache('rel-cache', 10);
        } finally {
            chdir($cwd);
        }
        $store->set(self::entry('a', 1));
        self::assertFileExists($this->dir . '/rel-cache/a.json');
    }

    public function testScopeVerdicts(): void
    {
        $complete = new CachedScope('fp', ['html', 'mjml'], true);
        self::assertSame('allowed', CachedScope::verdict($complete, 'fp', 'html'));
        self::assertSame('forbidden', CachedScope::verdict($complete, 'fp', 'react-email'));
        self::assertSame('unknown', CachedScope::verdict($complete, 'another key', 'html'), 'one key never lends its scope to another');
        self::assertSame('unknown', CachedScope::verdict(new CachedScope('fp', ['html'], false), 'fp', 'mjml'));
        self::assertSame('unknown', CachedScope::verdict(null, 'fp', 'html'));
        $learned = CachedScope::learned('fp', null, new CachedScope('fp', ['html'], false), 'mjml');
        self::assertSame(['html', 'mjml'], $learned->targets);
        self::assertFalse($learned->complete);
        self::assertNotSame(CachedScope::fingerprint('a'), CachedScope::fingerprint('b'));
        self::assertSame(24, strlen(CachedScope::fingerprint('a')));
        self::assertNotSame(substr(hash('sha256', 'a'), 0, 24), CachedScope::fingerprint('a'), 'not the service lookup hash');
    }
}
