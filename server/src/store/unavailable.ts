import { StoreUnavailableError } from "./types.js";

// Connection-level failures (database down, restarting, unreachable, overloaded) as opposed to bugs.
const NET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "EHOSTUNREACH", "EAI_AGAIN"]);
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY|NOTADB|CORRUPT)/;
const PG_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|database system is (starting up|shutting down)|driver has already been destroyed|database connection is not open/i;

export function isUnavailable(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (NET_CODES.has(code) || SQLITE_CODES.test(code)) return true;
    // PostgreSQL SQLSTATE classes 08 (connection), 53 (resources), 57P (operator intervention).
    if (/^(08|53|57P)/.test(code)) return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isUnavailable);
  return PG_MESSAGES.test(err.message);
}

/** Runs a store operation, turning connection-level failures into StoreUnavailableError (→ 503). */
export async function guard<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (isUnavailable(err)) throw new StoreUnavailableError("database unavailable", { cause: err });
    throw err;
  }
}
