<?php

declare(strict_types=1);

namespace Mailrender\Tests\Support;

/**
 * Tiny shell scripts standing in for the engine, only for faults the real executable cannot be made
 * to show: another protocol version, a hang, a crash without an envelope.
 */
final class FakeExecutables
{
    public static function write(string $dir, string $name, string $body): string
    {
        $path = $dir . '/' . $name;
        file_put_contents($path, "#!/bin/sh\n" . $body . "\n");
        chmod($path, 0755);
        return $path;
    }

    /** Answers every request (one-shot or --serve) with an envelope of protocol 2. */
    public static function protocolTwo(string $dir): string
    {
        $envelope = '{"id":1,"ok":true,"output":"x","target":"html","template_id":"t","warnings":[],'
            . '"engine_version":"2.0.0","protocol_version":2}';
        return self::write($dir, 'engine-protocol-2', "if [ \"\$1\" = \"--serve\" ]; then\n"
            . "  while read -r line; do echo '{$envelope}'; done\nelse\n  cat >/dev/null\n  echo '{$envelope}'\nfi");
    }

    public static function hangs(string $dir): string
    {
        return self::write($dir, 'engine-hangs', 'exec sleep 30');
    }

    public static function crashes(string $dir): string
    {
        // One-shot: reads the request; --serve: reads one line. Then dies without an envelope.
        return self::write($dir, 'engine-crashes', "if [ \"\$1\" = \"--serve\" ]; then read -r line; else cat >/dev/null; fi\n"
            . "echo 'Segmentation fault (core dumped)' >&2\nexit 139");
    }
}
