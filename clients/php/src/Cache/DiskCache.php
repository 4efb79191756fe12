<?php

declare(strict_types=1);

namespace Mailrender\Cache;

use RuntimeException;

/**
 * One JSON file per template in a folder that several processes (php-fpm workers, queue workers,
 * cron) may share.
 *
 * - Writes go to a unique temp file in the same folder, then rename() over the entry: a reader sees
 *   the old file or the new one, never half of one, so reads take no lock.
 * - Nobody locks: two writers racing both write a good entry and the later rename wins. After a
 *   write the folder is trimmed to maxEntries (a trim racing another may leave one or two more).
 * - A file that is missing, unreadable or malformed is a miss (the next fetch rewrites it).
 * - Deleting a file another process already deleted is not an error.
 * - Beside an entry, the engine's saved layouts of its template (one file per target and
 *   minification, written the same way) go with it: deleted, cleared and evicted together.
 */
final class DiskCache implements CacheStore
{
    private const SUFFIX = '.json';
    private const TEMP_SUFFIX = '.tmp';
    /** Longer encoded names would risk the 255-byte file-name limit: those files are named by a hash. */
    private const MAX_NAME = 200;
    private const HASHED_PREFIX = '~';
    private const LAYOUT_SUFFIX = '.layout';

    public readonly string $dir;

    public function __construct(string $dir, private readonly int $maxEntries)
    {
        $this->dir = self::absolute($dir);
    }

    public function get(string $templateId): ?CacheEntry
    {
        $text = @file_get_contents($this->pathFor($templateId));
        return is_string($text) ? CacheEntry::fromJson($text, $templateId) : null;
    }

    public function set(CacheEntry $entry): void
    {
        $this->ensureDir();
        $name = self::fileNameFor($entry->templateId);
        $target = $this->dir . '/' . $name;
        $this->writeFile($name, $entry->toJson());
        $this->evict();
    }

    public function delete(string $templateId): bool
    {
        $this->deleteLayouts(self::fileNameFor($templateId));
        return @unlink($this->pathFor($templateId));
    }

    /**
     * The engine's saved layout of a template for a target and minification (spec/clients.md, "Saved
     * layouts"), as the engine wrote it; null when there is none. The engine checks it, not the cache.
     */
    public function getLayout(string $templateId, string $target, bool $minify): ?string
    {
        $text = @file_get_contents($this->dir . '/' . self::layoutFileNameFor($templateId, $target, $minify));
        return is_string($text) && $text !== '' ? $text : null;
    }

    public function setLayout(string $templateId, string $target, bool $minify, string $layout): void
    {
        $this->ensureDir();
        $this->writeFile(self::layoutFileNameFor($templateId, $target, $minify), $layout);
    }

    /** The file a template's saved layout for a target and minification is kept in, beside its entry. */
    public static function layoutFileNameFor(string $templateId, string $target, bool $minify): string
    {
        $stem = substr(self::fileNameFor($templateId), 0, -strlen(self::SUFFIX));
        return $stem . '.' . $target . ($minify ? '' : '-unminified') . self::LAYOUT_SUFFIX;
    }

    /** Writes a unique temp file, then renames it over $name: readers see the old file or the new one. */
    private function writeFile(string $name, string $content): void
    {
        $target = $this->dir . '/' . $name;
        $temp = $this->dir . '/.' . $name . '.' . bin2hex(random_bytes(6)) . self::TEMP_SUFFIX;
        if (@file_put_contents($temp, $content) === false) {
            @unlink($temp);
            throw new RuntimeException("cannot write {$temp}: " . self::lastError());
        }
        if (!@rename($temp, $target)) {
            @unlink($temp);
            throw new RuntimeException("cannot rename a cache file into {$target}: " . self::lastError());
        }
    }

    /** Removes the saved layouts beside the entry file $entryName (its stem, a dot, a target, .layout). */
    private function deleteLayouts(string $entryName): void
    {
        $prefix = substr($entryName, 0, -strlen(self::SUFFIX)) . '.';
        foreach (@scandir($this->dir) ?: [] as $name) {
            if (str_starts_with($name, $prefix) && str_ends_with($name, self::LAYOUT_SUFFIX)) {
                @unlink($this->dir . '/' . $name);
            }
        }
    }

