<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\Defaults;
use Mailrender\MailrenderError;

/**
 * A long-lived engine for CLI scripts and queue workers: one `mailrender-engine --serve` process,
 * newline-delimited JSON both ways, reused for every render.
 *
 * - A template is sent once per process under its template_ref (`<id>@<etag>`); later renders send
 *   only the ref. TEMPLATE_REF_UNKNOWN (the process evicted it) makes it resend the template once.
 * - A process that died (crash, OOM kill, someone's kill -9) is restarted, and the render retried
 *   once on the new process: renders have no side effects.
 * - A render that overruns the timeout kills the process (it may be stuck); the next render starts a
 *   new one.
 * - Once the first answer shows engine 1.1 or later, renders ask for output_format "layout": the
 *   process sends a variant's static text once and then only the recipient's values (a few hundred
 *   bytes instead of the whole document to read and json_decode per render); see Layouts.
 *
 * Not for php-fpm: the process would be tied to one worker and outlive requests unpredictably.
 */
final class ServeEngine implements Engine
{
    private const CHUNK = 65536;
    /** Refs remembered as held by the process; the engine itself keeps at most 256. */
    private const MAX_KNOWN_REFS = 512;
    private const STDERR_TAIL = 4096;

    /** @var resource|null */
    private mixed $process = null;
    /** @var array{resource, resource, resource}|null stdin, stdout and stderr of the running process */
    private ?array $pipes = null;
    private string $buffer = '';
    private string $stderrTail = '';
    /** @var array<string, true> refs this process holds, oldest first */
    private array $knownRefs = [];
    private int $nextId = 1;
    /** Null until the process's first answer says whether it speaks layouts. */
    private ?bool $speaksLayouts = null;
    private Layouts $layouts;

    /** @var array{starts: int, requests: int, templatesSent: int, refResends: int, layoutsResent: int} */
    private array $stats = [
        'starts' => 0,
        'requests' => 0,
        'templatesSent' => 0,
        'refResends' => 0,
        'layoutsResent' => 0,
    ];

    public function __construct(
        public readonly string $path,
        private readonly int $timeoutMs = Defaults::TIMEOUT_MS,
        private readonly int $maxLayouts = Layouts::MAX_ENTRIES,
    ) {
        $this->layouts = new Layouts($maxLayouts);
    }

    public static function locate(?string $enginePath = null, int $timeoutMs = Defaults::TIMEOUT_MS): self
    {
        return new self(EngineLocator::locate($enginePath), $timeoutMs);
    }

    public function __destruct()
    {
        $this->close();
    }

    /**
     * Counters for monitoring and tests: process starts, requests written, templates sent, ref and layout resends.
     *
     * @return array{starts: int, requests: int, templatesSent: int, refResends: int, layoutsResent: int}
     */
    public function stats(): array
    {
        return $this->stats;
    }

    /** The running engine's process id, or null when none runs. */
    public function pid(): ?int
    {
        if ($this->process === null) {
            return null;
        }
        $status = proc_get_status($this->process);
        return $status['running'] ? $status['pid'] : null;
    }

    public function render(EngineRequest $request): EngineResult
    {
        $attempt = 0;
        while (true) {
            try {
                return $this->renderOnce($request);
            } catch (EngineDied $died) {
                $this->stop();
                if ($attempt >= 1) {
                    throw new MailrenderError(MailrenderError::UNKNOWN, 0, $died->getMessage());
                }
                $attempt++;
            }
        }
    }

    /** Closes stdin (the engine exits 0 after answering) and waits for the process. */
    public function close(): void
    {
        if ($this->process === null) {
            return;
        }
        if ($this->pipes !== null && is_resource($this->pipes[0])) {
            fclose($this->pipes[0]);
        }
        // Give it a moment to exit cleanly; a process that does not is stopped.
        $until = hrtime(true) + 2_000_000_000;
        while (proc_get_status($this->process)['running'] && hrtime(true) < $until) {
            usleep(5000);
        }
        $this->stop();
    }

