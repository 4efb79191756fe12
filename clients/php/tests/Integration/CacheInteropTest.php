<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use Mailrender\Tests\Support\Json;
use Mailrender\Tests\Support\Paths;
use PHPUnit\Framework\TestCase;
use stdClass;

/**
 * One disk-cache folder shared by the three clients (spec/clients.md, Disk cache): an entry written
 * by each language's DiskCache is read back, unchanged, by the other two. Runs the JS client's source
 * under tsx and the Python client in its test virtualenv (scripts/test-client-php.sh makes sure of both).
 */
final class CacheInteropTest extends TestCase
{
    private const LANGUAGES = ['js', 'python', 'php'];

    /**
     * @param 'js'|'python'|'php' $language
     * @return array{string, string} the command line of a language's cache tool
     */
    private static function tool(string $language): array
    {
        $root = Paths::repoRoot();
        return match ($language) {
            'js' => [$root . '/node_modules/.bin/tsx', $root . '/clients/js/test/helpers/cache-interop.ts'],
            'python' => [$root . '/clients/python/.venv/bin/python', $root . '/clients/python/tests/cache_interop.py'],
            'php' => [PHP_BINARY, Paths::packageRoot() . '/tests/scripts/cache-interop.php'],
        };
    }

    /**
     * @param 'js'|'python'|'php' $language
     * @param list<string> $args
     */
    private static function runTool(string $language, array $args): string
    {
        $command = implode(' ', array_map('escapeshellarg', [...self::tool($language), ...$args])) . ' 2>&1';
        $output = [];
        $status = -1;
        exec($command, $output, $status);
        $text = implode("\n", $output);
        self::assertSame(0, $status, "{$language} cache tool failed: {$text}");
        return $text;
    }

    public function testEachLanguageReadsWhatTheOthersWrite(): void
    {
        foreach (self::LANGUAGES as $language) {
            self::assertFileExists(self::tool($language)[0], "{$language} is needed for this test");
        }
        // Objects stay objects, so the template's {} and [] stay apart.
        $fixture = json_decode((string) file_get_contents(Paths::fixtures() . '/client/v1/cache-entry-write.json'), false);
        $fixtureEntry = Json::member(Json::value(Json::member($fixture, 'cases'), 0), 'entry');
        self::assertInstanceOf(stdClass::class, $fixtureEntry);
        $dir = Paths::tempDir();
        try {
            foreach (self::LANGUAGES as $writer) {
                $entry = clone $fixtureEntry;
                $templateId = "shared/é {$writer}.v1";
                $entry->templateId = $templateId;
                $entryFile = "{$dir}/{$writer}-entry.json";
                file_put_contents($entryFile, json_encode($entry, JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR));
                self::runTool($writer, ['write', "{$dir}/cache", $entryFile]);
                foreach (self::LANGUAGES as $reader) {
                    $read = self::runTool($reader, ['read', "{$dir}/cache", $templateId]);
                    // Same entry, with {} and [] inside the template kept apart.
                    self::assertEquals($entry, json_decode($read, false), "{$writer} wrote, {$reader} read: {$read}");
                    self::assertStringContainsString('"empty_object":{}', $read, "{$writer} → {$reader}");
                    self::assertStringContainsString('"empty_list":[]', $read, "{$writer} → {$reader}");
                }
            }
            $names = array_values(array_diff(scandir("{$dir}/cache") ?: [], ['.', '..']));
            sort($names);
            self::assertSame(
                ['shared%2F%C3%A9%20js%2Ev1.json', 'shared%2F%C3%A9%20php%2Ev1.json', 'shared%2F%C3%A9%20python%2Ev1.json'],
                $names,
                'one file per entry, the same name in every language, no temp files left',
            );
        } finally {
            Paths::removeTree($dir);
        }
    }
}
