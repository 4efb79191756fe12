<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\Defaults;
use Mailrender\MailrenderError;

/**
 * The default engine: one `mailrender-engine` process per render (one-shot mode). No state survives
 * the call, which suits php-fpm, where a worker may not outlive the request anyway. Started through
 * proc_open() with an argument array (no shell), killed when it overruns the timeout.
 */
final class ProcessEngine implements Engine
{
    private const CHUNK = 65536;

    public function __construct(
        public readonly string $path,
        private readonly int $timeoutMs = Defaults::TIMEOUT_MS,
    ) {
    }

    /** The engine at $enginePath, or the bundled one for this platform; checked now, not at the first render. */
    public static function locate(?string $enginePath = null, int $timeoutMs = Defaults::TIMEOUT_MS): self
    {
        return new self(EngineLocator::locate($enginePath), $timeoutMs);
    }

    public function render(EngineRequest $request): EngineResult
    {
        $envelope = $this->answer($request);
        if (($request->saveLayout || $request->savedLayout !== null) && Envelope::refusedSavedLayouts($envelope)) {
            // An engine older than saved layouts (enginePath): the same render without them.
            $envelope = $this->answer($request->withoutSavedLayouts());
        }
        return Envelope::result($envelope);
    }

    /**
     * @return array<mixed> the engine's envelope for $request
     * @throws MailrenderError when the engine gives none
     */
    private function answer(EngineRequest $request): array
    {
        // One-shot mode keeps nothing, so the template always travels and template_ref would be useless.
        $input = $request->toJson(null, true, false);
        [$status, $stdout, $stderr] = $this->run($input);
        if (trim($stdout) === '') {
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                "{$this->path} exited with status {$status} without an answer"
                . (trim($stderr) === '' ? '' : ': ' . Envelope::excerpt(self::lastLines($stderr))),
            );
        }
        return Envelope::decode($stdout, $this->path);
    }

    /**
     * Runs the engine with $input on stdin; stdin is written while stdout and stderr are read, so a
     * large request and a large answer cannot block each other on full pipe buffers.
     *
     * @return array{int, string, string} exit status, stdout, stderr
     */
    private function run(string $input): array
    {
        [$process, $pipes] = ProcessEnv::start([$this->path]);
        $deadline = (int) (hrtime(true) + $this->timeoutMs * 1_000_000);
        $stdout = '';
        $stderr = '';
        $written = 0;
        $open = [1 => $pipes[1], 2 => $pipes[2]];
        $stdin = $pipes[0];
        while ($open !== [] || $stdin !== null) {
            $remainingNs = $deadline - (int) hrtime(true);
            if ($remainingNs <= 0) {
                proc_terminate($process, 9);
                self::closeAll($pipes);
                proc_close($process);
                throw new MailrenderError(
                    MailrenderError::TIMEOUT,
                    0,
                    "{$this->path} did not answer within {$this->timeoutMs} ms and was stopped",
                );
            }
            $read = array_values($open);
            $write = $stdin === null ? [] : [$stdin];
            $except = null;
            $seconds = intdiv($remainingNs, 1_000_000_000);
            $micros = intdiv($remainingNs % 1_000_000_000, 1000);
            $ready = @stream_select($read, $write, $except, $seconds, $micros);
            if ($ready === false) {
                // Interrupted by a signal: look again.
                continue;
            }
            if ($write !== [] && $stdin !== null) {
                $n = @fwrite($stdin, substr($input, $written, self::CHUNK));
                if ($n === false || ($n === 0 && feof($stdin))) {
                    // The engine closed stdin early; its envelope (if any) says why.
                    fclose($stdin);
                    $stdin = null;
                } else {
                    $written += $n;
                    if ($written >= strlen($input)) {
                        fclose($stdin);
                        $stdin = null;
                    }
                }
            }
            foreach ($read as $pipe) {
                $chunk = fread($pipe, self::CHUNK);
                $fd = $pipe === $pipes[1] ? 1 : 2;
                if ($chunk === false || ($chunk === '' && feof($pipe))) {
                    fclose($pipe);
                    unset($open[$fd]);
                    continue;
                }
                if ($fd === 1) {
                    $stdout .= $chunk;
                } else {
                    $stderr .= $chunk;
                }
            }
        }
        $status = proc_close($process);
        return [$status, $stdout, $stderr];
    }

    /** @param array<resource> $pipes */
    private static function closeAll(array $pipes): void
    {
        foreach ($pipes as $pipe) {
            if (is_resource($pipe)) {
                fclose($pipe);
            }
        }
    }

    public static function lastLines(string $text, int $lines = 3): string
    {
        $all = preg_split('/\R/', trim($text)) ?: [];
        return implode(' | ', array_slice($all, -$lines));
    }
}