    public function list(): array
    {
        $ids = [];
        foreach ($this->entryFiles() as $name) {
            $id = $this->idFromName($name);
            if ($id !== null) {
                $ids[] = $id;
            }
        }
        return $ids;
    }

    public function clear(): void
    {
        if (!is_dir($this->dir)) {
            return;
        }
        foreach (@scandir($this->dir) ?: [] as $name) {
            $temp = str_starts_with($name, '.') && str_ends_with($name, self::TEMP_SUFFIX);
            $layout = !str_starts_with($name, '.') && str_ends_with($name, self::LAYOUT_SUFFIX);
            if ($temp || $layout || self::isEntryFile($name)) {
                @unlink($this->dir . '/' . $name);
            }
        }
    }

    /** The file an id is stored in (public for tests and tooling). */
    public function pathFor(string $templateId): string
    {
        return $this->dir . '/' . self::fileNameFor($templateId);
    }

    /** The entry file name of a template id (spec/clients.md, Disk cache). */
    public static function fileNameFor(string $templateId): string
    {
        $encoded = self::encodeId($templateId);
        $name = strlen($encoded) <= self::MAX_NAME ? $encoded : self::HASHED_PREFIX . hash('sha256', $templateId);
        return $name . self::SUFFIX;
    }

    /** A file-name-safe, reversible name: everything outside [A-Za-z0-9_-] is %-encoded. */
    private static function encodeId(string $id): string
    {
        return (string) preg_replace_callback(
            '/[^A-Za-z0-9_-]/',
            /** @param array<array-key, string> $m */
            static fn (array $m): string => sprintf('%%%02X', ord($m[0] ?? '')),
            $id,
        );
    }

    private function idFromName(string $name): ?string
    {
        $stem = substr($name, 0, -strlen(self::SUFFIX));
        if (str_starts_with($stem, self::HASHED_PREFIX)) {
            $text = @file_get_contents($this->dir . '/' . $name);
            $entry = is_string($text) ? CacheEntry::fromJson($text) : null;
            return $entry?->templateId;
        }
        return rawurldecode($stem);
    }

    /** @return list<string> entry file names (temp and lock files start with a dot and are skipped) */
    private function entryFiles(): array
    {
        $names = @scandir($this->dir);
        if ($names === false) {
            return [];
        }
        return array_values(array_filter(
            $names,
            static fn (string $n): bool => self::isEntryFile($n),
        ));
    }

    /** Removes the entries fetched longest ago beyond maxEntries (a corrupt file counts as oldest). */
    private function evict(): void
    {
        $files = $this->entryFiles();
        if (count($files) <= $this->maxEntries) {
            return;
        }
        $fetchedAt = [];
        foreach ($files as $name) {
            $fetchedAt[$name] = $this->fetchedAt($name);
        }
        asort($fetchedAt);
        foreach (array_slice(array_keys($fetchedAt), 0, count($files) - $this->maxEntries) as $name) {
            $this->deleteLayouts($name);
            @unlink($this->dir . '/' . $name);
        }
    }

    private function fetchedAt(string $name): int
    {
        $text = @file_get_contents($this->dir . '/' . $name);
        $entry = is_string($text) ? CacheEntry::fromJson($text) : null;
        return $entry === null ? 0 : $entry->fetchedAt;
    }

    private function ensureDir(): void
    {
        if (!is_dir($this->dir) && !@mkdir($this->dir, 0777, true) && !is_dir($this->dir)) {
            throw new RuntimeException("cannot create the cache folder {$this->dir}: " . self::lastError());
        }
    }

    private static function isEntryFile(string $name): bool
    {
        return str_ends_with($name, self::SUFFIX) && !str_starts_with($name, '.');
    }

    private static function lastError(): string
    {
        return error_get_last()['message'] ?? 'unknown error';
    }

    private static function absolute(string $dir): string
    {
        $dir = rtrim($dir, '/');
        if ($dir === '') {
            return '/';
        }
        if (str_starts_with($dir, '/') || preg_match('#^[A-Za-z]:[\\\\/]#', $dir) === 1) {
            return $dir;
        }
        // Resolved once, at construction: a later chdir() must not move the cache.
        return (getcwd() ?: '.') . '/' . $dir;
    }
}
