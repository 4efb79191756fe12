<?php

declare(strict_types=1);

namespace Mailrender\Tests\Unit;

use Mailrender\Defaults;
use Mailrender\Engine\Spin;
use PHPUnit\Framework\TestCase;

final class SpinTest extends TestCase
{
    public function testTheEnvironmentSetsItAndZeroTurnsItOff(): void
    {
        self::assertSame(50, Spin::micros([Defaults::ENV_ENGINE_SPIN_US => '50']));
        self::assertSame(0, Spin::micros([Defaults::ENV_ENGINE_SPIN_US => '0']));
        self::assertSame(0, Spin::micros([Defaults::ENV_ENGINE_SPIN_US => '-5']));
    }

    public function testWithoutASettingItDependsOnTheCpus(): void
    {
        $expected = Spin::cpusAllowed() === 1 ? 0 : Defaults::ENGINE_SPIN_US;
        self::assertSame($expected, Spin::micros([]));
        self::assertSame($expected, Spin::micros([Defaults::ENV_ENGINE_SPIN_US => 'lots']), 'not a number: the default');
    }

    public function testCountsALinuxCpuList(): void
    {
        self::assertSame(1, Spin::countCpuList('0'));
        self::assertSame(2, Spin::countCpuList('0-1'));
        self::assertSame(7, Spin::countCpuList('0-3,8,10-11'));
        if (is_readable('/proc/self/status')) {
            self::assertGreaterThanOrEqual(1, Spin::cpusAllowed());
        }
    }
}
