<?php

declare(strict_types=1);

namespace Mailrender\Tests\Unit;

use Mailrender\Engine\Envelope;
use PHPUnit\Framework\TestCase;

final class EnvelopeTest extends TestCase
{
    public function testKeepsTheWellFormedWarningsOnly(): void
    {
        $warning = ['code' => 'MISSING_MERGE_TAG', 'message' => 'first_name has no value', 'path' => ['rows', 0]];
        $malformed = ['not a warning', ['code' => 'NO_MESSAGE', 'path' => []], ['code' => 'X', 'message' => 'y', 'path' => 'rows.0']];
        $result = Envelope::result(['ok' => true, 'output' => 'x', 'warnings' => [$warning, ...$malformed]]);
        self::assertSame([$warning], $result->warnings);
    }
}
