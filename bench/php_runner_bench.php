<?php

// Renders per second and CPU per render (the PHP process + its engine process, from /proc) of the
// PHP client's ServeEngine: the realistic newsletter, html, a new recipient each render. Prints
// [renders/s, µs CPU/render] as JSON for bench/client_runners_bench.py.
// usage: php bench/php_runner_bench.php [renders, default 2000]

declare(strict_types=1);

$root = dirname(__DIR__);
require "{$root}/clients/php/vendor/autoload.php";

use Mailrender\Engine\EngineLocator;
use Mailrender\Engine\EngineRequest;
use Mailrender\Engine\ServeEngine;

$case = json_decode((string) file_get_contents("{$root}/fixtures/render/realistic-newsletter/case.json"), true, 512, JSON_THROW_ON_ERROR);
$template = json_encode($case['template'], JSON_THROW_ON_ERROR);
$data = $case['dynamic_data'] ?? [];
$renders = (int) ($argv[1] ?? 2000);
$path = getenv('MAILRENDER_ENGINE_PATH') ?: EngineLocator::locate(null);

/** CPU seconds of this process plus its engine child. */
function cpuSeconds(): float
{
    $u = getrusage();
    $total = $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 + $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6;
    foreach (glob('/proc/[0-9]*/stat') ?: [] as $file) {
        $stat = @file_get_contents($file);
        if (!is_string($stat) || !str_contains($stat, '(mailrender-eng')) {
            continue;
        }
        $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
        if ((int) $fields[1] === getmypid()) {
            $total += ((int) $fields[11] + (int) $fields[12]) / 100;
        }
    }
    return $total;
}

$engine = new ServeEngine($path);
for ($i = 0; $i < 100; $i++) {
    $engine->render(new EngineRequest($template, 'newsletter@1', 'html', $data));
}
[$started, $cpuStarted] = [hrtime(true), cpuSeconds()];
for ($i = 0; $i < $renders; $i++) {
    $recipient = $data;
    $recipient['merge_tags']['text']['first_name'] = "Reader {$i}";
    $engine->render(new EngineRequest($template, 'newsletter@1', 'html', $recipient));
}
$seconds = (hrtime(true) - $started) / 1e9;
$cpu = (cpuSeconds() - $cpuStarted) / $renders * 1e6;
$engine->close();
echo json_encode([$renders / $seconds, $cpu]), "\n";
