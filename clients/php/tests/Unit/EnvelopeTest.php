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

    public function testTellsAnEngineThatDoesNotKnowSavedLayoutsFromOtherRefusals(): void
    {
        self::assertTrue(Envelope::refusedSavedLayouts(self::refused(['saved_layout'])));
        self::assertTrue(Envelope::refusedSavedLayouts(self::refused(['save_layout'])));
        self::assertFalse(Envelope::refusedSavedLayouts(self::refused(['dynamic_data', 'x'])));
        self::assertFalse(Envelope::refusedSavedLayouts(self::refused(['saved_layout'], 'RENDER_ERROR')));
        self::assertFalse(Envelope::refusedSavedLayouts(['ok' => true, 'output' => 'x']));
    }

    /**
     * An error envelope whose one issue is at $loc, as the engine writes one for an unknown key.
     *
     * @param list<string> $loc
     * @return array<string, mixed>
     */
    private static function refused(array $loc, string $code = 'BAD_REQUEST'): array
    {
        return [
            'ok' => false,
            'error' => ['code' => $code, 'message' => 'm', 'issues' => [['loc' => $loc, 'msg' => 'Unknown key', 'type' => 'unrecognized_key']]],
        ];
    }

    public function testCarriesTheSavedLayoutToKeep(): void
    {
        self::assertSame('mailrender-layout 00', Envelope::result(['ok' => true, 'output' => 'x', 'saved_layout' => 'mailrender-layout 00'])->savedLayout);
        self::assertNull(Envelope::result(['ok' => true, 'output' => 'x'])->savedLayout);
    }
}