    private function renderOnce(EngineRequest $request): EngineResult
    {
        $this->ensureStarted();
        $ref = $request->templateRef;
        $sendTemplate = !isset($this->knownRefs[$ref]);
        $envelope = $this->exchange($request, $sendTemplate);
        if (!$sendTemplate && Envelope::isTemplateRefUnknown($envelope)) {
            // Rule 3 of template_ref: resend with the template and carry on.
            unset($this->knownRefs[$ref]);
            $this->stats['refResends']++;
            $sendTemplate = true;
            $envelope = $this->exchange($request, true);
        }
        $resolved = $this->layouts->resolve($envelope);
        if ($resolved === false) {
            // This client dropped the layout's parts (the bound in Layouts): ask for them again.
            $this->stats['layoutsResent']++;
            $resolved = $this->layouts->resolve($this->exchange($request, false, true));
            if ($resolved === false) {
                throw new MailrenderError(
                    MailrenderError::UNKNOWN,
                    0,
                    "{$this->path} named a layout without its parts, even when asked for them",
                );
            }
        }
        $envelope = $resolved;
        if ($sendTemplate && ($envelope['ok'] ?? null) === true) {
            $this->remember($ref);
        } elseif (isset($this->knownRefs[$ref])) {
            // Most recently used last, so the eviction below drops the least recently used.
            unset($this->knownRefs[$ref]);
            $this->knownRefs[$ref] = true;
        }
        return Envelope::result($envelope);
    }

