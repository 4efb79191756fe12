/**
 * Where the log goes and in which form. JSON lines (pino's; one per answered request, "request
 * completed", written by http/request-log.ts) when stdout is not a terminal — what journald, Docker
 * and log shippers read — and readable lines on a terminal. MAILRENDER_LOG_FORMAT=json|pretty
 * overrides the choice.
 */
import type { ServerConfig } from "./config.js";
import type { RequestLine } from "./http/request-log.js";
import { LogWriter } from "./log-writer.js";

type LogRecord = Partial<RequestLine> & {
  level?: number;
  time?: number;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
};

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "", 40: "WARN", 50: "ERROR", 60: "FATAL" };

/** What the JSON log may hold in memory when stdout does not keep up (characters); beyond it lines are dropped. */
const LOG_QUEUE_LIMIT = 16 * 1024 * 1024;

/**
 * The stream pino writes to. JSON lines go to stdout asynchronously (log-writer.ts): a request never
 * waits for a write, and the lines logged while one write is in flight leave together in the next
 * (under load, one write for many requests). What is queued is written synchronously when the
 * process exits, so only a process killed outright loses the lines of its last moment.
 */
export function logDestination(config: Pick<ServerConfig, "logFormat">, out: NodeJS.WriteStream = process.stdout): LogDestination {
  const pretty = config.logFormat === "pretty" || (config.logFormat === undefined && out.isTTY === true);
  return pretty ? prettyLog(out) : new LogWriter((out as { fd?: number }).fd ?? 1, LOG_QUEUE_LIMIT);
}

/** Where pino writes: a line at a time. The asynchronous JSON writer can also be ended (`endLog`). */
export interface LogDestination {
  write(line: string): void;
}

/**
 * Resolves once every line given to `log` so far is written, for a process about to exit: a write
 * already in flight finishes first, then what is queued is written. (pino's own flush at exit writes
 * the queue at once, so a write still in the thread pool could land after it — the last request's
 * line after "stopped" — or not at all.) A terminal's lines are written as they come.
 */
export function endLog(log: LogDestination): Promise<void> {
  return log instanceof LogWriter ? log.end() : Promise.resolve();
}

/**
 * Turns pino's JSON lines into `12:04:07 GET /v1/sdk/template/… 200 2.1 ms 203.0.113.7` (a request's
 * line), `12:04:05 Server listening at …` and `12:04:09 ERROR …` with the error's stack below.
 */
export function prettyLog(out: { write(text: string): unknown }): { write(line: string): void } {
  return {
    write(line: string) {
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        out.write(line);
        return;
      }
      const level = LEVELS[record.level ?? 30] ?? "";
      const ms = record.responseTime === undefined ? "" : ` ${record.responseTime.toFixed(1)} ms`;
      const text =
        record.method === undefined
          ? (record.msg ?? "")
          : `${record.method} ${record.url ?? "?"} ${record.statusCode ?? "aborted"}${ms} ${record.remoteAddress ?? ""}`.trimEnd();
      const err =
        record.err === undefined
          ? ""
          : `\n    ${(record.err.stack ?? `${record.err.type ?? "Error"}: ${record.err.message ?? ""}`).split("\n").join("\n    ")}`;
      out.write(`${clock(record.time)} ${level === "" ? "" : `${level} `}${text}${err}\n`);
    },
  };
}

function clock(epochMs: number | undefined): string {
  const at = new Date(epochMs ?? Date.now());
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}
