<?php

declare(strict_types=1);

namespace Mailrender\Tests\Unit;

use Mailrender\Engine\Layouts;
use Mailrender\MailrenderError;
use PHPUnit\Framework\TestCase;

final class LayoutsTest extends TestCase
{
    public function testJoinsPartsAndValuesAndForgetsTheLeastRecentlyUsed(): void
    {
        $layouts = new Layouts(2);
        $first = $layouts->resolve(['ok' => true, 'layout' => ['id' => 0, 'parts' => ['<p>', '</p><a href="', '">x</a>']], 'values' => ['Ada', 'https://a']]);
        self::assertSame(['ok' => true, 'output' => '<p>Ada</p><a href="https://a">x</a>'], $first);
        $again = $layouts->resolve(['ok' => true, 'layout' => ['id' => 0], 'values' => ['Bo', '']]);
        self::assertSame('<p>Bo</p><a href="">x</a>', $again['output'] ?? null);
        $layouts->resolve(['layout' => ['id' => 1, 'parts' => ['a']], 'values' => []]);
        $layouts->resolve(['layout' => ['id' => 2, 'parts' => ['b']], 'values' => []]);
        self::assertSame(2, $layouts->count());
        self::assertFalse($layouts->resolve(['ok' => true, 'layout' => ['id' => 0], 'values' => ['Cy', '']]), 'id 0 was least recently used');
        self::assertSame(['ok' => true, 'output' => 'whole'], $layouts->resolve(['ok' => true, 'output' => 'whole']));
    }

    public function testRefusesValuesThatDoNotFitTheParts(): void
    {
        $this->expectException(MailrenderError::class);
        (new Layouts())->resolve(['layout' => ['id' => 3, 'parts' => ['a', 'b']], 'values' => []]);
    }

    public function testRefusesValuesThatAreNotText(): void
    {
        $this->expectException(MailrenderError::class);
        $this->expectExceptionMessage('The mailrender engine sent a malformed layout answer');
        (new Layouts())->resolve(['layout' => ['id' => 4, 'parts' => ['a', 'b']], 'values' => [['nested']]]);
    }

    public function testEngineVersionsThatSpeakLayouts(): void
    {
        $spoken = array_map(
            static fn (mixed $v): bool => Layouts::spokenBy(['engine_version' => $v]),
            ['1.0.0', '1.1.0', '1.12.3', '2.0.0', '1.1.0-rc.1', 'x', null],
        );
        self::assertSame([false, true, true, true, true, false, false], $spoken);
    }
}
