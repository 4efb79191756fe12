<?php

declare(strict_types=1);

namespace Mailrender\Tests\Support;

final class Paths
{
    public static function packageRoot(): string
    {
        return dirname(__DIR__, 2);
    }

    public static function repoRoot(): string
    {
        return dirname(__DIR__, 4);
    }

    public static function fixtures(): string
    {
        return self::repoRoot() . '/fixtures';
    }

    /** The engine executable as `make engine` builds it (the bundled copy in bin/ is made from it). */
    public static function builtEngine(): string
    {
        return self::repoRoot() . '/engine/dist/linux-x64/mailrender-engine';
    }

    /** The engine's version, from its one source (engine/package.json). */
    public static function engineVersion(): string
    {
        $manifest = json_decode((string) file_get_contents(self::repoRoot() . '/engine/package.json'), true);
        return is_array($manifest) && is_string($manifest['version'] ?? null) ? $manifest['version'] : '';
    }

    /** @return non-empty-string */
    public static function tempDir(string $prefix = 'mailrender-php-'): string
    {
        $dir = sys_get_temp_dir() . '/' . $prefix . bin2hex(random_bytes(6));
        mkdir($dir, 0777, true);
        return $dir;
    }

    public static function removeTree(string $dir): void
    {
        if (!is_dir($dir) || is_link($dir)) {
            @unlink($dir);
            return;
        }
        foreach (scandir($dir) ?: [] as $name) {
            if ($name !== '.' && $name !== '..') {
                self::removeTree($dir . '/' . $name);
            }
        }
        @rmdir($dir);
    }

    /** A small valid template (the format's minimum plus a merge tag), as JSON text. */
    public static function sampleTemplate(string $name = 'Sample', string $heading = "Hi {{first_name|'there'}}"): string
    {
        return (string) json_encode([
            'template_id' => 'sample',
            'template_name' => $name,
            'schema_version' => '1.0',
            'canvas' => new \stdClass(),
            'rows' => [[
                'id' => 'r1',
                'type' => 'row',
                'columns' => [[
                    'id' => 'c1',
                    'width' => 100,
                    'children' => [
                        ['id' => 'h1', 'type' => 'component', 'componentType' => 'heading', 'props' => ['content' => $heading]],
                        ['id' => 'p1', 'type' => 'component', 'componentType' => 'paragraph', 'props' => ['content' => '<p>Body text</p>']],
                    ],
                ]],
            ]],
        ], JSON_UNESCAPED_SLASHES);
    }
}
