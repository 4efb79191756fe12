<?php

// Renders per second of the realistic newsletter through the PHP client's ServeEngine (cached
// template, a new recipient each render), with and without the spin before sleeping
// (clients/php/src/Engine/Spin.php), alternating runs. Prints figures; asserts nothing.
// usage: php bench/php_serve_bench.php [renders per run, default 5000]

declare(strict_types=1);

$root = dirname(__DIR__);
require "{$root}/clients/php/vendor/autoload.php";

use Mailrender\Engine\EngineLocator;
use Mailrender\Engine\EngineRequest;
use Mailrender\Engine\ServeEngine;

$case = json_decode((string) file_get_contents("{$root}/fixtures/render/realistic-newsletter/case.json"), true, 512, JSON_THROW_ON_ERROR);
$template = json_encode($case['template'], JSON_THROW_ON_ERROR);
$data = $case['dynamic_data'] ?? [];
$renders = (int) ($argv[1] ?? 5000);
$path = getenv('MAILRENDER_ENGINE_PATH') ?: EngineLocator::locate(null);

/** Renders per second and the PHP process's CPU per render (µs). */
function run(string $path, string $template, array $data, int $renders, int $spinMicros): array
{
    $engine = new ServeEngine($path, spinMicros: $spinMicros);
    for ($i = 0; $i < 100; $i++) {
        $engine->render(new EngineRequest($template, 'newsletter@1', 'html', $data));
    }
    $cpu = static function (): float {
        $u = getrusage();
        return $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 + $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6;
    };
    [$started, $cpuStarted] = [hrtime(true), $cpu()];
    for ($i = 0; $i < $renders; $i++) {
        $recipient = $data;
        $recipient['merge_tags']['text']['first_name'] = "Reader {$i}";
        $engine->render(new EngineRequest($template, 'newsletter@1', 'html', $recipient));
    }
    $seconds = (hrtime(true) - $started) / 1e9;
    $perRender = ($cpu() - $cpuStarted) / $renders * 1e6;
    $engine->close();
    return [$renders / $seconds, $perRender];
}

echo "realistic newsletter, html, ServeEngine, template cached, {$renders} renders per run\n";
foreach ([1, 2] as $round) {
    foreach ([0, 200] as $spin) {
        [$rate, $cpu] = run($path, $template, $data, $renders, $spin);
        printf("  spin %3d µs (run %d)   %7.0f renders/s   PHP CPU %5.1f µs/render\n", $spin, $round, $rate, $cpu);
    }
}