    /** @return array<mixed> */
    private function exchange(EngineRequest $request, bool $withTemplate, bool $withLayoutParts = false): array
    {
        $id = $this->nextId++;
        $line = $request->toJson($id, $withTemplate, true, $this->speaksLayouts === true, $withLayoutParts) . "\n";
        $this->stats['requests']++;
        if ($withTemplate) {
            $this->stats['templatesSent']++;
        }
        $deadline = (int) (hrtime(true) + $this->timeoutMs * 1_000_000);
        $this->write($line, $deadline);
        for (;;) {
            $answer = $this->readLine($deadline);
            $envelope = Envelope::decode($answer, $this->path);
            $this->speaksLayouts ??= Layouts::spokenBy($envelope);
            // Answers come in request order; one for an earlier request (there should be none) is skipped.
            if (($envelope['id'] ?? null) === $id) {
                return $envelope;
            }
            if (is_int($envelope['id'] ?? null) && $envelope['id'] < $id) {
                continue;
            }
            $this->stop();
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                "{$this->path} --serve answered out of order (expected id {$id}): " . Envelope::excerpt($answer),
            );
        }
    }

    private function ensureStarted(): void
    {
        if ($this->process !== null && proc_get_status($this->process)['running']) {
            return;
        }
        $this->stop();
        [$process, $pipes] = ProcessEnv::start([$this->path, '--serve']);
        $this->process = $process;
        $this->pipes = $pipes;
        $this->buffer = '';
        $this->stderrTail = '';
        // A new process holds no templates, and numbers its layouts afresh.
        $this->knownRefs = [];
        $this->speaksLayouts = null;
        $this->layouts = new Layouts($this->maxLayouts);
        $this->stats['starts']++;
    }

    private function write(string $data, int $deadline): void
    {
        $written = 0;
        $length = strlen($data);
        while ($written < $length) {
            // Written first, waited for only when the pipe is full: a request line usually fits.
            $n = @fwrite($this->pipes()[0], substr($data, $written, self::CHUNK));
            if ($n === false || ($n === 0 && !$this->running())) {
                throw new EngineDied($this->diedMessage());
            }
            $written += $n;
            if ($written < $length) {
                $this->waitFor(false, $deadline);
            }
        }
    }

    private function readLine(int $deadline): string
    {
        for (;;) {
            $newline = strpos($this->buffer, "\n");
            if ($newline !== false) {
                $line = substr($this->buffer, 0, $newline);
                $this->buffer = substr($this->buffer, $newline + 1);
                if (trim($line) !== '') {
                    return $line;
                }
                continue;
            }
            $this->waitFor(true, $deadline);
            $stdout = $this->pipes()[1];
            $chunk = fread($stdout, self::CHUNK);
            if ($chunk === false || ($chunk === '' && feof($stdout))) {
                throw new EngineDied($this->diedMessage());
            }
            $this->buffer .= $chunk;
        }
    }

    /** Waits until stdin is writable or stdout readable, draining stderr meanwhile so the engine never blocks on it. */
    private function waitFor(bool $readable, int $deadline): void
    {
        for (;;) {
            $remainingNs = $deadline - (int) hrtime(true);
            if ($remainingNs <= 0) {
                $this->stop();
                throw new MailrenderError(
                    MailrenderError::TIMEOUT,
                    0,
                    "{$this->path} --serve did not answer within {$this->timeoutMs} ms and was stopped",
                );
            }
            [$stdin, $stdout, $stderr] = $this->pipes();
            $read = $readable ? [$stdout] : [];
            if (is_resource($stderr)) {
                $read[] = $stderr;
            }
            $write = $readable ? [] : [$stdin];
            $except = null;
            $seconds = intdiv($remainingNs, 1_000_000_000);
            $micros = intdiv($remainingNs % 1_000_000_000, 1000);
            $ready = @stream_select($read, $write, $except, $seconds, $micros);
            if ($ready === false || $ready === 0) {
                continue;
            }
            // Resources compared by id: the analyser cannot tell two resources apart.
            $wanted = $write !== [];
            foreach ($read as $pipe) {
                if (get_resource_id($pipe) === get_resource_id($stderr)) {
                    $this->drainStderr();
                } else {
                    $wanted = true;
                }
            }
            if ($wanted) {
                return;
            }
        }
    }

    private function drainStderr(): void
    {
        $stderr = $this->pipes()[2];
        $chunk = fread($stderr, self::CHUNK);
        if ($chunk === false || ($chunk === '' && feof($stderr))) {
            fclose($stderr);
            return;
        }
        $this->stderrTail = substr($this->stderrTail . $chunk, -self::STDERR_TAIL);
    }

    private function running(): bool
    {
        return $this->process !== null && proc_get_status($this->process)['running'];
    }

    private function diedMessage(): string
    {
        $status = $this->process !== null ? proc_get_status($this->process) : null;
        $how = 'closed its output';
        if ($status !== null && !$status['running']) {
            $how = $status['signaled']
                ? "was killed by signal {$status['termsig']}"
                : "exited with status {$status['exitcode']}";
        }
        $tail = trim($this->stderrTail);
        return "{$this->path} --serve {$how} before answering"
            . ($tail === '' ? '' : ': ' . Envelope::excerpt(ProcessEngine::lastLines($tail)));
    }

    private function remember(string $ref): void
    {
        unset($this->knownRefs[$ref]);
        $this->knownRefs[$ref] = true;
        $oldest = array_key_first($this->knownRefs);
        if ($oldest !== null && count($this->knownRefs) > self::MAX_KNOWN_REFS) {
            unset($this->knownRefs[$oldest]);
        }
    }

    /**
     * The running process's pipes; a process stopped meanwhile (a timeout) counts as died.
     *
     * @return array{resource, resource, resource}
     */
    private function pipes(): array
    {
        return $this->pipes ?? throw new EngineDied("{$this->path} --serve is not running");
    }

    /** Kills the process (if any) and forgets everything about it. */
    private function stop(): void
    {
        foreach ($this->pipes ?? [] as $pipe) {
            if (is_resource($pipe)) {
                fclose($pipe);
            }
        }
        $this->pipes = null;
        if ($this->process !== null) {
            if (proc_get_status($this->process)['running']) {
                proc_terminate($this->process, 9);
            }
            proc_close($this->process);
            $this->process = null;
        }
        $this->buffer = '';
        $this->knownRefs = [];
    }
}
