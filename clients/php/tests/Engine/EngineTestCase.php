<?php

declare(strict_types=1);

namespace Mailrender\Tests\Engine;

use Mailrender\Engine\EngineRequest;
use Mailrender\Tests\Support\Paths;
use PHPUnit\Framework\TestCase;

abstract class EngineTestCase extends TestCase
{
    protected string $dir;

    protected function setUp(): void
    {
        $this->dir = Paths::tempDir();
    }

    protected function tearDown(): void
    {
        Paths::removeTree($this->dir);
    }

    /** @param array<mixed> $dynamicData */
    protected static function request(string $target = 'html', array $dynamicData = [], ?string $template = null, string $ref = 'sample@1', ?bool $strict = null): EngineRequest
    {
        return new EngineRequest($template ?? Paths::sampleTemplate(), $ref, $target, $dynamicData, null, $strict);
    }

    /** The engine's own answer for a request, from the executable's human CLI: the reference output. */
    protected static function referenceOutput(string $target, string $template): string
    {
        $file = tempnam(sys_get_temp_dir(), 'tpl');
        self::assertIsString($file);
        file_put_contents($file, $template);
        $out = shell_exec(escapeshellarg(Paths::builtEngine()) . ' render --template ' . escapeshellarg($file) . ' --target ' . escapeshellarg($target) . ' 2>/dev/null');
        unlink($file);
        return (string) $out;
    }
}
